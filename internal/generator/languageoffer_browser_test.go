package generator_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestHomeOffersTheVisitorsLanguage opens the English home page with the
// browser's preferred languages set as a visitor's would be
// (Accept-Language, navigator.languages): the first language of the
// build among them, before English, is offered by a notice written in it
// and linking its home page (the languages are given as the browser's
// settings list them, which it sends with weights in Accept-Language); a visitor who prefers English, or only
// languages the build lacks, sees none; nobody is sent away.
func TestHomeOffersTheVisitorsLanguage(t *testing.T) {
	srv := httptest.NewServer(serveTree(t, builtInLanguages(t)))
	defer srv.Close()
	ctx := browser(t)
	eval := evaluator(ctx, t)
	ua := eval(`navigator.userAgent`)
	shown := `[...document.querySelectorAll("[data-language-offer]")].filter(p => p.checkVisibility()).map(p => p.lang + " " + p.querySelector("a").getAttribute("href") + " " + p.textContent.trim()).join("|")`
	offer := func(code string) string {
		c, _ := locale.Embedded().Get(code)
		return c.Tag.String() + " /" + code + "/ " + c.Text("site.language_offer")
	}
	for _, tc := range []struct{ accept, want string }{
		{"es-ES,es,en", offer("es")},
		{"fr-FR,fr,ar,en", offer("ar")},
		{"en-GB,en,es", ""},
		{"fr-FR,fr", ""},
	} {
		err := chromedp.Do(ctx,
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: tc.accept})
				return err
			}),
			chromedp.Navigate(srv.URL+"/"),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := eval(shown); got != tc.want {
			t.Errorf("preferring %s, the home page offers %q, want %q", tc.accept, got, tc.want)
		}
		if loc := eval(`location.pathname`); loc != "/" || !strings.Contains(eval(`document.documentElement.lang`), "en") {
			t.Errorf("preferring %s, the visitor was sent to %s", tc.accept, loc)
		}
	}
}

// TestLiveCheckInTheLanguageOfThePage asks the Spanish home page's live
// check: the API answers in Spanish, the script writes the stay and the
// date in Spanish and links the route's Spanish page.
func TestLiveCheckInTheLanguageOfThePage(t *testing.T) {
	srv := httptest.NewServer(serveTree(t, builtInLanguages(t)))
	defer srv.Close()
	ctx := browser(t)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	es, _ := locale.Embedded().Get("es")
	run(chromedp.Navigate(srv.URL + "/es/"))
	run(chromedp.SetValue("#passport", "DEU"))
	run(chromedp.SetValue("#destination", es.Country("TH", "Thailand")))
	run(chromedp.Click("button[data-live]"))
	run(chromedp.WaitVisible(`[data-result] a`))
	result, err := chromedp.Run(ctx, chromedp.Text("[data-result]"))
	if err != nil {
		t.Fatal(err)
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("[data-result] a").getAttribute("href")`))
	if err != nil {
		t.Fatal(err)
	}
	verdict := es.Text("verdict.with_stay", "requirement", es.Text("requirement.visa_free.label"), "stay", es.Count("stay.days", 60))
	asOf := es.Text("page.live.as_of", "date", datatest.Evaluator(t).VerdictAge(buildDay.Now()).AsOf.LongIn(es))
	if !strings.Contains(result, verdict) || !strings.Contains(result, asOf) || href != "/es/passports/deu/tha/" {
		t.Errorf("the Spanish live check says %q and links %s, want %q, %q and /es/passports/deu/tha/", result, href, verdict, asOf)
	}
}
