package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

// eventStores are SQLite and, when ENTRYCHECK_TEST_POSTGRES_URL is set,
// PostgreSQL in a schema of its own (see datatest.StoreDSNs).
func eventStores(t *testing.T) map[string]*store.Store {
	stores := map[string]*store.Store{}
	for name, dsn := range datatest.StoreDSNs(t, "store_events_test") {
		s := open(t, dsn)
		t.Cleanup(func() { s.Close() })
		stores[name] = s
	}
	return stores
}

func TestEventLog(t *testing.T) {
	day := func(d, h int) time.Time { return time.Date(2025, 1, d, h, 0, 0, 0, time.UTC) }
	ev := func(id, kind string, at time.Time) store.EventRecord {
		return store.EventRecord{ID: id, Kind: kind, OccurredAt: at, DatasetVersion: "2025-01-12",
			Destinations: []string{"THA", "LAO"}, Fields: []string{"requirement"}, Summary: "s " + id, Details: []byte(`{"n": 1}`)}
	}
	batch := []store.EventRecord{
		ev("b", "matrix_rule_changed", day(12, 0)),
		ev("a", "matrix_rule_changed", day(12, 0)),
		ev("B", "matrix_rule_changed", day(12, 0)), // byte order: "B" < "a"
		ev("v1", "source_reverified", day(13, 6)),
		ev("v0", "source_reverified", day(11, 6)),
	}
	for name, s := range eventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if n, err := s.AppendEvents(ctx, batch); err != nil || n != 5 {
				t.Fatalf("appending: %d, %v", n, err)
			}
			if n, err := s.AppendEvents(ctx, append(batch[:1:1], ev("c", "matrix_rule_changed", day(12, 0)))); err != nil || n != 1 {
				t.Fatalf("appending again: %d, %v; want only the new one", n, err)
			}
			for _, tc := range []struct {
				q    store.EventQuery
				want string
			}{
				{store.EventQuery{}, "v1 B a b c v0"},
				{store.EventQuery{Limit: 2}, "v1 B"},
				{store.EventQuery{Kinds: []string{"source_reverified"}}, "v1 v0"},
				{store.EventQuery{Kinds: []string{"source_reverified", "matrix_rule_changed"}, Limit: 3}, "v1 B a"},
				{store.EventQuery{Since: day(12, 0), Until: day(13, 6)}, "B a b c"},
				{store.EventQuery{Since: day(13, 7)}, ""},
			} {
				got, err := s.Events(ctx, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, e := range got {
					ids = append(ids, e.ID)
				}
				if strings.Join(ids, " ") != tc.want {
					t.Errorf("%+v: %v, want %s", tc.q, ids, tc.want)
				}
			}
			got, _ := s.Events(ctx, store.EventQuery{Limit: 1})
			if e := got[0]; !e.OccurredAt.Equal(day(13, 6)) || e.OccurredAt.Location() != time.UTC || strings.Join(e.Destinations, ",") != "THA,LAO" ||
				strings.Join(e.Fields, ",") != "requirement" || string(e.Details) != `{"n": 1}` || e.Summary != "s v1" || e.DatasetVersion != "2025-01-12" {
				t.Errorf("round trip: %+v", e)
			}

			for _, bad := range []store.EventRecord{
				{Kind: "k"},
				{ID: "x"},
				{ID: "x", Kind: "k", Destinations: []string{"THA,LAO"}},
				{ID: "x", Kind: "k", Fields: []string{""}},
				{ID: "x", Kind: "k", Details: []byte("{")},
			} {
				if _, err := s.AppendEvents(ctx, []store.EventRecord{ev("y", "k", day(14, 0)), bad}); err == nil {
					t.Errorf("accepted %+v", bad)
				}
			}
			if got, _ := s.Events(ctx, store.EventQuery{}); len(got) != 6 {
				t.Errorf("%d events after refused batches, want 6: a refused batch writes nothing", len(got))
			}
			if err := s.Truncate(); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Events(ctx, store.EventQuery{}); len(got) != 0 {
				t.Errorf("%d events after Truncate", len(got))
			}
		})
	}
}
