package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/store"
)

// housekeepingInterval is how often a serving process prunes the store.
// An hour keeps expired tokens and yesterday's quota rows from piling up
// under abuse while costing a few indexed deletes.
const housekeepingInterval = time.Hour

// keepHouse prunes the store at once and then every interval until ctx
// ends; wait returns when the loop has stopped.
func keepHouse(ctx context.Context, st *store.Store, clock entrycheck.Clock, interval time.Duration, log *slog.Logger) (wait func()) {
	prune := func() {
		if err := st.Prune(ctx, clock.Now()); err != nil && ctx.Err() == nil {
			log.Warn("housekeeping", "error", err)
		}
	}
	prune()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				prune()
			}
		}
	}()
	return func() { <-done }
}
