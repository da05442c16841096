package generator

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// transparencyDay is the build clock of these tests, the day of the other
// generator tests.
var transparencyDay = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// transparencyPage renders the transparency page at now, and the
// destination pages it links to, for a verification on the real dataset, without
// building the whole site. It returns the tree, the page's main landmark
// and its markdown variant.
func transparencyPage(t *testing.T, now time.Time, v entrycheck.VerificationReport) (root string, main *html.Node, md string) {
	t.Helper()
	root = t.TempDir()
	w, err := newWriter(root)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{ev: datatest.Evaluator(t), opts: Options{OutDir: root, GeoDir: datatest.GeoDir(t), BaseURL: "https://entrycheck.test", Verification: v},
		w: w, now: now, summary: newSummary(), langs: []*locale.Catalog{entrycheck.English()}}
	if s.worldMap, err = s.writeWorldMap(); err != nil {
		t.Fatal(err)
	}
	if err := s.renderDestinations(); err != nil {
		t.Fatal(err)
	}
	if err := s.renderTransparency(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "transparency", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	var title, lang bool
	visit(doc, func(n *html.Node) {
		switch {
		case n.Type != html.ElementNode:
		case n.Data == "main":
			main = n
		case n.Data == "title":
			title = strings.TrimSpace(text(n)) != ""
		case n.Data == "html":
			lang = attrOf(n, "lang") == "en"
		}
	})
	if main == nil || !title || !lang {
		t.Fatalf("main landmark %v, title %v, lang %v", main != nil, title, lang)
	}
	m, err := os.ReadFile(filepath.Join(root, "transparency", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	return root, main, string(m)
}

func TestTransparencyWithoutVerificationRun(t *testing.T) {
	_, main, md := transparencyPage(t, transparencyDay, entrycheck.VerificationReport{})
	const none = "No verification run has been recorded yet: the verification dates are those on which the curators read the sources."
	for variant, page := range map[string]string{"HTML": text(main), "markdown": md} {
		if !strings.Contains(page, none) {
			t.Errorf("%s does not say that no run was recorded:\n%s", variant, page)
		}
		for _, h := range []string{"Sources flagged for review", "Sources that could not be read"} {
			if !strings.Contains(page, h+" None.") && !strings.Contains(page, "## "+h+"\n\nNone.") {
				t.Errorf("%s does not say None. under %q", variant, h)
			}
		}
		if strings.Contains(page, "Readings by day") {
			t.Errorf("%s shows readings by day without a run", variant)
		}
	}
}

func TestTransparencyShowsVerification(t *testing.T) {
	run := time.Date(2026, 11, 22, 3, 12, 0, 0, time.UTC)
	root, main, md := transparencyPage(t, transparencyDay, entrycheck.VerificationReport{
		LastRun: &entrycheck.VerificationRun{ID: "20261122T031200Z", Time: run, ReadingCounts: entrycheck.ReadingCounts{Reverified: 211, Baselined: 3, Changed: 1, Unreachable: 1}},
		Days: []entrycheck.VerificationDay{
			{Date: "2026-11-22", ReadingCounts: entrycheck.ReadingCounts{Reverified: 211, Baselined: 3, Changed: 1, Unreachable: 1}, Flagged: 1},
			{Date: "2026-11-21", ReadingCounts: entrycheck.ReadingCounts{Reverified: 214}, Reviewed: 2},
		},
		Flags: []entrycheck.VerificationFlag{{ID: "flag/1", Record: entrycheck.CitedRecord{Destination: "THA", Field: "passport_validity",
			Source: entrycheck.Citation{URL: "https://www.immigration.go.th/en/"}}, SourceName: "Thai Immigration Bureau", Change: "the minimum validity now reads 6 months", Since: run}},
		Unreachable: []entrycheck.UnreachableSource{{Name: "Visa information of Japan", URL: "https://www.mofa.go.jp/j_info/visit/visa/",
			Problem: "HTTP 503 after 3 attempts", Since: run.AddDate(0, 0, -2), Destinations: []string{"JPN"}}},
	})

	page := text(main)
	for _, want := range []string{
		"Last run, 2026-11-22 03:12 UTC (20261122T031200Z), by outcome",
		"re-verified (unchanged) 211", "read for the first time (baseline) 3", "changed (records flagged) 1", "unreachable 1",
		"Day Re-verified First reading Changed Unreachable Flagged Reviewed",
		"2026-11-22 211 3 1 1 1 0", "2026-11-21 214 0 0 0 0 2",
		"Thailand, passport_validity: Thai Immigration Bureau, flagged since 2026-11-22 (what changed: the minimum validity now reads 6 months).",
		"Visa information of Japan: HTTP 503 after 3 attempts; unreadable since 2026-11-20; cited for Japan",
		"keep their last verification date, which ages until the record is stale, 30 days after it.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "Rejected by a curator") {
		t.Error("a flag no curator rejected is shown as rejected")
	}
	links := map[string]string{}
	visit(main, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			links[text(n)] = attrOf(n, "href")
		}
	})
	for label, href := range map[string]string{
		"Thailand": "/destinations/tha/", "Thai Immigration Bureau": "https://www.immigration.go.th/en/",
		"Japan": "/destinations/jpn/", "Visa information of Japan": "https://www.mofa.go.jp/j_info/visit/visa/",
		"changes.json": "/changes.json", "Atom feed": "/feeds/changes.atom",
	} {
		if links[label] != href {
			t.Errorf("link %q goes to %q, want %q", label, links[label], href)
		}
		if strings.HasPrefix(href, "/destinations/") {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(href), "index.html")); err != nil {
				t.Errorf("%s was not generated", href)
			}
		}
	}

	for _, want := range []string{
		"## Daily verification of sources\n",
		"Last run, 2026-11-22 03:12 UTC (20261122T031200Z), by outcome:\n\n- re-verified (unchanged): 211\n- read for the first time (baseline): 3\n- changed (records flagged): 1\n- unreachable: 1\n",
		"| 2026-11-22 | 211 | 3 | 1 | 1 | 1 | 0 |\n| 2026-11-21 | 214 | 0 | 0 | 0 | 0 | 2 |\n",
		"- [Thailand](/destinations/tha/), `passport_validity`: [Thai Immigration Bureau](https://www.immigration.go.th/en/), flagged since 2026-11-22 (what changed: the minimum validity now reads 6 months).\n",
		"- [Visa information of Japan](https://www.mofa.go.jp/j_info/visit/visa/): HTTP 503 after 3 attempts; unreadable since 2026-11-20; cited for [Japan](/destinations/jpn/)\n",
		"[changes.json](/changes.json) and the [Atom feed](/feeds/changes.atom)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("index.md does not say %q:\n%s", want, md)
		}
	}
}

func TestTransparencySharedAndRejectedFlags(t *testing.T) {
	days := make([]entrycheck.VerificationDay, 20)
	for i := range days {
		days[i] = entrycheck.VerificationDay{Date: time.Date(2026, 11, 22-i, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), ReadingCounts: entrycheck.ReadingCounts{Reverified: 200}}
	}
	_, main, md := transparencyPage(t, transparencyDay, entrycheck.VerificationReport{
		LastRun: &entrycheck.VerificationRun{ID: "r", Time: transparencyDay},
		Days:    days,
		Flags: []entrycheck.VerificationFlag{{Record: entrycheck.CitedRecord{Field: "yellow_fever_risk_list", Source: entrycheck.Citation{URL: "https://www.who.int/"}}, SourceName: "WHO",
			Change: "two countries added", Since: transparencyDay, Rejected: true, Note: "the list now names Angola"}},
	})
	page := text(main)
	for _, want := range []string{"all destinations, yellow_fever_risk_list: WHO, flagged since 2026-11-22 (what changed: two countries added). Rejected by a curator: the list now names Angola", "2026-11-09 200"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "2026-11-08") || strings.Contains(md, "2026-11-08") {
		t.Error("more than 14 days are listed")
	}
	if want := "- all destinations, `yellow_fever_risk_list`: [WHO](https://www.who.int/), flagged since 2026-11-22 (what changed: two countries added). **Rejected by a curator:** the list now names Angola\n"; !strings.Contains(md, want) {
		t.Errorf("index.md does not say %q:\n%s", want, md)
	}
}

func TestTransparencyFreshnessCoversEveryCuratedDestination(t *testing.T) {
	curated := len(datatest.Evaluator(t).Snapshot().Curated.SortedCodes())
	if curated == 0 {
		t.Fatal("the dataset has no curated destination")
	}
	for _, now := range []time.Time{transparencyDay, transparencyDay.AddDate(0, 0, 45)} {
		_, main, md := transparencyPage(t, now, entrycheck.VerificationReport{})
		for _, caption := range []string{"Freshness of curated destinations", "Curated destinations by verification status"} {
			rows := tableRows(t, main, caption)
			sum := 0
			for label, n := range rows {
				sum += n
				if !strings.Contains(md, "- "+strings.ReplaceAll(label, "_", `\_`)+": "+strconv.Itoa(n)+"\n") {
					t.Errorf("%s: index.md does not count %d for %q", now.Format(time.DateOnly), n, label)
				}
			}
			if sum != curated {
				t.Errorf("%s, %s: counts %v sum to %d, want the %d curated destinations", now.Format(time.DateOnly), caption, rows, sum, curated)
			}
		}
		fresh := tableRows(t, main, "Freshness of curated destinations")
		if len(fresh) != 4 {
			t.Errorf("freshness buckets %v, want 4", fresh)
		}
		// 45 days after the build day, nothing the dataset holds is recent.
		if now.After(transparencyDay) && fresh["0 to 7 days"] != 0 {
			t.Errorf("%s: %d destinations verified in the last 7 days", now.Format(time.DateOnly), fresh["0 to 7 days"])
		}
		states := tableRows(t, main, "Curated destinations by verification status")
		// Without a live reading nothing is verified, whatever the day: the
		// shipped rules were not read live.
		verified, stale, review := entrycheck.RulesStatusWords(entrycheck.RulesVerifiedOfficialSources), entrycheck.RulesStatusWords(entrycheck.RulesStale), entrycheck.RulesStatusWords(entrycheck.RulesNeedsReview)
		if _, ok := states[verified]; !ok || states[verified] != 0 || fresh["older than 30 days (stale)"] > states[stale]+states[review] {
			t.Errorf("%s: %d destinations older than 30 days, states %v", now.Format(time.DateOnly), fresh["older than 30 days (stale)"], states)
		}
	}
}

// tableRows reads the rows of the table whose caption starts with caption.
func tableRows(t *testing.T, main *html.Node, caption string) map[string]int {
	t.Helper()
	var rows map[string]int
	visit(main, func(n *html.Node) {
		if n.Type != html.ElementNode || n.Data != "caption" || !strings.HasPrefix(text(n), caption) {
			return
		}
		rows = map[string]int{}
		visit(n.Parent, func(tr *html.Node) {
			if tr.Type != html.ElementNode || tr.Data != "tr" {
				return
			}
			var th, td string
			for c := tr.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "th" {
					th = text(c)
				} else if c.Type == html.ElementNode && c.Data == "td" {
					td = text(c)
				}
			}
			n, err := strconv.Atoi(td)
			if err != nil {
				t.Fatalf("%s: row %q counts %q", caption, th, td)
			}
			rows[th] = n
		})
	})
	if rows == nil {
		t.Fatalf("no table %q", caption)
	}
	return rows
}

func visit(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		visit(c, fn)
	}
}

func attrOf(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// text is the text of n with its white space collapsed, cells and items
// separated by a space.
func text(n *html.Node) string {
	var b strings.Builder
	visit(n, func(c *html.Node) {
		switch {
		case c.Type == html.TextNode:
			b.WriteString(c.Data)
		case c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th" || c.Data == "li" || c.Data == "p" || c.Data == "caption" || c.Data == "h2"):
			b.WriteByte(' ')
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}
