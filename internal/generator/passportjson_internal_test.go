package generator

import (
	"bytes"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestPassportDocumentKeepsAcrossDays: the static matrix of a passport built
// the day before its verdicts turn old and the day they do is the same file,
// so a rebuild on another day does not rewrite it; the answers it would give
// on those days differ in their age only.
func TestPassportDocumentKeepsAcrossDays(t *testing.T) {
	ev := datatest.Evaluator(t)
	from := ev.VerdictAge(time.Time{}).OldFrom.Time()
	before, after := from.AddDate(0, 0, -1).Add(23*time.Hour), from.Add(time.Hour)
	if a, b := ev.VerdictAge(before), ev.VerdictAge(after); a.Old || !b.Old || a.AgeDays == b.AgeDays {
		t.Fatalf("verdict ages %+v and %+v, want the second day old", a, b)
	}
	for _, iso3 := range []string{"DEU", "USA", "SYR"} {
		x, err := passportDocumentOf(ev, iso3, before)
		if err != nil {
			t.Fatal(err)
		}
		y, err := passportDocumentOf(ev, iso3, after)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("the static matrix of %s changes from %s to %s", iso3, before.Format("2006-01-02"), after.Format("2006-01-02"))
		}
	}
}
