package changes_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var site = changes.FeedSite{BaseURL: "https://entrycheck.example", DatasetVersion: datatest.Current}

func TestAtomFeed(t *testing.T) {
	evs := events(t)
	out, err := changes.FeedAtom(site, evs)
	if err != nil {
		t.Fatal(err)
	}
	f, err := gofeed.NewParser().Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("gofeed cannot parse the feed: %v", err)
	}
	destinations := map[string]bool{}
	for _, e := range evs {
		destinations[e.Destinations[0]] = true
	}
	// One entry per destination of the snapshot, all of the same date.
	if f.FeedType != "atom" || len(f.Items) != len(destinations) {
		t.Fatalf("%s feed with %d entries, want atom with %d", f.FeedType, len(f.Items), len(destinations))
	}
	if f.Link != "https://entrycheck.example/" || f.FeedLink != "https://entrycheck.example/feeds/changes.atom" ||
		f.UpdatedParsed == nil || !f.UpdatedParsed.Equal(time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("link %q, feed link %q, updated %v", f.Link, f.FeedLink, f.UpdatedParsed)
	}
	var gbr *gofeed.Item
	for i, it := range f.Items {
		if it.UpdatedParsed == nil || !it.UpdatedParsed.Equal(evs[0].Time) || (i > 0 && it.GUID < f.Items[i-1].GUID) {
			t.Fatalf("entry %d: id %q, updated %v", i, it.GUID, it.UpdatedParsed)
		}
		if it.GUID == "tag:entrycheck.example,2026-02-17:matrix/2026-02-17/GBR" {
			gbr = it
		}
	}
	if gbr == nil {
		t.Fatal("no entry for the United Kingdom")
	}
	uk := 0
	for _, e := range evs {
		if e.Destinations[0] == "GBR" {
			uk++
		}
	}
	if gbr.Title != fmt.Sprintf("United Kingdom: %d routes changed in the 2026-02-17 matrix", uk) || gbr.Link != "https://entrycheck.example/destinations/gbr/" ||
		!strings.Contains(gbr.Description, "Germany: visa-free (180 days) -> ETA") || !strings.Contains(gbr.Description, "compared with 2025-01-12") {
		t.Errorf("the United Kingdom's entry: %q, %q, %.300q", gbr.Title, gbr.Link, gbr.Description)
	}
}

// A reader parsing the feed with an XML parser gets plain text: no entity
// is left in titles and summaries (they were escaped once, not twice).
func TestAtomTextIsEscapedOnce(t *testing.T) {
	evs := append(events(t), changes.Event{ID: "flag/x", Kind: changes.KindRuleFlagged, Time: time.Date(2025, 1, 13, 0, 0, 0, 0, time.UTC),
		Destinations: []string{"THA"}, Summary: "Thailand: rules & fees <changed> -> review", Details: json.RawMessage(`{}`)})
	docs := published(t, site, evs)
	for _, f := range readAtom(t, docs, site.AtomURL()) {
		for _, e := range f.Entries {
			for _, text := range []string{e.Title, e.Summary.Text} {
				if strings.Contains(text, "&gt;") || strings.Contains(text, "&amp;") || strings.Contains(text, "&lt;") || strings.Contains(text, "&#") {
					t.Errorf("entry %s: escaped text %q", e.ID, text)
				}
			}
			if e.Summary.Type != "text" {
				t.Errorf("entry %s: summary of type %q", e.ID, e.Summary.Type)
			}
			if e.ID == "tag:entrycheck.example,2025-01-13:flag/x" && e.Title != "Thailand: rules & fees <changed> -> review" {
				t.Errorf("title %q", e.Title)
			}
		}
	}
}

func TestChangesJSON(t *testing.T) {
	evs := events(t)
	out, err := changes.FeedJSON(site, evs)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(out, &members); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"feed_version", "title", "home_page_url", "feed_url", "current_url", "atom_url", "archive", "period", "prev_url", "next_url", "dataset_version", "generated_at", "total_events", "counts", "verification_days", "events"} {
		if _, ok := members[m]; !ok {
			t.Errorf("no member %q", m)
		}
	}
	var f changes.ChangesFeed
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	if f.FeedVersion != 2 || f.Archive || f.Period != "2026-02" || f.PrevURL != nil || f.NextURL != nil || f.FeedURL != "https://entrycheck.example/changes.json" || f.AtomURL != "https://entrycheck.example/feeds/changes.atom" ||
		f.HomePageURL != "https://entrycheck.example/" || f.DatasetVersion != "2026-02-17" ||
		f.GeneratedAt == nil || !f.GeneratedAt.Equal(time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)) ||
		f.TotalEvents != len(evs) || len(f.Events) != len(evs) || f.Counts["matrix_rule_changed"] != len(evs) || len(f.Counts) != 1 {
		t.Fatalf("feed head %+v with %d events", f, len(f.Events))
	}
	e := f.Events[0]
	var c changes.RuleChange
	if err := json.Unmarshal(e.Details, &c); err != nil {
		t.Fatal(err)
	}
	if e.ID != "matrix/2026-02-17/AFG-BGD" || e.URL != "https://entrycheck.example/passports/afg/bgd/" || e.Summary != "Afghanistan to Bangladesh: visa on arrival -> visa required" ||
		c.Passport != "AFG" || c.From.MatrixValue != "visa on arrival" || c.To.MatrixValue != "visa required" || !slices.Equal(e.Fields, []string{"requirement"}) {
		t.Errorf("first event %+v", e)
	}
	if !bytes.Contains(out, []byte(`visa on arrival -> visa required`)) {
		t.Error("summaries are HTML-escaped; the feed is JSON, not HTML")
	}
}

func TestFeedsAreDeterministic(t *testing.T) {
	evs := append(events(t), syntheticEvents(3)...)
	reversed := slices.Clone(evs)
	slices.Reverse(reversed)
	trailing := site
	trailing.BaseURL += "/"
	a, err := changes.Documents(site, evs)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct {
		site   changes.FeedSite
		events []changes.Event
	}{{site, evs}, {site, reversed}, {trailing, evs}} {
		b, err := changes.Documents(in.site, in.events)
		if err != nil || !slices.EqualFunc(a, b, func(x, y changes.Document) bool { return x.Path == y.Path && bytes.Equal(x.Body, y.Body) }) {
			t.Errorf("the same events gave different documents (%v)", err)
		}
	}
}

func TestFeedSite(t *testing.T) {
	custom := changes.FeedSite{
		BaseURL:         "http://127.0.0.1:8080/entry",
		Name:            "example",
		JSONPath:        "/activity.json",
		AtomPath:        "/atom.xml",
		RoutePath:       func(p, d string) string { return "/r/" + p + "/" + d },
		DestinationPath: func(d string) string { return "/d/" + d },
	}
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	e := []changes.Event{
		{ID: "matrix/2020-01-01/DEU-THA", Kind: changes.KindMatrixRuleChanged, Time: day, DatasetVersion: "2020-01-01", Destinations: []string{"THA"},
			Summary: "Germany to Thailand: visa-free (30 days) -> ETA", Details: json.RawMessage(`{"passport":"DEU","destination":"THA"}`)},
		{ID: "verify/2020-01-01/THA", Kind: changes.KindSourceReverified, Time: day.Add(time.Hour), Destinations: []string{"THA"}},
	}
	if got := custom.EventURL(e[0]); got != "http://127.0.0.1:8080/entry/r/DEU/THA" {
		t.Errorf("route url %q", got)
	}
	if got := custom.EventURL(e[1]); got != "http://127.0.0.1:8080/entry/d/THA" {
		t.Errorf("destination url %q", got)
	}
	if got := custom.EventURL(changes.Event{Destinations: []string{"THA", "LAO"}}); got != "http://127.0.0.1:8080/entry/" {
		t.Errorf("url of an event about two destinations %q", got)
	}
	out, err := changes.FeedAtom(custom, e)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("<id>tag:127.0.0.1,2020-01-01:matrix/2020-01-01/THA</id>")) || !bytes.Contains(out, []byte(`<id>http://127.0.0.1:8080/entry/atom.xml</id>`)) {
		t.Errorf("ids in\n%s", out)
	}
	for _, base := range []string{"", "entrycheck.example", "/relative", "ftp://entrycheck.example"} {
		if _, err := changes.FeedJSON(changes.FeedSite{BaseURL: base}, e); err == nil {
			t.Errorf("base URL %q accepted", base)
		}
	}
	// No events: the JSON feed is empty and undated; the Atom feed takes the dataset's date.
	out, err = changes.FeedJSON(changes.FeedSite{BaseURL: "https://entrycheck.example"}, nil)
	if err != nil || !bytes.Contains(out, []byte(`"generated_at":null`)) || !bytes.Contains(out, []byte(`"events":[]`)) {
		t.Errorf("empty feed %s, %v", out, err)
	}
	if _, err := changes.FeedAtom(changes.FeedSite{BaseURL: "https://entrycheck.example"}, nil); err == nil {
		t.Error("an Atom feed without a date")
	}
	if out, err := changes.FeedAtom(site, nil); err != nil || !bytes.Contains(out, []byte("<updated>2026-02-17T00:00:00Z</updated>")) {
		t.Errorf("empty Atom feed %s, %v", out, err)
	}
}

// The rendered feeds of a few real events and re-verifications in the
// next month, so that January is archived, compared with testdata/ (go test
// -update rewrites them): the current documents and the archives.
func TestFeedGolden(t *testing.T) {
	evs := events(t)
	sample := append(slices.Clone(evs[:2]), evs[len(evs)-1])
	for _, at := range []time.Time{time.Date(2026, 2, 18, 6, 0, 0, 0, time.UTC), time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC)} {
		sample = append(sample, changes.Event{
			ID: "verify/" + at.Format(time.DateOnly) + "/THA", Kind: "source_reverified", Time: at, DatasetVersion: datatest.Current,
			Destinations: []string{"THA"}, Fields: []string{}, Summary: "Thailand: 2 cited sources re-verified, unchanged", Details: json.RawMessage(`{"sources":2}`),
		})
	}
	docs, err := changes.Documents(site, sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 4 {
		t.Fatalf("%d documents, want the current ones and February's archives", len(docs))
	}
	for _, d := range docs {
		path := filepath.Join("testdata", filepath.FromSlash(strings.TrimPrefix(d.Path, "/")))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, d.Body, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(d.Body, want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", d.Path, path, d.Body)
		}
	}
}
