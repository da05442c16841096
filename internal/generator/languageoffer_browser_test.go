package generator_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

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
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
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
