package changes_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

// storeDSNs are the databases the round trip runs on (see datatest.StoreDSNs).
func storeDSNs(t *testing.T) map[string]string { return datatest.StoreDSNs(t, "changes_test") }

func openStore(t *testing.T, dsn string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Truncate(); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestRecordAndLoad(t *testing.T) {
	prev, cur := matrices(t)
	want := events(t)
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := openStore(t, dsn)
			for i, wantInserted := range []int{len(want), 0} {
				n, err := changes.Record(ctx, st, prev, cur)
				if err != nil || n != wantInserted {
					t.Fatalf("recording #%d: %d inserted, %v; want %d", i+1, n, err, wantInserted)
				}
			}
			if n, err := changes.Record(ctx, st, cur, cur); err != nil || n != 0 {
				t.Fatalf("recording a snapshot against itself: %d, %v", n, err)
			}
			got, err := changes.Load(ctx, st, 0)
			if err != nil {
				t.Fatal(err)
			}
			// All events share one time, so newest first is id order, Diff's order.
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("loaded %d events, not the %d recorded ones", len(got), len(want))
			}

			// Events of other times and kinds sort around them, newest first.
			later := changes.Event{ID: "verify/2026-02-18/THA", Kind: "source_reverified", Time: time.Date(2026, 2, 18, 6, 0, 0, 0, time.UTC),
				DatasetVersion: datatest.Current, Destinations: []string{"THA"}, Fields: []string{}, Summary: "Thailand: sources re-verified", Details: json.RawMessage(`{"sources":2}`)}
			earlier := changes.Event{ID: "verify/2026-02-16/THA", Kind: "source_reverified", Time: time.Date(2026, 2, 16, 6, 0, 0, 0, time.UTC),
				DatasetVersion: datatest.Previous, Destinations: []string{"THA"}, Summary: "Thailand: sources re-verified", Details: json.RawMessage(`{}`)}
			if n, err := changes.Append(ctx, st, []changes.Event{earlier, later, later}); err != nil || n != 2 {
				t.Fatalf("appending: %d, %v; want 2 (an id twice in one batch counts once)", n, err)
			}
			top, err := changes.Load(ctx, st, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(top) != 3 || top[0].ID != later.ID || top[1].ID != want[0].ID || top[2].ID != want[1].ID {
				t.Fatalf("newest three: %v", ids(top))
			}
			if top[0].Time != later.Time || string(top[0].Details) != `{"sources":2}` || len(top[0].Fields) != 0 {
				t.Errorf("round trip of %+v gave %+v", later, top[0])
			}
			all, _ := changes.Load(ctx, st, 0)
			if len(all) != len(want)+2 || all[len(all)-1].ID != earlier.ID {
				t.Errorf("%d events, oldest %s", len(all), all[len(all)-1].ID)
			}

			recs, err := st.Events(ctx, store.EventQuery{Kinds: []string{"source_reverified"}})
			if err != nil || len(recs) != 2 || recs[0].ID != later.ID {
				t.Errorf("by kind: %d, %v", len(recs), err)
			}
			recs, err = st.Events(ctx, store.EventQuery{Since: time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 2, 18, 0, 0, 0, 0, time.UTC), Limit: 5000})
			if err != nil || len(recs) != len(want) {
				t.Errorf("one day: %d, %v; want %d", len(recs), err, len(want))
			}
		})
	}
}

func ids(events []changes.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.ID)
	}
	return out
}
