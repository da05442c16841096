package generator_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// countingSite serves the site and counts the requests that reach
// /free/check; the static matrices of the passports in failing answer 503.
type countingSite struct {
	h       http.Handler
	failing map[string]bool
	checks  atomic.Int64
}

func (c *countingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/free/check" {
		c.checks.Add(1)
	}
	if c.failing[r.URL.Path] {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	c.h.ServeHTTP(w, r)
}

// verdictText is the text a checker in the language of c shows for a
// route's verdict, paragraph by paragraph, before and after what only a
// check's answer adds (its statements and entry rules): what the evaluator
// says, in the catalog's words. passport and destination are the
// countries' names in the language.
func verdictText(t *testing.T, c *locale.Catalog, passport, destination string, req entrycheck.Requirement, stay entrycheck.Days, action entrycheck.Action, apply *entrycheck.Apply, age entrycheck.VerdictAge) (head, tail []string) {
	t.Helper()
	head = []string{entrycheck.RouteWordsIn(c, passport, destination), req.LabelIn(c)}
	if words := entrycheck.StayWordsIn(c, req, stay); words != "" {
		head = append(head, c.Text("widget.fact", "label", entrycheck.LabelAllowedStay.In(c), "text", words))
	}
	asOf := c.Text("widget.as_of", "date", age.AsOf.LongIn(c))
	if age.Old {
		asOf = entrycheck.OldVerdictWordsIn(c, age.AsOf, "", nil)
	}
	head = append(head, asOf)
	if action == entrycheck.ActionCheckOfficialAuthority {
		tail = append(tail, entrycheck.ActionCheckOfficialAuthority.SentenceIn(c, entrycheck.Unknown, false))
	}
	if apply != nil {
		words := entrycheck.ApplyKindLabelIn(c, apply.Kind)
		if words == apply.Kind {
			t.Fatalf("apply kind %q has no words", apply.Kind)
		}
		tail = append(tail, words)
	}
	return head, tail
}

// publishedText is the exact text of a preset checker in the language of
// c for entry e of a passport matrix, read on the browser's day.
func publishedText(t *testing.T, c *locale.Catalog, pm entrycheck.PassportMatrix, e entrycheck.MatrixEntry) string {
	head, tail := verdictText(t, c, c.Country(pm.Passport.ISO2, pm.Passport.Name), c.Country(e.Destination.ISO2, e.Destination.Name),
		e.Requirement, e.AllowedStayDays, e.Action, e.Apply, pm.VerdictAge.On(time.Now()))
	return strings.Join(append(append(head, tail...), c.Text("widget.all_rules"), entrycheck.Disclaimer(c)), "\n\n")
}

// entryOf finds a destination in a passport matrix.
func entryOf(t *testing.T, pm entrycheck.PassportMatrix, iso3 string) entrycheck.MatrixEntry {
	t.Helper()
	for _, e := range pm.Destinations {
		if e.Destination.ISO3 == iso3 {
			return e
		}
	}
	t.Fatalf("%s has no route to %s", pm.Passport.ISO3, iso3)
	return entrycheck.MatrixEntry{}
}

// needsReview finds a route whose verdict an official statement in force
// contradicts today, with its passport's matrix.
func needsReview(t *testing.T, ev *evaluation.Evaluator) (entrycheck.PassportMatrix, entrycheck.MatrixEntry) {
	t.Helper()
	for _, pc := range ev.Snapshot().Matrix.Countries() {
		pm, err := ev.PassportMatrix(pc.ISO3, "", buildDay)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range pm.Destinations {
			if e.VerdictVerificationStatus == entrycheck.VerdictNeedsReview {
				return pm, e
			}
		}
	}
	t.Fatal("no route needs review")
	return entrycheck.PassportMatrix{}, entrycheck.MatrixEntry{}
}

// uncurated finds a route from passport whose answer has no entry rule and
// no official statement: the whole text of its live check follows from
// the answer's verdict.
func uncurated(t *testing.T, ev *evaluation.Evaluator, passport string) entrycheck.CheckResult {
	t.Helper()
	for _, dc := range ev.Snapshot().Matrix.Countries() {
		if dc.ISO3 == passport {
			continue
		}
		r, err := ev.Check(entrycheck.CheckRequest{Passport: passport, Destination: dc.ISO3}, buildDay)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.EntryRules.Lines()) == 0 && len(r.VerdictVerification.OfficialStatements) == 0 {
			return r
		}
	}
	t.Fatalf("every destination of %s has curated rules", passport)
	return entrycheck.CheckResult{}
}

// TestWidgetPresetSpendsNoCheck: checkers with both codes preset, on another
// site, show the verdict the site publishes, word for word as the
// evaluator gives it and with nothing else, without a single request to
// /free/check; a route whose verdict needs review says to check with the
// official authority. When the published matrix cannot be read the checker
// says so and links to the route page, still without a check. A check
// from the form then asks /free/check once and shows its answer exactly.
func TestWidgetPresetSpendsNoCheck(t *testing.T) {
	ev := datatest.Evaluator(t)
	deu, err := ev.PassportMatrix("DEU", "", buildDay)
	if err != nil {
		t.Fatal(err)
	}
	tha := entryOf(t, deu, "THA")
	reviewPM, review := needsReview(t, ev)
	if review.Action != entrycheck.ActionCheckOfficialAuthority {
		t.Fatalf("%s to %s needs review, but its action is %s", reviewPM.Passport.ISO3, review.Destination.ISO3, review.Action)
	}
	live := uncurated(t, ev, "FRA")

	counted := &countingSite{h: serveTree(t, built(t)), failing: map[string]bool{"/passports/jpn/index.json": true}}
	site := httptest.NewServer(counted)
	defer site.Close()
	host := httptest.NewServer(hostSite(site.URL, `
<div id="preset" data-entrycheck data-passport="Germany" data-destination="tha"></div>
<div id="review" data-entrycheck data-passport="`+reviewPM.Passport.ISO3+`" data-destination="`+review.Destination.ISO3+`" data-theme="dark"></div>
<div id="own" data-entrycheck data-passport="DEU" data-destination="DEU"></div>
<div id="unread" data-entrycheck data-passport="JPN" data-destination="FRA"></div>
<div id="pick" data-entrycheck></div>`))
	defer host.Close()

	w, seen := openWidgets(t, otherOrigin(host))
	text := func(host string) string {
		return w.in(host, `function () { return this.querySelector(".out").innerText; }`)
	}
	for _, c := range []struct {
		host string
		pm   entrycheck.PassportMatrix
		e    entrycheck.MatrixEntry
	}{{"#preset", deu, tha}, {"#review", reviewPM, review}} {
		want := publishedText(t, entrycheck.English(), c.pm, c.e)
		if got := w.answered(c.host); got != want {
			t.Errorf("%s (%s to %s) shows\n%q\nwant\n%q", c.host, c.pm.Passport.ISO3, c.e.Destination.ISO3, got, want)
		}
		page := site.URL + "/passports/" + strings.ToLower(c.pm.Passport.ISO3) + "/" + strings.ToLower(c.e.Destination.ISO3) + "/"
		if links := w.in(c.host, `function () { return [...this.querySelectorAll(".out a")].map(a => a.href).join(" "); }`); links != page {
			t.Errorf("%s links to %q, want the route page %s", c.host, links, page)
		}
		if v, href := w.attribution(c.host); !v || href != page {
			t.Errorf("%s: attribution visible %v, links to %s", c.host, v, href)
		}
	}
	if got := w.answered("#own"); got != "Passport of Germany to Germany\n\nCitizens may enter their own country.\n\nEvery destination for a passport of Germany" {
		t.Errorf("own country: %q", got)
	}
	if got := w.answered("#unread"); got != "The checker could not load the answer from entrycheck just now. It is on Passport of Japan to France" {
		t.Errorf("unreadable matrix: %q", got)
	}
	if href := w.in("#unread", `function () { return this.querySelector(".out a").href; }`); href != site.URL+"/passports/jpn/fra/" {
		t.Errorf("unreadable matrix links to %s", href)
	}
	if n := counted.checks.Load(); n != 0 {
		t.Errorf("the preset checkers made %d requests to /free/check, want 0", n)
	}

	w.in("#pick", `function () { this.getElementById("passport").value = "FRA"; this.getElementById("destination").value = "`+live.Destination.ISO3+`"; this.querySelector("button").click(); return ""; }`)
	head, tail := verdictText(t, entrycheck.English(), live.Passport.Name, live.Destination.Name, live.Requirement, live.AllowedStayDays, live.Action, live.Apply, live.VerdictVerification.VerdictAge)
	_, notCited := entrycheck.NotCitedWords(live.Destination.Name, live.EntryRules.NotCitedNames(), false)
	want := strings.Join(append(append(head, tail...), notCited, "Every entry rule and its source", live.Disclaimer), "\n\n")
	if got := w.answered("#pick"); got != want {
		t.Errorf("the live check of FRA to %s shows\n%q\nwant\n%q", live.Destination.ISO3, got, want)
	}
	if n := counted.checks.Load(); n != 1 {
		t.Errorf("one check from the form made %d requests to /free/check", n)
	}
	if text("#preset") != publishedText(t, entrycheck.English(), deu, tha) {
		t.Error("a check in another checker changed the preset one")
	}
	for _, p := range seen.take() {
		if !strings.HasPrefix(p, "network: ") || !strings.Contains(p, "/passports/jpn/index.json") {
			t.Errorf("the host page reported %s", p)
		}
	}
}
