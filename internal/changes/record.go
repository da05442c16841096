package changes

import (
	"context"
	"fmt"

	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/store"
)

// Record appends the rule changes from prev to cur to the event log and
// returns how many were new: recording the same pair again inserts none.
// Nothing is written when the snapshots cannot be compared (see Diff).
func Record(ctx context.Context, st *store.Store, prev, cur *dataset.Matrix) (inserted int, err error) {
	events, err := Diff(prev, cur)
	if err != nil {
		return 0, err
	}
	return Append(ctx, st, events)
}

// Append writes events to the log, skipping those already recorded, and
// returns how many were new.
func Append(ctx context.Context, st *store.Store, events []Event) (inserted int, err error) {
	records := make([]store.EventRecord, len(events))
	for i, e := range events {
		records[i] = e.record()
	}
	n, err := st.AppendEvents(ctx, records)
	if err != nil {
		return 0, fmt.Errorf("recording %d events: %w", len(events), err)
	}
	return n, nil
}

// Load returns the newest events of the log, newest first (by id within
// the same second); limit 0 or less returns all of them. Give the feeds the
// whole log, or at least as many events as they show, so that their counts
// are complete.
func Load(ctx context.Context, st *store.Store, limit int) ([]Event, error) {
	return query(ctx, st, store.EventQuery{Limit: limit})
}

// LoadVerification returns the verification events of the log (every kind
// but the matrix's), newest first.
func LoadVerification(ctx context.Context, st *store.Store) ([]Event, error) {
	kinds := make([]string, 0, len(verificationKinds))
	for k := range verificationKinds {
		if k != KindVerificationDay {
			kinds = append(kinds, k)
		}
	}
	return query(ctx, st, store.EventQuery{Kinds: kinds})
}

func query(ctx context.Context, st *store.Store, q store.EventQuery) ([]Event, error) {
	records, err := st.Events(ctx, q)
	if err != nil {
		return nil, err
	}
	events := make([]Event, len(records))
	for i, r := range records {
		events[i] = fromRecord(r)
	}
	return events, nil
}
