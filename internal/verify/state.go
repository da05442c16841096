package verify

import (
	"cmp"
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
)

// Baseline is the verifier's first live reading of a page, awaiting a
// curator's confirmation that the page says what the records citing it say.
// Until then it verifies nothing; confirmed, the records are verified as of
// the confirmation, and later unchanged readings keep them verified.
type Baseline struct {
	// ID is the source_baselined event's id, which a review names.
	ID         string
	URL        string
	SourceName string
	// Records are the records citing the page that await the confirmation.
	Records []entrycheck.CitedRecord
	Since   time.Time
}

// Folded is what the verification events say of the records.
type Folded struct {
	State entrycheck.Verification
	// Open are the flags awaiting a curator, oldest first.
	Open []entrycheck.VerificationFlag
	// Baselines are the first readings awaiting a curator's confirmation,
	// oldest first.
	Baselines []Baseline
}

// recordFold is the state of one record while the events are folded.
type recordFold struct {
	state entrycheck.RecordState
	flag  *entrycheck.VerificationFlag
	// retrieved is the day the record's citation was read.
	retrieved entrycheck.Date
	record    entrycheck.CitedRecord
	// confirmed is set once a curator confirmed the verifier's current
	// baseline of the page against the record; only then do unchanged
	// readings verify it.
	confirmed bool
	// baseline is the id of the page's latest source_baselined event.
	baseline string
}

// baselineEvent is a source_baselined event while the events are folded.
type baselineEvent struct {
	url, name string
	since     time.Time
}

// State folds the verification events into the state of each record (see
// the package documentation). Events dated before a record's citation was
// read do not concern it: the curator read the page after them.
func State(records []entrycheck.CitedRecord, events []changes.Event) (entrycheck.Verification, []entrycheck.VerificationFlag) {
	f := Fold(records, events)
	return f.State, f.Open
}

// Fold folds the verification events into the state of each record, the
// open flags and the baselines awaiting confirmation.
func Fold(records []entrycheck.CitedRecord, events []changes.Event) Folded {
	folds := make(map[entrycheck.RecordKey]*recordFold, len(records))
	byURL := map[string][]*recordFold{}
	for _, r := range records {
		f := &recordFold{state: entrycheck.InitialState(r.Source), retrieved: r.Source.RetrievedAt, record: r}
		folds[r.Key()] = f
		byURL[r.Source.URL] = append(byURL[r.Source.URL], f)
	}
	byFlag := map[string]*recordFold{}
	baselines := map[string]baselineEvent{}
	for _, e := range oldestFirst(events) {
		day := entrycheck.DateOf(e.Time)
		switch e.Kind {
		case changes.KindSourceBaselined:
			c, err := changes.DecodeDetails[changes.SourceCheck](e)
			if err != nil {
				continue
			}
			// A new baseline is a new text: whatever was confirmed was
			// confirmed against another one.
			baselines[e.ID] = baselineEvent{url: c.URL, name: c.SourceName, since: e.Time}
			for _, f := range byURL[c.URL] {
				f.baseline, f.confirmed = e.ID, false
			}
		case changes.KindSourceReverified:
			c, err := changes.DecodeDetails[changes.SourceCheck](e)
			if err != nil {
				continue
			}
			for _, f := range byURL[c.URL] {
				if f.flag == nil && f.confirmed && !day.Before(f.retrieved) && f.state.LastVerified.Before(day) {
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
			f.flag = &entrycheck.VerificationFlag{ID: e.ID, Record: rec, SourceName: fl.SourceName, Change: fl.Change, Since: e.Time}
			f.state.Flagged = true
			byFlag[e.ID] = f
		case changes.KindReviewAccepted, changes.KindReviewRejected:
			rv, err := changes.DecodeDetails[changes.Review](e)
			if err != nil {
				continue
			}
			if b, ok := baselines[rv.FlagID]; ok {
				confirmBaseline(byURL[b.url], rv, e, day)
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
			// The record holds against the changed page, which is the
			// baseline from now on.
			f.flag, f.state.Flagged = nil, false
			f.confirmed, f.state.Live = true, true
			if f.state.LastVerified.Before(day) {
				f.state.LastVerified = day
			}
		}
	}
	out := Folded{State: make(entrycheck.Verification, len(folds))}
	awaiting := map[string]*Baseline{}
	for k, f := range folds {
		if f.flag == nil && !f.confirmed && f.baseline != "" {
			f.state.Awaiting = true
			b := awaiting[f.baseline]
			if b == nil {
				ev := baselines[f.baseline]
				b = &Baseline{ID: f.baseline, URL: ev.url, SourceName: ev.name, Since: ev.since}
				awaiting[f.baseline] = b
			}
			b.Records = append(b.Records, f.record)
		}
		out.State[k] = f.state
		if f.flag != nil {
			out.Open = append(out.Open, *f.flag)
		}
	}
	slices.SortFunc(out.Open, func(a, b entrycheck.VerificationFlag) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	for _, b := range awaiting {
		slices.SortFunc(b.Records, func(x, y entrycheck.CitedRecord) int {
			return cmp.Or(cmp.Compare(x.Destination, y.Destination), cmp.Compare(x.Field, y.Field))
		})
		out.Baselines = append(out.Baselines, *b)
	}
	slices.SortFunc(out.Baselines, func(a, b Baseline) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// confirmBaseline applies a curator's review of a baseline to the records
// citing its page that await it and were read no later than the review:
// accepted, they are verified on the live page as of the review; rejected,
// the page no longer says what they say, and they stay flagged until the
// curated layer is corrected.
func confirmBaseline(folds []*recordFold, rv changes.Review, e changes.Event, day entrycheck.Date) {
	for _, f := range folds {
		if f.baseline != rv.FlagID || f.confirmed || f.flag != nil || day.Before(f.retrieved) {
			continue
		}
		if e.Kind == changes.KindReviewRejected {
			f.flag = &entrycheck.VerificationFlag{ID: rv.FlagID, Record: f.record, SourceName: f.record.Source.Name,
				Change: "a curator found that the live page does not say what the record says", Since: e.Time,
				Rejected: true, Note: rv.Note}
			f.state.Flagged = true
			continue
		}
		f.confirmed, f.state.Live = true, true
		if f.state.LastVerified.Before(day) {
			f.state.LastVerified = day
		}
	}
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
