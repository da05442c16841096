package generator

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// contentDay is the build clock of these tests: past the day the
// snapshot's verdicts grew old.
var contentDay = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// passportSite renders the pages of one passport (its route pages and its
// own) with ev at now, and the sitemap of its routes, without building the
// whole site. It returns the tree's root and the site.
func passportSite(t *testing.T, ev *evaluation.Evaluator, now time.Time, passport string) (string, *site) {
	t.Helper()
	root := t.TempDir()
	w, err := newWriter(root)
	if err != nil {
		t.Fatal(err)
	}
	snap := ev.Snapshot()
	s := &site{ev: ev, w: w, now: now, summary: newSummary(), modified: newModified(), langs: []*locale.Catalog{entrycheck.English()},
		opts:          Options{OutDir: root, GeoDir: datatest.GeoDir(t), BaseURL: "https://entrycheck.test", History: History{Baseline: datatest.Previous}},
		officialPages: map[string]map[string][]officialPage{locale.English: officialPagesOf(entrycheck.English(), snap.Curated.Destinations)}}
	if s.worldMap, err = s.writeWorldMap(); err != nil {
		t.Fatal(err)
	}
	pc, ok := snap.Countries.ByISO3(passport)
	if !ok {
		t.Fatalf("no country %s", passport)
	}
	if _, err := s.renderPassport(newRenderer(), pc); err != nil {
		t.Fatal(err)
	}
	var routes []string
	for _, dc := range snap.Matrix.Countries() {
		if dc.ISO3 != pc.ISO3 {
			routes = append(routes, routePath(pc, dc))
		}
	}
	if _, err := s.writeURLSet("sitemaps/routes.xml", routes); err != nil {
		t.Fatal(err)
	}
	return root, s
}

// lastmods reads the sitemap of passportSite: each page's lastmod by path.
func lastmods(t *testing.T, root string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "sitemaps", "routes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		URLs []struct {
			Loc     string `xml:"loc"`
			Lastmod string `xml:"lastmod"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, u := range set.URLs {
		out[strings.TrimPrefix(u.Loc, "https://entrycheck.test")] = u.Lastmod
	}
	return out
}

var ldScript = regexp.MustCompile(`<script type="application/ld\+json">(.*?)</script>`)

// dateModified is the dateModified of a built route page's structured data.
func dateModified(t *testing.T, root, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := ldScript.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no structured data", path)
	}
	var ld struct {
		Graph []struct {
			DateModified string `json:"dateModified"`
		} `json:"@graph"`
	}
	if err := json.Unmarshal(m[1], &ld); err != nil {
		t.Fatal(err)
	}
	for _, g := range ld.Graph {
		if g.DateModified != "" {
			return g.DateModified
		}
	}
	return ""
}

// routeContent is what a traveller reads of a route page on the day of
// now, HTML and markdown, without the page's own date.
func routeContent(t *testing.T, ev *evaluation.Evaluator, passport, destination string, now time.Time) string {
	t.Helper()
	res, err := ev.Check(entrycheck.CheckRequest{Passport: passport, Destination: destination, RequestID: "build"}, entrycheck.FixedClock(now))
	if err != nil {
		t.Fatal(err)
	}
	s := &site{ev: ev, now: now, opts: Options{BaseURL: "https://entrycheck.test", History: History{Baseline: datatest.Previous}},
		officialPages: map[string]map[string][]officialPage{locale.English: officialPagesOf(entrycheck.English(), ev.Snapshot().Curated.Destinations)}}
	v := s.routeView(entrycheck.English(), res, entrycheck.Date{})
	page, err := newRenderer().html(templates.RoutePage(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(page) + string(templates.RouteMarkdown(v))
}

// readOn finds the days a page says its sources were read, written
// "2026-11-22" or "22 November 2026".
var readOn = regexp.MustCompile(`read (?:on )?(\d{4}-\d{2}-\d{2}|\d{1,2} [A-Z][a-z]+ \d{4})`)

// TestRouteDatesAreTheContentDate: a route page's JSON-LD dateModified
// and its sitemap lastmod are one date, the day its content last changed.
// The page reads the same on that day as on the build day, and read
// otherwise the day before, unless that date is the data's own: the
// snapshot the verdict holds since or the day a source the page cites was
// read. For every route of a passport, on the real dataset.
func TestRouteDatesAreTheContentDate(t *testing.T) {
	ev := datatest.Evaluator(t)
	root, s := passportSite(t, ev, contentDay, "DEU")
	sitemap := lastmods(t, root)
	kinds := map[string]int{}
	for _, dc := range ev.Snapshot().Matrix.Countries() {
		if dc.ISO3 == "DEU" {
			continue
		}
		path := "/passports/deu/" + strings.ToLower(dc.ISO3) + "/"
		ld := dateModified(t, root, path)
		if ld == "" || ld != sitemap[path] {
			t.Fatalf("%s: dateModified %q, sitemap lastmod %q", path, ld, sitemap[path])
		}
		day, err := entrycheck.ParseDate(ld)
		if err != nil {
			t.Fatal(err)
		}
		at := func(d entrycheck.Date) time.Time { return d.Time().Add(12 * time.Hour) }
		now := routeContent(t, ev, "DEU", dc.ISO3, contentDay)
		if then := routeContent(t, ev, "DEU", dc.ISO3, at(day)); then != now {
			t.Errorf("%s: dated %s, but its content changed after", path, ld)
			continue
		}
		data := map[string]bool{s.opts.History.Baseline: true, datatest.Current: true}
		for _, m := range readOn.FindAllStringSubmatch(now, -1) {
			if long, err := time.Parse("2 January 2006", m[1]); err == nil {
				m[1] = long.Format(time.DateOnly)
			}
			data[m[1]] = true
		}
		switch {
		case routeContent(t, ev, "DEU", dc.ISO3, at(day.AddDays(-1))) != now:
			kinds["changed with the day"]++
		case data[ld]:
			kinds["dated by its data"]++
		default:
			t.Errorf("%s: dated %s, but it read the same the day before, and nothing it cites dates from then", path, ld)
		}
	}
	// Both parts of the date are tested on the real dataset: the verdicts
	// grew old on 17 August 2026, before most cited readings.
	if kinds["changed with the day"] == 0 || kinds["dated by its data"] == 0 {
		t.Errorf("routes by what dates them: %v", kinds)
	}
	if old := ev.VerdictAge(contentDay).OldFrom.String(); !strings.Contains(sitemapBody(t, root), old) {
		t.Errorf("no route is dated the day its verdict grew old, %s", old)
	}
}

func sitemapBody(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "sitemaps", "routes.xml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRereadingChangesNoDate: the verifier re-reading every source on the
// live page, on one day and again the next, finding each unchanged,
// changes neither what a route page says nor its date.
func TestRereadingChangesNoDate(t *testing.T) {
	ev := datatest.Evaluator(t)
	day := entrycheck.DateOf(contentDay)
	readOn := func(d entrycheck.Date) *evaluation.Evaluator {
		v := entrycheck.Verification{}
		for _, r := range ev.Snapshot().Curated.Records() {
			v[r.Key()] = entrycheck.RecordState{LastVerified: d, Live: true}
		}
		return evaluation.NewVerified(ev.Snapshot(), v)
	}
	first, again := readOn(day.AddDays(-1)), readOn(day)
	before, _ := passportSite(t, first, contentDay, "DEU")
	after, _ := passportSite(t, again, contentDay, "DEU")
	dated, moved := lastmods(t, before), lastmods(t, after)
	same := 0
	for _, dc := range ev.Snapshot().Matrix.Countries() {
		if dc.ISO3 == "DEU" {
			continue
		}
		res, err := again.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: dc.ISO3}, entrycheck.FixedClock(contentDay))
		if err != nil {
			t.Fatal(err)
		}
		if lv := res.EntryRulesVerification.LastVerified; lv == nil || *lv != day ||
			routeContent(t, first, "DEU", dc.ISO3, contentDay) != routeContent(t, again, "DEU", dc.ISO3, contentDay) {
			continue
		}
		same++
		path := "/passports/deu/" + strings.ToLower(dc.ISO3) + "/"
		if dated[path] != moved[path] {
			t.Errorf("%s: re-read unchanged on %s, dated %s before and %s after", path, day, dated[path], moved[path])
		}
	}
	if same == 0 {
		t.Error("no route page with cited rules reads the same after its sources were re-read: nothing was tested")
	}
	t.Logf("%d route pages with cited rules read the same after a re-reading", same)
}

// TestOldVerdictsSayWhomToConfirmWith: once the verdicts are old, each
// route page and its markdown say so with the destination's official
// authority, as the check does, and the passport page says it above its
// lists; while they are young, neither does.
func TestOldVerdictsSayWhomToConfirmWith(t *testing.T) {
	ev := datatest.Evaluator(t)
	old := ev.VerdictAge(contentDay)
	if !old.Old {
		t.Fatalf("the verdicts are not old on %s", contentDay)
	}
	young := old.OldFrom.AddDays(-1).Time().Add(12 * time.Hour)
	for _, c := range []struct {
		now  time.Time
		old  bool
		name string
	}{{contentDay, true, "old"}, {young, false, "young"}} {
		root, _ := passportSite(t, ev, c.now, "DEU")
		read := func(parts ...string) string {
			b, err := os.ReadFile(filepath.Join(append([]string{root}, parts...)...))
			if err != nil {
				t.Fatal(err)
			}
			return html.UnescapeString(string(b))
		}
		list := entrycheck.OldVerdictsWordsIn(entrycheck.English(), old.AsOf)
		for _, f := range []string{"index.html", "index.md"} {
			if page := read("passports", "deu", f); strings.Contains(page, list) != c.old {
				t.Errorf("%s verdicts: /passports/deu/%s says %q: %v", c.name, f, list, !c.old)
			}
		}
		res, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "GBR"}, entrycheck.FixedClock(c.now))
		if err != nil {
			t.Fatal(err)
		}
		want := res.VerdictVerification.Confirm
		if (want != "") != c.old || c.old && !strings.Contains(want, "United Kingdom") {
			t.Fatalf("%s verdict: the check asks to confirm %q", c.name, want)
		}
		for _, f := range []string{"index.html", "index.md"} {
			page := read("passports", "deu", "gbr", f)
			if c.old && !strings.Contains(page, want) || !c.old && strings.Contains(page, "more than "+itoa(entrycheck.VerdictOldAfterDays)+" days ago") {
				t.Errorf("%s verdict: /passports/deu/gbr/%s does not say what the check says (%q)", c.name, f, want)
			}
		}
	}
}
