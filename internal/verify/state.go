package verify

import (
	"cmp"
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
)

// OpenFlag is a record awaiting a curator: its source changed and nobody
// accepted the change yet (or a curator rejected the record, which then
// stays flagged until it is corrected).
type OpenFlag struct {
	// ID is the rule_flagged event's id, which a review names.
	ID         string
	Record     entrycheck.CitedRecord
	SourceName string
	// Change says what changed on the page.
	Change string
	Since  time.Time
	// Rejected is set when a curator found that the record no longer holds;
	// Note is the curator's note.
	Rejected bool
	Note     string
}

// recordFold is the state of one record while the events are folded.
type recordFold struct {
	state entrycheck.RecordState
	flag  *OpenFlag
	// retrieved is the day the record's citation was read.
	retrieved entrycheck.Date
}

// State folds the verification events into the state of each record (see
// the package documentation). Events dated before a record's citation was
// read do not concern it: the curator read the page after them.
func State(records []entrycheck.CitedRecord, events []changes.Event) (entrycheck.Verification, []OpenFlag) {
	folds := make(map[entrycheck.RecordKey]*recordFold, len(records))
	byURL := map[string][]*recordFold{}
	for _, r := range records {
		f := &recordFold{state: entrycheck.RecordState{LastVerified: r.Source.RetrievedAt}, retrieved: r.Source.RetrievedAt}
		folds[r.Key()] = f
		byURL[r.Source.URL] = append(byURL[r.Source.URL], f)
	}
	byFlag := map[string]*recordFold{}
	for _, e := range oldestFirst(events) {
		day := entrycheck.DateOf(e.Time)
		switch e.Kind {
		case changes.KindSourceReverified:
			c, err := changes.DecodeDetails[changes.SourceCheck](e)
			if err != nil {
				continue
			}
			for _, f := range byURL[c.URL] {
				if f.flag == nil && !day.Before(f.retrieved) && f.state.LastVerified.Before(day) {
					f.state.LastVerified = day
				}
			}
		case changes.KindRuleFlagged:
			fl, err := changes.DecodeDetails[changes.Flag](e)
			if err != nil {
				continue
			}
			rec := entrycheck.CitedRecord{Destination: fl.Destination, Field: fl.Field, Source: entrycheck.Citation{URL: fl.URL}}
			f, ok := folds[rec.Key()]
			if !ok || day.Before(f.retrieved) {
				continue
			}
			rec.Source.Name, rec.Source.RetrievedAt = fl.SourceName, f.retrieved
			f.flag = &OpenFlag{ID: e.ID, Record: rec, SourceName: fl.SourceName, Change: fl.Change, Since: e.Time}
			f.state.Flagged = true
			byFlag[e.ID] = f
		case changes.KindReviewAccepted, changes.KindReviewRejected:
			rv, err := changes.DecodeDetails[changes.Review](e)
			if err != nil {
				continue
			}
			f := byFlag[rv.FlagID]
			if f == nil || f.flag == nil || f.flag.ID != rv.FlagID || f.flag.Rejected {
				continue
			}
			if e.Kind == changes.KindReviewRejected {
				f.flag.Rejected, f.flag.Note = true, rv.Note
				continue
			}
			f.flag, f.state.Flagged = nil, false
			if f.state.LastVerified.Before(day) {
				f.state.LastVerified = day
			}
		}
	}
	v := make(entrycheck.Verification, len(folds))
	var open []OpenFlag
	for k, f := range folds {
		v[k] = f.state
		if f.flag != nil {
			open = append(open, *f.flag)
		}
	}
	slices.SortFunc(open, func(a, b OpenFlag) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	return v, open
}

// oldestFirst returns the events in the order they happened (by id within
// a second, as the log orders them).
func oldestFirst(events []changes.Event) []changes.Event {
	out := slices.Clone(events)
	slices.SortStableFunc(out, func(a, b changes.Event) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.ID, b.ID))
	})
	return out
}
