package verify_test

import (
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/verify"
)

func TestDailyNext(t *testing.T) {
	d := verify.Daily{Offset: 3 * time.Hour, Jitter: 30 * time.Minute}
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		now    string
		jitter time.Duration
		want   string
	}{
		{"2026-11-22T01:00:00Z", 0, "2026-11-22T03:00:00Z"},
		{"2026-11-22T01:00:00Z", 17 * time.Minute, "2026-11-22T03:17:00Z"},
		{"2026-11-22T03:00:00Z", 0, "2026-11-23T03:00:00Z"}, // never twice at the same instant
		{"2026-11-22T12:00:00Z", 5 * time.Minute, "2026-11-23T03:05:00Z"},
		{"2026-11-22T05:00:00+05:00", 0, "2026-11-22T03:00:00Z"}, // midnight UTC: the run is the same UTC day
	} {
		if got := d.Next(at(c.now), c.jitter); !got.Equal(at(c.want)) {
			t.Errorf("Next(%s, %s) = %s, want %s", c.now, c.jitter, got.Format(time.RFC3339), c.want)
		}
	}
}
