package changes_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
)

// code is a made-up ISO3-like code: the prefix letter and two letters of i.
func code(prefix byte, i int) string {
	return string([]byte{prefix, byte('A' + i/26%26), byte('A' + i%26)})
}

// syntheticEvents are the rule changes of n matrix snapshots 20 days apart
// (two can fall in the same month), 300 routes each across 150
// destinations, and the verification of every day in between: a daily
// re-reading and, every seventh day, an unreachable source.
func syntheticEvents(n int) []changes.Event {
	first := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	var out []changes.Event
	for s := range n {
		at := first.AddDate(0, 0, 20*s)
		v := at.Format(time.DateOnly)
		for j := range 300 {
			p, d := code('P', j/150*n+s), code('D', j%150)
			c := changes.RuleChange{Passport: p, Destination: d, PreviousVersion: at.AddDate(0, 0, -20).Format(time.DateOnly),
				From: changes.RouteValue{Requirement: entrycheck.VisaFree, AllowedStayDays: entrycheck.SomeDays(30 + s), MatrixValue: fmt.Sprint(30 + s)},
				To:   changes.RouteValue{Requirement: entrycheck.ETA, MatrixValue: "eta"}}
			details, _ := json.Marshal(c)
			out = append(out, changes.Event{ID: "matrix/" + v + "/" + p + "-" + d, Kind: changes.KindMatrixRuleChanged, Time: at, DatasetVersion: v,
				Destinations: []string{d}, Fields: []string{"requirement", "allowed_stay_days"}, Summary: p + " to " + d + ": visa-free -> ETA", Details: details})
		}
	}
	for day := first; day.Before(first.AddDate(0, 0, 20*n)); day = day.AddDate(0, 0, 1) {
		v := day.Format(time.DateOnly)
		out = append(out, changes.Event{ID: "verify/" + v + "/THA", Kind: changes.KindSourceReverified, Time: day.Add(3 * time.Hour), Destinations: []string{"THA"}, Summary: "re-verified"})
		if day.YearDay()%7 == 0 {
			out = append(out, changes.Event{ID: "unreachable/" + v + "/KEN", Kind: changes.KindSourceUnreachable, Time: day.Add(3 * time.Hour), Destinations: []string{"KEN"}, Summary: "Kenya: a source could not be read"})
		}
	}
	return out
}

// Following the current documents and every archive they link reaches each
// recorded route change exactly once, in /changes.json and in the Atom feed,
// for the real snapshots' diff and for a synthetic log of thousands.
func TestEveryChangeIsReachable(t *testing.T) {
	for name, evs := range map[string][]changes.Event{"real": events(t), "synthetic": syntheticEvents(10)} {
		t.Run(name, func(t *testing.T) {
			var want, listed []string
			for _, e := range evs {
				switch e.Kind {
				case changes.KindMatrixRuleChanged:
					want = append(want, e.ID)
					listed = append(listed, e.ID)
				case changes.KindSourceUnreachable:
					listed = append(listed, e.ID)
				}
			}
			slices.Sort(want)
			slices.Sort(listed)
			if name == "synthetic" && len(want) < 3000 {
				t.Fatalf("only %d changes", len(want))
			}
			docs := published(t, site, evs)

			atom := readAtom(t, docs, site.AtomURL())
			got := atomRouteChanges(t, atom)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("the Atom feed and its %d archives reach %d route changes, want the %d recorded", len(atom)-1, len(got), len(want))
			}
			json := readJSON(t, docs, site.JSONURL())
			var ids []string
			for _, f := range json {
				for _, e := range f.Events {
					ids = append(ids, e.ID)
				}
			}
			slices.Sort(ids)
			if !slices.Equal(ids, listed) || !slices.Equal(slices.Sorted(slices.Values(jsonRouteChanges(json))), want) {
				t.Errorf("/changes.json and its %d archives list %d events, want %d", len(json)-1, len(ids), len(listed))
			}
			if len(docs) != len(atom)+len(json) {
				t.Errorf("%d documents published, %d reachable", len(docs), len(atom)+len(json))
			}
			if name == "synthetic" && (len(atom) < 5 || len(json) != len(atom)) {
				t.Errorf("%d Atom and %d JSON documents for 7 months", len(atom), len(json))
			}
			for _, f := range atom[1:] {
				period := strings.TrimSuffix(path.Base(f.link("self")), ".atom")
				for _, e := range f.Entries {
					if !strings.HasPrefix(e.Updated, period) {
						t.Fatalf("entry %s dated %s in the archive of %s", e.ID, e.Updated, period)
					}
				}
			}
		})
	}
}

// An archive lists the same entries once newer months are published: only
// the link to the next newer archive is added to the newest one.
func TestArchivesAreStable(t *testing.T) {
	all := syntheticEvents(10)
	cut := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	var before []changes.Event
	for _, e := range all {
		if e.Time.Before(cut) {
			before = append(before, e)
		}
	}
	old, now := published(t, site, before), published(t, site, all)
	archives := 0
	for url, body := range old {
		if url == site.AtomURL() || url == site.JSONURL() {
			continue
		}
		archives++
		if strings.Contains(url, "2025-05") { // the newest archive then: it gains a next link
			if bytes.Equal(now[url], body) || !bytes.Contains(now[url], []byte("2025-06")) {
				t.Errorf("%s does not link the archive of June", url)
			}
			continue
		}
		if !bytes.Equal(now[url], body) {
			t.Errorf("%s changed when later months were published", url)
		}
	}
	if archives != 6 { // March, April and May, in both feeds
		t.Errorf("%d archives before July", archives)
	}
}
