package changes_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

func TestHistory(t *testing.T) {
	prev, cur := matrices(t)
	base, changed := changes.History(events(t), cur.Version())
	if base != datatest.Previous || len(changed) != 2935 || changed[[2]string{"DEU", "GBR"}] != datatest.Current {
		t.Errorf("baseline %s, %d changed routes, DEU-GBR %q", base, len(changed), changed[[2]string{"DEU", "GBR"}])
	}
	// Serving the older snapshot ignores the newer events.
	if base, changed := changes.History(events(t), prev.Version()); base != prev.Version() || len(changed) != 0 {
		t.Errorf("for the previous snapshot: baseline %s, %d changed", base, len(changed))
	}
}
