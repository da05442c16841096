package generator_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck/internal/browsertest"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// browser starts a headless Chromium (browsertest.Start).
func browser(t *testing.T) context.Context { return browsertest.Start(t) }

// evaluator returns a function that evaluates a script to a string in
// the browser of ctx, failing the test on an error.
func evaluator(ctx context.Context, t *testing.T) func(js string) string {
	return func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestPagesRenderInChromium opens the home page and a route page, served by
// entrycheck serve from the generated tree, and fails on any console error,
// uncaught exception or failed request of the page.
func TestPagesRenderInChromium(t *testing.T) {
	srv := httptest.NewServer(serveTree(t, built(t)))
	defer srv.Close()
	ctx := browser(t)
	var mu sync.Mutex
	var problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, "console "+string(e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	text := func(a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	run(chromedp.Navigate(srv.URL + "/passports/deu/tha/"))
	h1, verdict := text(chromedp.Text("h1")), text(chromedp.Text("#verdict"))
	rules := text(chromedp.Evaluate[string](`String(document.styleSheets.length && document.styleSheets[0].cssRules.length)`))
	asOf := text(chromedp.Text(".verdict .asof"))
	if h1 != "Passport of Germany to Thailand" || verdict != "Visa-free" || rules == "0" || asOf != "As of 17 February 2026" {
		t.Errorf("route page: h1 %q, verdict %q, %q, stylesheet rules %s", h1, verdict, asOf, rules)
	}
	run(chromedp.Navigate(srv.URL + "/"))
	title := text(chromedp.Title())
	options := text(chromedp.Evaluate[string](`String(document.querySelectorAll("#countries option").length)`))
	run(chromedp.SetValue("#passport", "DEU"))
	run(chromedp.SetValue("#destination", "THA"))
	// The explicit live check asks the API...
	run(chromedp.Click("button[data-live]"))
	run(chromedp.WaitVisible(`[data-result] a`))
	result := text(chromedp.Text("[data-result]"))
	if !strings.Contains(title, "entrycheck") || options != itoa(len(datatest.Evaluator(t).Snapshot().Matrix.Countries())) || !strings.Contains(result, "Visa-free, up to 60 days") || !strings.Contains(result, "As of 17 February 2026.") {
		t.Errorf("home: title %q, %s options, live check %q", title, options, result)
	}
	// ...while the form itself leads to the route's page.
	run(chromedp.Click("button[type=submit]"))
	run(chromedp.WaitVisible(".verdict"))
	if loc := text(chromedp.Location()); !strings.HasSuffix(loc, "/passports/deu/tha/") {
		t.Errorf("the home form led to %s", loc)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the pages reported problems: %v", problems)
	}
}
