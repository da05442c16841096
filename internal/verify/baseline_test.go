package verify_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// TestBaselineFold: the fold of the verification events for two records
// citing one page: a stored copy verifies nothing; a baseline awaits a
// curator and re-readings before the confirmation verify nothing; a
// confirmation verifies both records live as of its day; a rejected
// baseline flags them; a new baseline awaits a new confirmation; a
// citation read live counts as live from the start.
func TestBaselineFold(t *testing.T) {
	const page = "https://example.org/rules"
	day := entrycheck.Date{Year: 2026, Month: 11, Day: 22}
	cite := entrycheck.Citation{Name: "Rules", URL: page, RetrievedAt: day, ReadFrom: entrycheck.ReadFromStoredCopy}
	records := []entrycheck.CitedRecord{
		{Destination: "THA", Field: entrycheck.FieldPassportValidity, Source: cite},
		{Destination: "THA", Field: entrycheck.FieldOnwardTicket, Source: cite},
	}
	at := func(days int) time.Time { return day.Time().AddDate(0, 0, days).Add(3 * time.Hour) }
	reading := func(kind, id string, days int) changes.Event {
		b, _ := json.Marshal(changes.SourceCheck{URL: page, SourceName: "Rules", RunID: id})
		return changes.Event{ID: "source/" + id + "/rules", Kind: kind, Time: at(days), Details: b}
	}
	review := func(kind, id string, days int) changes.Event {
		b, _ := json.Marshal(changes.Review{URL: page, FlagID: id, Note: "checked"})
		return changes.Event{ID: "review/" + id, Kind: kind, Time: at(days), Details: b}
	}
	check := func(name string, f verify.Folded, live, awaiting, flagged bool, last int) {
		t.Helper()
		for _, r := range records {
			s := f.State.StateOf(r)
			if s.Live != live || s.Awaiting != awaiting || s.Flagged != flagged || s.LastVerified != day.AddDays(last) {
				t.Errorf("%s: %s %+v; want live %v, awaiting %v, flagged %v, last verified %s", name, r.Field, s, live, awaiting, flagged, day.AddDays(last))
			}
		}
	}

	check("no reading", verify.Fold(records, nil), false, false, false, 0)
	events := []changes.Event{reading(changes.KindSourceBaselined, "r1", 1), reading(changes.KindSourceReverified, "r2", 2)}
	f := verify.Fold(records, events)
	check("baselined", f, false, true, false, 0)
	if len(f.Baselines) != 1 || f.Baselines[0].ID != "source/r1/rules" || len(f.Baselines[0].Records) != 2 || len(f.Open) != 0 {
		t.Fatalf("baselines %+v, flags %+v", f.Baselines, f.Open)
	}
	confirmed := append(events, review(changes.KindReviewAccepted, "source/r1/rules", 3), reading(changes.KindSourceReverified, "r4", 4))
	f = verify.Fold(records, confirmed)
	check("confirmed, then re-read", f, true, false, false, 4)
	if len(f.Baselines) != 0 {
		t.Fatalf("baselines after confirmation %+v", f.Baselines)
	}
	check("a new baseline", verify.Fold(records, append(confirmed, reading(changes.KindSourceBaselined, "r5", 5), reading(changes.KindSourceReverified, "r6", 6))), true, true, false, 4)

	f = verify.Fold(records, append(events, review(changes.KindReviewRejected, "source/r1/rules", 3)))
	check("rejected", f, false, false, true, 0)
	if len(f.Open) != 2 || !f.Open[0].Rejected || f.Open[0].ID != "source/r1/rules" {
		t.Fatalf("flags after rejection %+v", f.Open)
	}

	for i := range records {
		records[i].Source.ReadFrom = entrycheck.ReadFromLive
	}
	check("read live by a curator", verify.Fold(records, nil), true, false, false, 0)
}
