package changes

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
)

// The kinds of the verification events, written by the daily re-reading of
// cited sources (see package verify) and by curators' reviews.
const (
	// KindSourceReverified: the page still says what it said; the records
	// citing it are verified as of the event.
	KindSourceReverified = "source_reverified"
	// KindSourceBaselined: the page was read for the first time; its text
	// is the baseline later readings are compared with. It verifies nothing.
	KindSourceBaselined = "source_baselined"
	// KindSourceChanged: the page's main text changed; every record citing
	// it is flagged (one KindRuleFlagged event each).
	KindSourceChanged = "source_changed"
	// KindSourceUnreachable: the page could not be read; the records keep
	// their last verification, which ages.
	KindSourceUnreachable = "source_unreachable"
	// KindRuleFlagged: a record awaits a curator's review after its source changed.
	KindRuleFlagged = "rule_flagged"
	// KindReviewAccepted: a curator confirmed that a flagged record still
	// holds against the changed page; the record is verified as of the review.
	KindReviewAccepted = "review_accepted"
	// KindReviewRejected: a curator found that a flagged record no longer
	// holds; it stays flagged until the curated layer is corrected (a
	// citation read after the review).
	KindReviewRejected = "review_rejected"
	// KindVerificationDay is not stored: it is the Atom feed's entry for a
	// day of routine readings.
	KindVerificationDay = "verification_day"
)

// verificationKinds are the kinds above.
var verificationKinds = map[string]bool{
	KindSourceReverified: true, KindSourceBaselined: true, KindSourceChanged: true, KindSourceUnreachable: true,
	KindRuleFlagged: true, KindReviewAccepted: true, KindReviewRejected: true, KindVerificationDay: true,
}

// RecordRef names a cited record: a destination ("" for a shared fact) and a field.
type RecordRef struct {
	Destination string `json:"destination"`
	Field       string `json:"field"`
}

// SourceCheck is the details of the source_* events: one reading of a page.
type SourceCheck struct {
	URL        string `json:"url"`
	SourceName string `json:"source_name"`
	// RunID identifies the verification run, e.g. "20261122T030000Z".
	RunID string `json:"run_id"`
	// HTTPStatus is the last status seen (304 for an unchanged page served
	// to a conditional request), 0 when no response came.
	HTTPStatus  int    `json:"http_status"`
	Fingerprint string `json:"fingerprint,omitempty"`
	// PreviousFingerprint and Change describe a source_changed event.
	PreviousFingerprint string `json:"previous_fingerprint,omitempty"`
	Change              string `json:"change,omitempty"`
	// Reason and Problem describe a source_unreachable event.
	Reason   string      `json:"reason,omitempty"`
	Problem  string      `json:"problem,omitempty"`
	Attempts int         `json:"attempts"`
	Records  []RecordRef `json:"records"`
}

// Flag is the details of a rule_flagged event.
type Flag struct {
	RecordRef
	URL        string `json:"url"`
	SourceName string `json:"source_name"`
	// ChangeEvent is the id of the source_changed event.
	ChangeEvent string `json:"change_event"`
	Change      string `json:"change"`
}

// Review is the details of the review_accepted and review_rejected events.
type Review struct {
	RecordRef
	URL string `json:"url"`
	// FlagID is the id of the rule_flagged event reviewed.
	FlagID string `json:"flag_id"`
	Note   string `json:"note"`
}

// routine are the kinds counted per day rather than listed one by one: a
// run re-reads every source every day.
var routine = map[string]bool{KindSourceReverified: true, KindSourceBaselined: true}

// VerificationDays counts the verification events by day, newest day first.
func VerificationDays(events []Event) []entrycheck.VerificationDay {
	days := map[string]*entrycheck.VerificationDay{}
	for _, e := range events {
		date := e.Time.UTC().Format(time.DateOnly)
		d := days[date]
		if d == nil {
			d = &entrycheck.VerificationDay{Date: date}
		}
		switch e.Kind {
		case KindSourceReverified:
			d.Reverified++
		case KindSourceBaselined:
			d.Baselined++
		case KindSourceChanged:
			d.Changed++
		case KindSourceUnreachable:
			d.Unreachable++
		case KindRuleFlagged:
			d.Flagged++
		case KindReviewAccepted, KindReviewRejected:
			d.Reviewed++
		default:
			continue
		}
		days[date] = d
	}
	out := make([]entrycheck.VerificationDay, 0, len(days))
	for _, d := range days {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b entrycheck.VerificationDay) int {
		if a.Date > b.Date {
			return -1
		}
		if a.Date < b.Date {
			return 1
		}
		return 0
	})
	return out
}

// DecodeDetails decodes an event's details into v.
func DecodeDetails[T any](e Event) (T, error) {
	var v T
	err := json.Unmarshal(e.Details, &v)
	return v, err
}
