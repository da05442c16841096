package verify

import (
	"context"
	"math/rand/v2"
	"time"
)

// Daily is the schedule of serve's verification: every day at Offset after
// midnight UTC, plus a random delay below Jitter.
type Daily struct {
	Offset, Jitter time.Duration
}

// Next is the first run time after now.
func (d Daily) Next(now time.Time, jitter time.Duration) time.Time {
	now = now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	at := day.Add(d.Offset + jitter)
	if !at.After(now) {
		at = day.AddDate(0, 0, 1).Add(d.Offset + jitter)
	}
	return at
}

// Loop calls run at each scheduled time until ctx ends. A run that outlasts
// the next scheduled time delays it: runs never overlap.
func (d Daily) Loop(ctx context.Context, now func() time.Time, run func(context.Context)) {
	for {
		var jitter time.Duration
		if d.Jitter > 0 {
			jitter = rand.N(d.Jitter)
		}
		wait := time.Until(d.Next(now(), jitter))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
			run(ctx)
		}
	}
}
