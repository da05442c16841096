package generator_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestHomePageHasOnePrimaryAction: the home page's form has one primary
// button, which leads to the route's page; the live check is a secondary
// action that says before it is used that it counts against the day's
// free checks, and only using it asks /free/check.
func TestHomePageHasOnePrimaryAction(t *testing.T) {
	counted := &countingSite{h: serveTree(t, built(t))}
	site := httptest.NewServer(counted)
	defer site.Close()
	ctx := browser(t)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	eval := evaluator(ctx, t)
	run(chromedp.EmulateViewport(1280, 900))
	run(chromedp.Navigate(site.URL + "/"))
	run(chromedp.WaitVisible("button[data-live]"))
	// A primary button is filled with a colour; the others are not.
	primary := eval(`[...document.querySelectorAll("form[data-checker] button")].filter(b => b.checkVisibility() && getComputedStyle(b).backgroundColor !== "rgba(0, 0, 0, 0)").map(b => b.textContent.trim()).join("|")`)
	en := entrycheck.English()
	if primary != en.Text("page.find.submit") {
		t.Errorf("the home page's primary buttons: %q, want the one that shows the entry requirements", primary)
	}
	notice := eval(`(() => { const h = document.getElementById(document.querySelector("button[data-live]").getAttribute("aria-describedby")); return h && h.checkVisibility() ? h.textContent : ""; })()`)
	if want := en.Text("page.live.notice"); !strings.Contains(notice, want) {
		t.Errorf("before the live check, the page says %q, want %q", notice, want)
	}
	run(chromedp.SetValue("#passport", "DEU"))
	run(chromedp.SetValue("#destination", "THA"))
	if n := counted.checks.Load(); n != 0 {
		t.Fatalf("%d checks before the live check was asked for", n)
	}
	run(chromedp.Click("button[data-live]"))
	run(chromedp.WaitVisible(`[data-result] a`))
	if n := counted.checks.Load(); n != 1 {
		t.Errorf("the live check asked /free/check %d times, want once", n)
	}
}

// TestIndexesFilterByName: /passports/ and /destinations/ list every
// country without the script, which adds a filter by name (accents and
// case aside, or by code); /destinations/ marks the destinations with
// cited entry rules, exactly those of the curated data, and can show only
// them.
func TestIndexesFilterByName(t *testing.T) {
	root := built(t)
	snap := datatest.Evaluator(t).Snapshot()
	countries := snap.Matrix.Countries()
	cited := snap.Curated.CitedCodes()
	for _, index := range []string{"passports", "destinations"} {
		b, err := os.ReadFile(filepath.Join(root, index, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		if n := len(regexp.MustCompile(`<li(?: data-marked)?><a href="/`+index+`/[a-z]{3}/">`).FindAllString(page, -1)); n != len(countries) {
			t.Errorf("/%s/ lists %d countries without the script, want %d", index, n, len(countries))
		}
		if !strings.Contains(page, `data-filter-box hidden`) {
			t.Errorf("/%s/ shows its filter without the script", index)
		}
	}
	md, err := os.ReadFile(filepath.Join(root, "destinations", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(md), "(cited entry rules)"); n != len(cited) {
		t.Errorf("/destinations/index.md marks %d destinations, want the %d with cited rules", n, len(cited))
	}

	srv := httptest.NewServer(serveTree(t, root))
	defer srv.Close()
	ctx := browser(t)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	eval := evaluator(ctx, t)
	shown := `[...document.querySelectorAll("#index li")].filter(li => li.checkVisibility()).map(li => li.querySelector("a").getAttribute("href").split("/")[2]).join(" ")`
	typeIn := func(value string) {
		t.Helper()
		run(chromedp.SetValue("#filter", value))
		eval(`document.getElementById("filter").dispatchEvent(new Event("input")), ""`)
	}

	run(chromedp.Navigate(srv.URL + "/passports/"))
	run(chromedp.WaitVisible("#filter"))
	if got := len(strings.Fields(eval(shown))); got != len(countries) {
		t.Errorf("/passports/ shows %d countries before filtering, want %d", got, len(countries))
	}
	for typed, want := range map[string]string{"germ": "deu", "DEU": "deu", "cote d'iv": "civ", "CÔTE": "civ"} {
		typeIn(typed)
		if got := eval(shown); got != want {
			t.Errorf("/passports/ filtered by %q shows %q, want %q", typed, got, want)
		}
	}
	typeIn("qwzx")
	if got := eval(`document.querySelector("[data-filter-none]").checkVisibility() ? "said" : ""`); got != "said" || eval(shown) != "" {
		t.Errorf("a filter nothing matches: %q shown, no-match sentence %q", eval(shown), got)
	}
	typeIn("niger")
	if got := eval(shown); got != "ner nga" {
		t.Errorf("/passports/ filtered by niger shows %q", got)
	}

	run(chromedp.Navigate(srv.URL + "/destinations/"))
	run(chromedp.WaitVisible("#filter"))
	marked := eval(`[...document.querySelectorAll("#index li")].filter(li => li.querySelector(".mark")).map(li => li.querySelector("a").getAttribute("href").split("/")[2]).sort().join(" ")`)
	want := strings.ToLower(strings.Join(cited, " "))
	if marked != want {
		t.Errorf("/destinations/ marks\n%s\nwant the destinations with cited rules\n%s", marked, want)
	}
	if intro := eval(`document.querySelector("main").innerText`); !strings.Contains(intro, strconv.Itoa(len(cited))+" of the "+strconv.Itoa(len(countries))+" destinations") {
		t.Errorf("/destinations/ does not count its destinations with cited rules")
	}
	eval(`(() => { const c = document.querySelector("[data-filter-marked]"); c.checked = true; c.dispatchEvent(new Event("change")); return ""; })()`)
	if got := eval(`(` + shown + `).split(" ").sort().join(" ")`); got != want {
		t.Errorf("only destinations with cited rules shows %q, want %q", got, want)
	}
}

// TestWidgetSuggestsFitsAndSpaces: a checker that does not understand a
// country asks "Did you mean Germany?" as /go does, and taking the
// suggestion checks it (only that check counts); on a 390 px phone every
// country's name shows whole in its field; two checkers on one page stand
// apart.
func TestWidgetSuggestsFitsAndSpaces(t *testing.T) {
	counted := &countingSite{h: serveTree(t, built(t))}
	site := httptest.NewServer(counted)
	defer site.Close()
	host := httptest.NewServer(hostSite(site.URL, `
<div id="one" data-entrycheck></div>
<div id="two" data-entrycheck data-theme="dark"></div>`))
	defer host.Close()
	w, seen := openWidgets(t, otherOrigin(host))
	w.do(chromedp.EmulateViewport(390, 900))
	w.wait("#two", `function () { return !!this.querySelector("form"); }`)

	// Two checkers stand apart.
	gap, err := chromedp.Run(w.ctx, chromedp.Evaluate[float64](`document.getElementById("two").getBoundingClientRect().top - document.getElementById("one").getBoundingClientRect().bottom`))
	if err != nil {
		t.Fatal(err)
	}
	if gap < 12 {
		t.Errorf("two checkers on one page are %.0f px apart, want at least 12", gap)
	}

	// Every country's label shows whole in either field at 390 px.
	cut := w.in("#one", `function () {
		const cut = [];
		for (const input of this.querySelectorAll("input")) {
			for (const o of this.querySelectorAll("#countries option")) {
				input.value = o.value;
				if (input.scrollWidth > input.clientWidth) cut.push(input.id + ": " + o.value);
			}
			input.value = "";
		}
		return cut.join("; ");
	}`)
	if cut != "" {
		t.Errorf("at 390 px these names do not fit their field: %s", cut)
	}

	// A misspelt country: the service suggests, nothing is counted.
	w.in("#one", `function () { this.getElementById("passport").value = "Germny"; this.getElementById("destination").value = "Thailand"; this.querySelector("form button").click(); return ""; }`)
	if got, want := w.answered("#one"), entrycheck.English().Text("widget.did_you_mean", "country", "Germany"); got != want {
		t.Errorf("the checker says %q for Germny, want %q", got, want)
	}
	if n := counted.checks.Load(); n != 1 {
		t.Errorf("%d requests to /free/check for the misspelt check, want one", n)
	}
	w.in("#one", `function () { this.querySelector("button.meant").click(); return ""; }`)
	w.wait("#one", `function () { return this.querySelector(".out").innerText.includes("Passport of Germany to Thailand"); }`)
	if v := w.in("#one", `function () { return this.getElementById("passport").value + "|" + this.getElementById("passport").hasAttribute("aria-invalid"); }`); v != "Germany (DEU)|false" {
		t.Errorf("after the suggestion was taken the passport reads %q", v)
	}
	if p := seen.take(); len(p) > 0 {
		// The refused check (400) is logged by the browser as a failed load.
		for _, s := range p {
			if !strings.Contains(s, "400") {
				t.Errorf("the host page reported: %s", s)
			}
		}
	}
}
