package generator_test

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// hostileCSS is what a host page might do to hide an embedded checker or
// its attribution: every rule reaches the marker element, none reaches into
// its shadow root.
const hostileCSS = `
[data-entrycheck], [data-entrycheck] * { display: none !important; visibility: hidden !important; opacity: 0 !important; }
div { visibility: hidden; color: transparent; font-size: 0; text-indent: -9999px; }
a { display: none !important; }
`

// hostSite is another site that embeds the checker from site, with a strict
// Content-Security-Policy that allows site only for scripts and connections,
// and the hostile stylesheet. script is the script element, by default
// site's /embed.js.
func hostSite(site, body string, script ...string) http.Handler {
	tag := `<script src="` + site + `/embed.js" async></script>`
	if len(script) > 0 {
		tag = script[0]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src "+site+"; connect-src "+site)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A travel blog</title><link rel="stylesheet" href="/host.css"></head>
<body><h1>A travel blog</h1>%s%s</body></html>`, body, tag)
		case "/host.css":
			w.Header().Set("Content-Type", "text/css")
			fmt.Fprint(w, hostileCSS)
		default:
			http.NotFound(w, r)
		}
	})
}

// otherOrigin names a test server by localhost instead of 127.0.0.1: another
// site, not only another origin, for the browser.
func otherOrigin(srv *httptest.Server) string {
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// pageProblems collects what a page reports: console errors and warnings,
// uncaught exceptions, browser log entries (failed loads, CSP violations).
type pageProblems struct {
	mu   sync.Mutex
	list []string
}

func (p *pageProblems) listen(t *testing.T, ctx context.Context) {
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				p.list = append(p.list, "console "+string(e.Type))
			}
		case *runtime.EventExceptionThrown:
			p.list = append(p.list, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			// The browser's own favicon request is not the page's doing.
			if (e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning) && !strings.HasSuffix(e.Entry.URL, "/favicon.ico") {
				p.list = append(p.list, string(e.Entry.Source)+": "+e.Entry.Text+" "+e.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (p *pageProblems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}

// cspWatch records securitypolicyviolation events in every page, before
// the page's own scripts run and whatever the page's CSP.
const cspWatch = `window.__violations = []; document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.violatedDirective + " " + e.blockedURI), true);`

var errNoShadowRoot = errors.New("no shadow root yet")

// shadow calls fn, a JavaScript function, with the shadow root of the
// element matching host as this. The checker's root is closed, out of reach
// of page scripts, but not of the DevTools protocol.
func shadow[T any](host, fn string, args ...any) chromedp.Action[T] {
	return func(ctx context.Context, t *chromedp.Target) (T, error) {
		var zero T
		el, err := chromedp.Evaluate[*runtime.RemoteObject](`document.querySelector(`+strconv.Quote(host)+`)`)(ctx, t)
		if err != nil {
			return zero, err
		}
		if el.ObjectID == "" {
			return zero, fmt.Errorf("no element %s", host)
		}
		depth, pierce := int64(1), true
		d, err := cdp.Call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: el.ObjectID, Depth: &depth, Pierce: &pierce})
		if err != nil {
			return zero, err
		}
		if len(d.Node.ShadowRoots) == 0 {
			return zero, errNoShadowRoot
		}
		sr := d.Node.ShadowRoots[0]
		if sr.ShadowRootType != cdp.ShadowRootTypeClosed {
			return zero, fmt.Errorf("%s has a %s shadow root, want closed", host, sr.ShadowRootType)
		}
		root, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: sr.BackendNodeID})
		if err != nil {
			return zero, err
		}
		await := true // fn may be async
		return chromedp.CallFunctionOn[T](fn, func(p *runtime.CallFunctionOnParams) { p.ObjectID, p.AwaitPromise = root.Object.ObjectID, &await }, args...)(ctx, t)
	}
}

// openWidgets opens url in a fresh browser that records the page's
// problems and its CSP violations (in window.__violations).
func openWidgets(t *testing.T, url string) (widgetDriver, *pageProblems) {
	t.Helper()
	ctx := browser(t)
	seen := &pageProblems{}
	seen.listen(t, ctx)
	w := widgetDriver{t, ctx}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch}); err != nil {
		t.Fatal(err)
	}
	w.do(chromedp.Navigate(url))
	return w, seen
}

// widgetDriver drives the checkers of the current page.
type widgetDriver struct {
	t   *testing.T
	ctx context.Context
}

func (w widgetDriver) do(a chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	if _, err := chromedp.Run(w.ctx, a); err != nil {
		w.t.Fatal(err)
	}
}

// in evaluates fn in the shadow root of host, with args.
func (w widgetDriver) in(host, fn string, args ...any) string {
	w.t.Helper()
	v, err := chromedp.Run(w.ctx, shadow[string](host, fn, args...))
	if err != nil {
		w.t.Fatalf("%s: %v", host, err)
	}
	return v
}

// wait polls fn in the shadow root of host until it returns true.
func (w widgetDriver) wait(host, fn string) {
	w.t.Helper()
	for {
		ok, err := chromedp.Run(w.ctx, shadow[bool](host, fn))
		if err == nil && ok {
			return
		}
		if err != nil && !errors.Is(err, errNoShadowRoot) {
			w.t.Fatalf("%s: %v", host, err)
		}
		select {
		case <-w.ctx.Done():
			w.t.Fatalf("%s: waiting for %s: %v (last error %v)", host, fn, w.ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// answered waits for a checker to show something other than "Checking…".
func (w widgetDriver) answered(host string) string {
	w.t.Helper()
	w.wait(host, `function () { const o = this.querySelector(".out"); return o.textContent !== "" && !o.hasAttribute("aria-busy"); }`)
	return w.in(host, `function () { return this.querySelector(".out").innerText; }`)
}

// attribution reports whether the attribution link of host is displayed,
// visible, on top where it is drawn, and readable in English, and where it
// links.
func (w widgetDriver) attribution(host string) (visible bool, href string) {
	w.t.Helper()
	return w.attributionReads(host, entrycheck.English().Text("widget.credit"))
}

// attributionReads is attribution for a checker whose link reads credit.
func (w widgetDriver) attributionReads(host, credit string) (visible bool, href string) {
	w.t.Helper()
	v := w.in(host, `function (credit) {
		const a = this.querySelector(".by a");
		if (!a) return "missing";
		a.scrollIntoView({block: "center"});
		const r = a.getBoundingClientRect(), s = getComputedStyle(a);
		const hit = this.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === a;
		const ok = a.checkVisibility({opacityProperty: true, visibilityProperty: true}) && r.width > 20 && r.height > 5 && hit &&
			s.color !== "rgba(0, 0, 0, 0)" && parseFloat(s.fontSize) >= 10 && a.textContent === credit;
		return (ok ? "visible " : "hidden ") + a.href;
	}`, credit)
	state, href, _ := strings.Cut(v, " ")
	return state == "visible", href
}

// TestWidgetOnAnotherSite embeds the checker from the site's server in a
// page of another site with a strict CSP and a stylesheet that tries to hide
// it: it renders, answers like the evaluator, honours its attributes and
// keeps its attribution visible, without a console error on the host page.
func TestWidgetOnAnotherSite(t *testing.T) {
	site := httptest.NewServer(serveTree(t, built(t)))
	defer site.Close()
	host := httptest.NewServer(hostSite(site.URL, `
<div id="pick" data-entrycheck></div>
<div id="preset" data-entrycheck data-passport="deu" data-destination="THA" data-theme="dark"></div>
<div id="bad" data-entrycheck data-passport="XX1" data-destination="THA"></div>`))
	defer host.Close()

	want, err := datatest.Evaluator(t).Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}, buildDay)
	if err != nil {
		t.Fatal(err)
	}
	wantStay := entrycheck.LabelAllowedStay.String() + ": " + entrycheck.StayWordsIn(entrycheck.English(), want.Requirement, want.AllowedStayDays)
	if want.RequirementLabel != "Visa-free" || wantStay != "Allowed stay: 60 days" {
		t.Fatalf("the evaluator says %s, %s", want.RequirementLabel, wantStay)
	}
	routePage := site.URL + "/passports/deu/tha/"

	w, seen := openWidgets(t, otherOrigin(host))
	ctx := w.ctx

	// Preselected and dark: it answers at once, from the passport's
	// published matrix (TestWidgetPresetSpendsNoCheck gives its exact text).
	out := w.answered("#preset")
	if !strings.Contains(out, want.RequirementLabel) || !strings.Contains(out, wantStay) || !strings.Contains(out, "Passport of Germany to Thailand") {
		t.Errorf("preset checker shows %q, want %s and %s", out, want.RequirementLabel, wantStay)
	}
	asOf := "As of " + want.VerdictVerification.AsOf.Long() + "."
	if want.VerdictVerification.On(time.Now()).Old { // the browser's day
		asOf = entrycheck.OldVerdictWordsIn(entrycheck.English(), want.VerdictVerification.AsOf, "", nil)
	}
	if !strings.Contains(out, asOf) || strings.Contains("\n"+out+"\n", "\nfalse\n") {
		t.Errorf("preset checker shows %q, want %q and no stray text", out, asOf)
	}
	if v := w.in("#preset", `function () { return this.getElementById("passport").value + "|" + this.getElementById("destination").value; }`); v != "Germany (DEU)|Thailand (THA)" {
		t.Errorf("preset pickers: %q", v)
	}
	dark := w.in("#preset", `function () { return getComputedStyle(this.querySelector(".w")).backgroundColor; }`)
	light := w.in("#pick", `function () { return getComputedStyle(this.querySelector(".w")).backgroundColor; }`)
	if dark != "rgb(22, 24, 29)" || light != "rgb(255, 255, 255)" {
		t.Errorf("backgrounds: dark theme %s, light theme %s", dark, light)
	}

	// Picked with the keyboard: a code in lower case, Tab, a name, Enter.
	if n := w.in("#pick", `function () { return String(this.getElementById("passport").list.options.length); }`); n != "199" {
		t.Errorf("the passport picker offers %s countries, want 199", n)
	}
	if v, href := w.attribution("#pick"); !v || href != site.URL+"/" {
		t.Errorf("before a check, the attribution is visible %v, links to %s", v, href)
	}
	w.in("#pick", `function () { this.getElementById("passport").focus(); return ""; }`)
	w.do(chromedp.KeyEvent("deu"))
	w.do(chromedp.KeyEvent("\t"))
	if f := w.in("#pick", `function () { return this.activeElement.id; }`); f != "destination" {
		t.Errorf("Tab from the passport picker went to %q", f)
	}
	w.do(chromedp.KeyEvent("Thailand"))
	w.do(chromedp.KeyEvent("\r"))
	out = w.answered("#pick")
	if !strings.Contains(out, want.RequirementLabel) || !strings.Contains(out, wantStay) {
		t.Errorf("picked checker shows %q, want %s and %s", out, want.RequirementLabel, wantStay)
	}
	// Thailand's validity rule is documented for British travellers: a
	// hint, which the widget leaves to the route page. Every line for the
	// passport reads as on the route page (TestWidgetRulesAsTheRoutePages
	// compares them all).
	pv := want.EntryRules.PassportValidity
	if pv == nil || pv.Applies != entrycheck.AppliesDocumentedForOthers {
		t.Fatalf("DEU to THA passport validity: %+v, want documented for others", pv)
	}
	lines := want.EntryRules.Lines()
	if len(lines) < 3 || lines[0].Field != entrycheck.FieldPassportValidity || !strings.HasPrefix(lines[0].Text, pv.Note) {
		t.Fatalf("DEU to THA rule lines: %+v", lines)
	}
	for _, l := range lines {
		line := l.Label + ": " + l.Text
		if l.Detail != "" {
			line += " " + l.Detail
		}
		if strings.Contains(out, line) != l.ForThisPassport {
			t.Errorf("picked checker shows the %s line %q: %v, for this passport: %v:\n%s", l.Field, line, !l.ForThisPassport, l.ForThisPassport, out)
		}
	}
	if !strings.Contains(out, want.Disclaimer) {
		t.Errorf("picked checker lacks the disclaimer:\n%s", out)
	}
	// One source per line.
	if sources := w.in("#pick", `function () { return [...this.querySelectorAll(".rules .src a")].map(a => a.href).join(" "); }`); strings.Count(sources, "https://") != len(entrycheck.LinesForThisPassport(lines)) {
		t.Errorf("rule sources: %q", sources)
	}
	if live := w.in("#pick", `function () { return this.querySelector(".out").getAttribute("aria-live"); }`); live != "polite" {
		t.Errorf("the result region is aria-live %q", live)
	}

	// A code it does not know is said plainly, and nothing is checked.
	out = w.answered("#bad")
	if !strings.Contains(out, `passport "XX1", which is not a country it knows`) || strings.Contains(out, "Visa-free") {
		t.Errorf("bad attribute: %q", out)
	}
	if v := w.in("#bad", `function () { return this.getElementById("passport").getAttribute("aria-invalid") + "|" + this.getElementById("destination").value; }`); v != "true|Thailand (THA)" {
		t.Errorf("bad attribute pickers: %q", v)
	}

	// The attribution stays visible against the host's stylesheet, and
	// against important inline styles on the marker element.
	for _, id := range []string{"#pick", "#preset", "#bad"} {
		v, href := w.attribution(id)
		if !v {
			t.Errorf("%s: the attribution is hidden", id)
		}
		if id != "#bad" && href != routePage {
			t.Errorf("%s: the attribution links to %s, want the route page %s", id, href, routePage)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.getElementById("bad").style;
		for (const p of ["display", "visibility", "opacity"]) s.setProperty(p, p === "display" ? "none" : p === "opacity" ? "0" : "hidden", "important");
		return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if v, _ := w.attribution("#bad"); !v {
		t.Error("important inline styles on the marker element hide the attribution")
	}

	if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__violations`)); err != nil || len(v) > 0 {
		t.Errorf("CSP violations on the host page: %v %v", v, err)
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the host page reported problems: %v", p)
	}
}

// TestWidgetWhenChecksFail: a 429 of the API says that the daily limit is
// reached and links to the route page, while a preset route still answers
// from the published matrix; a service that cannot be reached is said so too.
func TestWidgetWhenChecksFail(t *testing.T) {
	site := httptest.NewServer(serveTree(t, built(t), func(c *config.Config) { c.Quotas.Anonymous = 1 }))
	defer site.Close()
	resp, err := http.Get(site.URL + "/free/check?passport=DEU&destination=THA")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the only free check of the day: %s", resp.Status)
	}
	host := httptest.NewServer(hostSite(site.URL, `
<div id="preset" data-entrycheck data-passport="DEU" data-destination="THA"></div>
<div id="pick" data-entrycheck></div>`))
	defer host.Close()

	w, seen := openWidgets(t, otherOrigin(host))

	// The preset route needs no check: it answers with none left.
	if out := w.answered("#preset"); !strings.HasPrefix(out, "Passport of Germany to Thailand\n\nVisa-free\n\n") {
		t.Errorf("with no free check left, the preset checker shows %q", out)
	}
	w.in("#pick", `function () { this.getElementById("passport").value = "DEU"; this.getElementById("destination").value = "THA"; this.querySelector("button").click(); return ""; }`)
	out := w.answered("#pick")
	link := w.in("#pick", `function () { return this.querySelector(".out a").href; }`)
	if out != "The daily limit of free checks is reached. The answer is on entrycheck: Passport of Germany to Thailand" || link != site.URL+"/passports/deu/tha/" {
		t.Errorf("429: %q linking to %s", out, link)
	}
	// The browser logs the failed request itself; nothing else may appear.
	for _, p := range seen.take() {
		if !strings.HasPrefix(p, "network: ") || !strings.Contains(p, "429") {
			t.Errorf("the host page reported %s", p)
		}
	}

	site.CloseClientConnections()
	site.Close()
	w.in("#pick", `function () { this.getElementById("passport").value = "FRA"; this.getElementById("destination").value = "Japan"; this.querySelector("button").click(); return ""; }`)
	out = w.answered("#pick")
	if !strings.HasPrefix(out, "The checker could not reach entrycheck.") || !strings.Contains(out, "Passport of France to Japan") {
		t.Errorf("unreachable: %q", out)
	}
	for _, p := range seen.take() {
		if !strings.HasPrefix(p, "network: ") {
			t.Errorf("the host page reported %s", p)
		}
	}
}

// TestWidgetPageUnderTheSiteCSP opens the widget page of the site, under the
// site's own Content-Security-Policy (style-src 'self', script-src 'self',
// connect-src 'self'): the live example is styled and answers, with no
// violation.
func TestWidgetPageUnderTheSiteCSP(t *testing.T) {
	site := httptest.NewServer(serveTree(t, built(t)))
	defer site.Close()
	resp, err := http.Get(site.URL + "/widget/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, d := range []string{"style-src 'self'", "script-src 'self'", "connect-src 'self'"} {
		if !strings.Contains(csp, d) {
			t.Fatalf("the site's CSP %q lacks %s", csp, d)
		}
	}
	w, seen := openWidgets(t, site.URL+"/widget/")
	ctx := w.ctx
	w.wait("[data-entrycheck]", `function () { return getComputedStyle(this.querySelector(".w")).borderRadius === "8px"; }`)
	if v := w.in("[data-entrycheck]", `function () { return this.getElementById("passport").value; }`); v != "Germany (DEU)" {
		t.Errorf("the live example's passport: %q", v)
	}
	w.in("[data-entrycheck]", `function () { this.getElementById("destination").focus(); return ""; }`)
	w.do(chromedp.KeyEvent("THA\r"))
	if out := w.answered("[data-entrycheck]"); !strings.Contains(out, "Visa-free") {
		t.Errorf("the live example answers %q", out)
	}
	if v, href := w.attribution("[data-entrycheck]"); !v || href != site.URL+"/passports/deu/tha/" {
		t.Errorf("attribution visible %v, links to %s", v, href)
	}
	// A passport's own country has no route page: the passport's page stands in.
	w.in("[data-entrycheck]", `function () { this.getElementById("destination").value = "germany"; this.querySelector("button").click(); return ""; }`)
	w.wait("[data-entrycheck]", `function () { return this.querySelector(".out").textContent.includes("own country"); }`)
	if v, href := w.attribution("[data-entrycheck]"); !v || href != site.URL+"/passports/deu/" {
		t.Errorf("own country: attribution visible %v, links to %s", v, href)
	}
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__violations`)); err != nil || len(v) > 0 {
		t.Errorf("CSP violations on the widget page: %v %v", v, err)
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the widget page reported problems: %v", p)
	}
}

// TestWidgetPinnedWithIntegrity embeds the pinned checker the widget page
// offers, with its integrity digest, from another site: the browser runs it;
// with one character of the digest changed, the browser refuses it.
func TestWidgetPinnedWithIntegrity(t *testing.T) {
	dir := built(t)
	page, err := os.ReadFile(filepath.Join(dir, "widget", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`src="[^"]*?(/embed\.[0-9a-f]{10}\.js)" integrity="(sha384-[A-Za-z0-9+/=]+)" crossorigin="anonymous"`).FindSubmatch([]byte(html.UnescapeString(string(page))))
	if m == nil {
		t.Fatal("the widget page offers no pinned script with an integrity digest")
	}
	path, integrity := string(m[1]), string(m[2])
	site := httptest.NewServer(serveTree(t, dir))
	defer site.Close()
	other := "A"
	if integrity[10] == 'A' {
		other = "B"
	}
	tampered := integrity[:10] + other + integrity[11:]
	for _, c := range []struct {
		integrity string
		runs      bool
	}{{integrity, true}, {tampered, false}} {
		script := `<script src="` + site.URL + path + `" integrity="` + c.integrity + `" crossorigin="anonymous" async></script>`
		host := httptest.NewServer(hostSite(site.URL, `<div id="preset" data-entrycheck data-passport="DEU" data-destination="THA"></div>`, script))
		w, seen := openWidgets(t, otherOrigin(host))
		ctx := w.ctx
		if c.runs {
			if out := w.answered("#preset"); !strings.Contains(out, "Visa-free") {
				t.Errorf("pinned checker shows %q", out)
			}
			if p := seen.take(); len(p) > 0 {
				t.Errorf("the host page reports %v", p)
			}
		} else {
			// The script would have rendered the checker well within this time.
			deadline := time.Now().Add(2 * time.Second)
			for time.Now().Before(deadline) {
				if _, err := chromedp.Run(ctx, shadow[string]("#preset", `function () { return ""; }`)); !errors.Is(err, errNoShadowRoot) {
					t.Fatalf("a script with a wrong digest ran (%v)", err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			if p := seen.take(); len(p) == 0 {
				t.Error("the browser did not report the refused script")
			}
		}
		host.Close()
	}
}
