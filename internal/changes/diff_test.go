package changes_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// The number of routes whose value differs between the two shared snapshots.
const changedRoutes = 2935

var (
	loadOnce    sync.Once
	prevM, curM *dataset.Matrix
	loadErr     error
	diffOnce    sync.Once
	diffed      []changes.Event
	diffErr     error
)

// matrices loads the two shared snapshots once per test binary.
func matrices(t testing.TB) (prev, cur *dataset.Matrix) {
	t.Helper()
	prevDir, curDir, lock := datatest.MatrixDir(t, datatest.Previous), datatest.MatrixDir(t, datatest.Current), datatest.Lock(t)
	loadOnce.Do(func() {
		reg, err := country.New()
		if err != nil {
			loadErr = err
			return
		}
		if prevM, loadErr = dataset.LoadMatrix(prevDir, lock, reg); loadErr != nil {
			return
		}
		curM, loadErr = dataset.LoadMatrix(curDir, lock, reg)
	})
	if loadErr != nil {
		t.Fatalf("loading the matrix snapshots: %v", loadErr)
	}
	return prevM, curM
}

// events is Diff of the shared snapshots, computed once per test binary.
func events(t testing.TB) []changes.Event {
	t.Helper()
	prev, cur := matrices(t)
	diffOnce.Do(func() { diffed, diffErr = changes.Diff(prev, cur) })
	if diffErr != nil {
		t.Fatalf("Diff: %v", diffErr)
	}
	return diffed
}

func TestDiffMatchesTheFiles(t *testing.T) {
	before, after := datatest.Routes(t, datatest.Previous), datatest.Routes(t, datatest.Current)
	want := map[string][2]string{} // route -> matrix values before and after
	for route, v := range after {
		if before[route] != v {
			want[route] = [2]string{before[route], v}
		}
	}
	if len(want) != changedRoutes {
		t.Fatalf("the files differ in %d routes, want %d: the shared snapshots changed", len(want), changedRoutes)
	}

	got := events(t)
	if len(got) != changedRoutes {
		t.Fatalf("Diff gave %d events, want %d", len(got), changedRoutes)
	}
	at := time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for _, e := range got {
		if seen[e.ID] {
			t.Fatalf("id %s given twice", e.ID)
		}
		seen[e.ID] = true
		var c changes.RuleChange
		if err := json.Unmarshal(e.Details, &c); err != nil {
			t.Fatalf("%s: details %s: %v", e.ID, e.Details, err)
		}
		route := c.Passport + "-" + c.Destination
		w, ok := want[route]
		if !ok {
			t.Fatalf("%s: route %s did not change in the files", e.ID, route)
		}
		if e.ID != "matrix/"+datatest.Current+"/"+route || e.Kind != changes.KindMatrixRuleChanged || !e.Time.Equal(at) ||
			e.DatasetVersion != datatest.Current || c.PreviousVersion != datatest.Previous ||
			len(e.Destinations) != 1 || e.Destinations[0] != c.Destination {
			t.Fatalf("event %+v, details %+v", e, c)
		}
		if c.From.MatrixValue != w[0] || c.To.MatrixValue != w[1] {
			t.Errorf("%s: %q -> %q, the files say %q -> %q", route, c.From.MatrixValue, c.To.MatrixValue, w[0], w[1])
		}
		delete(want, route)
	}
	if len(want) != 0 {
		t.Errorf("%d changed routes have no event", len(want))
	}
}

func TestDiffSpotChecks(t *testing.T) {
	byID := map[string]changes.Event{}
	for _, e := range events(t) {
		byID[e.ID] = e
	}
	// A few of the changes (checked against the files above), by the
	// registry's names.
	for _, tc := range []struct {
		id, summary, fields, details string
	}{
		{"matrix/2026-02-17/DEU-GBR", "Germany to United Kingdom: visa-free (180 days) -> ETA", "requirement,allowed_stay_days",
			`{"passport":"DEU","destination":"GBR","previous_version":"2025-01-12","from":{"requirement":"visa_free","allowed_stay_days":180,"matrix_value":"180"},"to":{"requirement":"eta","allowed_stay_days":null,"matrix_value":"eta"}}`},
		{"matrix/2026-02-17/USA-BRA", "United States to Brazil: visa-free (90 days) -> e-visa", "requirement,allowed_stay_days", ""},
		{"matrix/2026-02-17/IND-PHL", "India to Philippines: visa required -> visa-free (14 days)", "requirement,allowed_stay_days", ""},
		{"matrix/2026-02-17/AFG-BGD", "Afghanistan to Bangladesh: visa on arrival -> visa required", "requirement", ""},
	} {
		e, ok := byID[tc.id]
		if !ok {
			t.Errorf("no event %s", tc.id)
			continue
		}
		if e.Summary != tc.summary || strings.Join(e.Fields, ",") != tc.fields {
			t.Errorf("%s: summary %q, fields %v; want %q, %s", tc.id, e.Summary, e.Fields, tc.summary, tc.fields)
		}
		if tc.details != "" && string(e.Details) != tc.details {
			t.Errorf("%s: details\n%s\nwant\n%s", tc.id, e.Details, tc.details)
		}
	}
	// Routes that did not change have no event.
	for _, id := range []string{"matrix/2026-02-17/DEU-THA", "matrix/2026-02-17/DEU-VNM", "matrix/2026-02-17/DEU-DEU"} {
		if _, ok := byID[id]; ok {
			t.Errorf("unexpected event %s", id)
		}
	}
}

func TestDiffIsStable(t *testing.T) {
	prev, cur := matrices(t)
	again, err := changes.Diff(prev, cur)
	if err != nil {
		t.Fatal(err)
	}
	first := events(t)
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("two Diffs of the same snapshots differ")
	}
	for i := 1; i < len(first); i++ {
		if first[i-1].ID >= first[i].ID {
			t.Fatalf("events are not ordered by id: %s before %s", first[i-1].ID, first[i].ID)
		}
	}
}

func TestDiffOfASnapshotWithItself(t *testing.T) {
	prev, cur := matrices(t)
	for _, m := range []*dataset.Matrix{prev, cur} {
		got, err := changes.Diff(m, m)
		if err != nil || len(got) != 0 {
			t.Errorf("Diff(%s, %s): %d events, %v; want none", m.Version(), m.Version(), len(got), err)
		}
	}
}

func TestDiffRefusesGoingBack(t *testing.T) {
	prev, cur := matrices(t)
	if _, err := changes.Diff(cur, prev); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Diff(newer, older): %v, want a refusal", err)
	}
}
