package generator_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// pageIn is another site's page written in lang (its <html lang>, none when
// empty), which embeds the checker from site with the one snippet of the
// widget page (its script element with the attributes script), under the
// Content-Security-Policy csp.
func pageIn(site, lang, script, csp, body string) http.Handler {
	html := "<html>"
	if lang != "" {
		html = `<html lang="` + lang + `">`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html>%s<head><meta charset="utf-8"><title>A travel blog</title></head>
<body><h1>A travel blog</h1>%s<script src="%s/embed.js"%s async></script></body></html>`, html, body, site, script)
	})
}

// checkerSpeaks checks the words a checker shows before any answer, those
// of the catalog c: its fields, button, hint, name, attribution, language
// and direction, and the countries of its pickers in the language.
func checkerSpeaks(t *testing.T, w widgetDriver, host string, c *locale.Catalog) {
	t.Helper()
	w.wait(host, `function () { return this.querySelector("button") !== null; }`)
	got := w.in(host, `function () {
		const w = this.querySelector(".w");
		return JSON.stringify([w.lang, w.dir, getComputedStyle(w).direction, w.getAttribute("aria-label"),
			this.querySelector("label[for=passport]").textContent, this.querySelector("label[for=destination]").textContent,
			this.querySelector("button[type=submit]").textContent, this.getElementById("hint").textContent]);
	}`)
	want := fmt.Sprintf("[%q,%q,%q,%q,%q,%q,%q,%q]", c.Code, c.Dir(), c.Dir(), c.Text("widget.name"),
		c.Text("widget.passport"), c.Text("widget.destination"), c.Text("widget.check"), c.Text("widget.hint"))
	if got != want {
		t.Errorf("%s shows\n%s\nwant\n%s", host, got, want)
	}
	if v, _ := w.attributionReads(host, c.Text("widget.credit")); !v {
		t.Errorf("%s: the attribution does not read %q, visibly", host, c.Text("widget.credit"))
	}
	thailand := c.Country("TH", "Thailand") + " (THA)"
	if n := w.in(host, `function (label) { return String([...this.getElementById("countries").options].filter(o => o.value === label).length); }`, thailand); n != "1" {
		t.Errorf("%s: the pickers do not offer %q", host, thailand)
	}
}

// liveRules checks from the form of host the route p to d, and says what
// of its answer in the language of c the checker lacks: the requirement,
// the entry rules for the passport (which only the service words, asked in
// the checker's language) and the disclaimer.
func liveRules(t *testing.T, w widgetDriver, host string, c *locale.Catalog, p, d string) []string {
	t.Helper()
	want, err := datatest.Evaluator(t).Check(entrycheck.CheckRequest{Passport: p, Destination: d, Language: c.Code}, buildDay)
	if err != nil {
		t.Fatal(err)
	}
	lines := entrycheck.LinesForThisPassport(want.RuleLines())
	if len(lines) == 0 {
		t.Fatalf("%s to %s has no entry rule for its passport", p, d)
	}
	w.in(host, `function (p, d) { this.getElementById("passport").value = p; this.getElementById("destination").value = d; this.querySelector("button").click(); return ""; }`, p, d)
	out := w.answered(host)
	var missing []string
	for _, s := range []string{want.Requirement.LabelIn(c), entrycheck.Disclaimer(c), entrycheck.RouteWordsIn(c, c.Country(want.Passport.ISO2, want.Passport.Name), c.Country(want.Destination.ISO2, want.Destination.Name))} {
		if !strings.Contains(out, s) {
			missing = append(missing, s)
		}
	}
	for _, l := range lines {
		if line := c.Text("widget.fact", "label", l.Label, "text", l.Text); !strings.Contains(out, line) {
			missing = append(missing, line)
		}
	}
	if len(missing) > 0 {
		t.Logf("%s answered:\n%s", host, out)
	}
	return missing
}

// TestWidgetSpeaksItsDataLang embeds checkers with data-lang="es" (and a
// regional tag, es-MX) in an English page: they speak Spanish, the
// catalog's words, with the countries' Spanish names; the preset one
// answers from the published matrix word for word in Spanish, and a check
// from the form asks the service in Spanish, whose entry rules it shows.
// A checker without data-lang on the same page speaks the page's English.
func TestWidgetSpeaksItsDataLang(t *testing.T) {
	es, _ := locale.Embedded().Get("es")
	ev := datatest.Evaluator(t)
	deu, err := ev.PassportMatrix("DEU", "", buildDay)
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(serveTree(t, built(t)))
	defer site.Close()
	host := httptest.NewServer(hostSite(site.URL, `
<div id="preset" data-entrycheck data-lang="es" data-passport="DEU" data-destination="THA"></div>
<div id="pick" data-entrycheck data-lang="es-MX"></div>
<div id="english" data-entrycheck></div>`))
	defer host.Close()
	w, seen := openWidgets(t, otherOrigin(host))

	checkerSpeaks(t, w, "#preset", es)
	checkerSpeaks(t, w, "#pick", es)
	checkerSpeaks(t, w, "#english", entrycheck.English())
	if got, want := w.answered("#preset"), publishedText(t, es, deu, entryOf(t, deu, "THA")); got != want {
		t.Errorf("the preset checker in Spanish shows\n%q\nwant\n%q", got, want)
	}
	if v := w.in("#preset", `function () { return this.getElementById("passport").value; }`); v != "Alemania (DEU)" {
		t.Errorf("the Spanish passport picker shows %q", v)
	}
	if missing := liveRules(t, w, "#pick", es, "DEU", "THA"); len(missing) > 0 {
		t.Errorf("the Spanish check lacks %q", missing)
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the host page reported problems: %v", p)
	}
}

// TestWidgetSpeaksThePagesLanguage embeds a checker without data-lang in
// a page written in Arabic (<html lang="ar">) that enforces Trusted Types:
// it speaks Arabic, right to left, answers in Arabic, and the loader adds
// its bundle through the policy the page allows. In a page without a
// language, a checker speaks the browser's first language it knows
// (pt-BR, Portuguese).
func TestWidgetSpeaksThePagesLanguage(t *testing.T) {
	ar, _ := locale.Embedded().Get("ar")
	pt, _ := locale.Embedded().Get("pt")
	site := httptest.NewServer(serveTree(t, built(t)))
	defer site.Close()
	csp := "default-src 'none'; script-src " + site.URL + "; connect-src " + site.URL + "; require-trusted-types-for 'script'; trusted-types entrycheck"
	host := httptest.NewServer(pageIn(site.URL, "ar", "", csp, `<div id="pick" data-entrycheck></div>`))
	defer host.Close()

	w, seen := openWidgets(t, otherOrigin(host))
	checkerSpeaks(t, w, "#pick", ar)
	if missing := liveRules(t, w, "#pick", ar, "DEU", "THA"); len(missing) > 0 {
		t.Errorf("the Arabic check lacks %q", missing)
	}
	if v, err := chromedp.Run(w.ctx, chromedp.Evaluate[[]string](`window.__violations`)); err != nil || len(v) > 0 {
		t.Errorf("CSP violations on the host page: %v %v", v, err)
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the host page reported problems: %v", p)
	}

	plain := httptest.NewServer(pageIn(site.URL, "", "", "default-src 'none'; script-src "+site.URL+"; connect-src "+site.URL, `<div id="pick" data-entrycheck></div>`))
	defer plain.Close()
	ctx := browser(t)
	if _, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: "Mozilla/5.0 entrycheck-test", AcceptLanguage: "pt-BR,xx;q=0.9,en;q=0.8"}); err != nil {
		t.Fatal(err)
	}
	b := widgetDriver{t, ctx}
	b.do(chromedp.Navigate(otherOrigin(plain)))
	checkerSpeaks(t, b, "#pick", pt)
}

// TestWidgetLanguageOrder: a checker's own data-lang comes before its
// script element's, which comes before the page's language; checkers of
// two languages share a page and one script element, each loading its own
// bundle once.
func TestWidgetLanguageOrder(t *testing.T) {
	cs := locale.Embedded()
	de, _ := cs.Get("de")
	fr, _ := cs.Get("fr")
	site := httptest.NewServer(serveTree(t, built(t)))
	defer site.Close()
	host := httptest.NewServer(pageIn(site.URL, "ar", ` data-lang="de"`, "default-src 'none'; script-src "+site.URL+"; connect-src "+site.URL, `
<div id="script" data-entrycheck></div>
<div id="own" data-entrycheck data-lang="fr-CA"></div>
<div id="again" data-entrycheck></div>`))
	defer host.Close()
	w, seen := openWidgets(t, otherOrigin(host))
	checkerSpeaks(t, w, "#script", de)
	checkerSpeaks(t, w, "#again", de)
	checkerSpeaks(t, w, "#own", fr)
	loaded, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](`[...document.scripts].map(s => s.src.replace(/^.*\//, "")).join(" ")`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(loaded); len(got) != 3 || !slices.Contains(got, "embed.js") || strings.Count(loaded, "embed.de.") != 1 || strings.Count(loaded, "embed.fr.") != 1 {
		t.Errorf("the page loaded %s, want the loader and the German and French checkers once each", loaded)
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the host page reported problems: %v", p)
	}
}
