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
	"github.com/mmcdole/gofeed/atom"

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
	if f.FeedType != "atom" || len(f.Items) != changes.MaxAtomEntries {
		t.Fatalf("%s feed with %d entries, want atom with %d", f.FeedType, len(f.Items), changes.MaxAtomEntries)
	}
	if f.Link != "https://entrycheck.example/" || f.FeedLink != "https://entrycheck.example/feeds/changes.atom" ||
		f.UpdatedParsed == nil || !f.UpdatedParsed.Equal(time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("link %q, feed link %q, updated %v", f.Link, f.FeedLink, f.UpdatedParsed)
	}
	if want := "the newest 500 of 2935; 2435 older ones are left out"; !strings.Contains(f.Description, want) {
		t.Errorf("subtitle %q does not say %q", f.Description, want)
	}
	// Same time for all: the entries are the first 500 events by id.
	for i, it := range f.Items {
		e := evs[i]
		route := strings.ToLower(strings.TrimPrefix(e.ID, "matrix/"+datatest.Current+"/"))
		if it.GUID != "tag:entrycheck.example,"+datatest.Current+":"+e.ID || it.Title != e.Summary ||
			it.Link != "https://entrycheck.example/passports/"+strings.Replace(route, "-", "/", 1)+"/" ||
			it.UpdatedParsed == nil || !it.UpdatedParsed.Equal(e.Time) {
			t.Fatalf("entry %d: id %q, title %q, link %q, updated %v; event %+v", i, it.GUID, it.Title, it.Link, it.UpdatedParsed, e)
		}
	}

	a, err := (&atom.Parser{}).Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "https://entrycheck.example/feeds/changes.atom" || len(a.Links) != 2 || len(a.Authors) != 1 {
		t.Errorf("feed id %q, %d links, %d authors", a.ID, len(a.Links), len(a.Authors))
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
	for _, m := range []string{"feed_version", "title", "home_page_url", "feed_url", "atom_url", "dataset_version", "generated_at", "events_limit", "total_events", "omitted_events", "counts", "events"} {
		if _, ok := members[m]; !ok {
			t.Errorf("no member %q", m)
		}
	}
	var f changes.ChangesFeed
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	if f.FeedVersion != 1 || f.FeedURL != "https://entrycheck.example/changes.json" || f.AtomURL != "https://entrycheck.example/feeds/changes.atom" ||
		f.HomePageURL != "https://entrycheck.example/" || f.DatasetVersion != datatest.Current ||
		f.GeneratedAt == nil || !f.GeneratedAt.Equal(time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)) ||
		f.TotalEvents != 2935 || f.OmittedEvents != 935 || len(f.Events) != f.EventsLimit || f.EventsLimit != 2000 || f.Counts["matrix_rule_changed"] != 2935 || len(f.Counts) != 1 {
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
	evs := events(t)
	reversed := slices.Clone(evs)
	slices.Reverse(reversed)
	trailing := site
	trailing.BaseURL += "/"
	for name, render := range map[string]func(changes.FeedSite, []changes.Event) ([]byte, error){"json": changes.FeedJSON, "atom": changes.FeedAtom} {
		a, err := render(site, evs)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []struct {
			site   changes.FeedSite
			events []changes.Event
		}{{site, evs}, {site, reversed}, {trailing, evs}} {
			b, err := render(in.site, in.events)
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: the same events gave different bytes (%v)", name, err)
			}
		}
	}
}

// manyEvents are n rule changes of distinct days and, every third day, a
// re-verification that the Atom feed leaves out.
func manyEvents(n int) []changes.Event {
	var out []changes.Event
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		at := day.AddDate(0, 0, i)
		v := at.Format(time.DateOnly)
		out = append(out, changes.Event{ID: "matrix/" + v + "/DEU-THA", Kind: changes.KindMatrixRuleChanged, Time: at, DatasetVersion: v,
			Destinations: []string{"THA"}, Fields: []string{"allowed_stay_days"}, Summary: fmt.Sprintf("Germany to Thailand: visa-free %d days -> visa-free %d days", i+1, i+2),
			Details: json.RawMessage(`{"passport":"DEU","destination":"THA"}`)})
		if i%3 == 0 {
			out = append(out, changes.Event{ID: "verify/" + v + "/THA", Kind: "source_reverified", Time: at.Add(time.Hour), DatasetVersion: v,
				Destinations: []string{"THA"}, Summary: "Thailand: 2 sources re-verified"})
		}
	}
	return out
}

func TestFeedBounds(t *testing.T) {
	evs := manyEvents(1600) // 1600 changes and 534 re-verifications
	out, err := changes.FeedJSON(site, evs)
	if err != nil {
		t.Fatal(err)
	}
	var f changes.ChangesFeed
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	newest := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1599).Add(time.Hour) // a re-verification
	// Re-verifications are counted, by kind and by day, not listed.
	if len(f.Events) != 1600 || f.TotalEvents != 2134 || f.OmittedEvents != 0 ||
		f.Counts["matrix_rule_changed"] != 1600 || f.Counts["source_reverified"] != 534 || !f.GeneratedAt.Equal(newest) {
		t.Fatalf("%d events, total %d, omitted %d, counts %v, generated %v", len(f.Events), f.TotalEvents, f.OmittedEvents, f.Counts, f.GeneratedAt)
	}
	if len(f.VerificationDays) != changes.MaxVerificationDays || f.VerificationDays[0].Date != newest.Format(time.DateOnly) ||
		f.VerificationDays[0].Reverified != 1 || f.VerificationDays[1].Date >= f.VerificationDays[0].Date {
		t.Fatalf("%d verification days, newest %+v", len(f.VerificationDays), f.VerificationDays[0])
	}
	for i := 1; i < len(f.Events); i++ {
		if f.Events[i].Time.After(f.Events[i-1].Time) {
			t.Fatalf("event %d is newer than event %d", i, i-1)
		}
	}
	if e := f.Events[len(f.Events)-1]; e.URL != "https://entrycheck.example/passports/deu/tha/" {
		t.Errorf("route url %q", e.URL)
	}
	for _, e := range f.Events {
		if e.Kind == "source_reverified" {
			t.Fatalf("re-verification listed: %+v", e)
		}
	}

	out, err = changes.FeedAtom(site, evs)
	if err != nil {
		t.Fatal(err)
	}
	a, err := gofeed.NewParser().Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Items) != changes.MaxAtomEntries || !strings.Contains(a.Description, "the newest 500 of 2134; 1634 older ones are left out") {
		t.Fatalf("%d entries, subtitle %q", len(a.Items), a.Description)
	}
	days := 0
	for _, it := range a.Items {
		switch {
		case strings.Contains(it.GUID, ":verification-day/"):
			days++
			if !strings.HasPrefix(it.Title, "Verification on ") || !strings.HasSuffix(it.Title, ": 1 cited source re-verified") {
				t.Fatalf("day entry titled %q", it.Title)
			}
		case !strings.Contains(it.GUID, ":matrix/"):
			t.Fatalf("entry %s is neither a rule change nor a day of verification", it.GUID)
		}
	}
	if days == 0 {
		t.Fatal("no day of verification in the Atom feed")
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
	e := manyEvents(1)
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
	if !bytes.Contains(out, []byte("<id>tag:127.0.0.1,2020-01-01:matrix/2020-01-01/DEU-THA</id>")) || !bytes.Contains(out, []byte(`<id>http://127.0.0.1:8080/entry/atom.xml</id>`)) {
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

// The rendered feeds of a few real events and a re-verification, compared
// with testdata/ (go test -update rewrites them).
func TestFeedGolden(t *testing.T) {
	evs := events(t)
	sample := append(slices.Clone(evs[:2]), evs[len(evs)-1], changes.Event{
		ID: "verify/2026-02-18/THA", Kind: "source_reverified", Time: time.Date(2026, 2, 18, 6, 0, 0, 0, time.UTC), DatasetVersion: datatest.Current,
		Destinations: []string{"THA"}, Fields: []string{}, Summary: "Thailand: 2 cited sources re-verified, unchanged", Details: json.RawMessage(`{"sources":2}`),
	})
	for file, render := range map[string]func(changes.FeedSite, []changes.Event) ([]byte, error){"changes.json": changes.FeedJSON, "changes.atom": changes.FeedAtom} {
		got, err := render(site, sample)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", file, path, got)
		}
	}
}
