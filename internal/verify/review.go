package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/store"
)

// MaxNoteLength bounds a curator's note.
const MaxNoteLength = 2000

// Load reads the verification events and folds them into the state of
// records, with the flags still open.
func Load(ctx context.Context, st *store.Store, records []entrycheck.CitedRecord) (entrycheck.Verification, []entrycheck.VerificationFlag, error) {
	f, err := LoadFolded(ctx, st, records)
	return f.State, f.Open, err
}

// LoadFolded reads the verification events and folds them (see Fold).
func LoadFolded(ctx context.Context, st *store.Store, records []entrycheck.CitedRecord) (Folded, error) {
	events, err := changes.LoadVerification(ctx, st)
	if err != nil {
		return Folded{}, err
	}
	return Fold(records, events), nil
}

// Review records a curator's decision on an open flag or on a baseline
// awaiting confirmation: accept (the record still holds against the changed
// page; the records citing a baselined page say what the live page says)
// or reject (it no longer holds). A note is required: it is published with
// the event. A flag or baseline is reviewed once; a rejected record is
// cleared by correcting the curated layer.
func Review(ctx context.Context, st *store.Store, records []entrycheck.CitedRecord, flagID string, accept bool, note, datasetVersion string, now time.Time) (changes.Event, error) {
	note = strings.TrimSpace(note)
	if note == "" {
		return changes.Event{}, fmt.Errorf("a review needs a note saying what was checked (--note)")
	}
	if len(note) > MaxNoteLength {
		return changes.Event{}, fmt.Errorf("the note has %d characters; at most %d are kept", len(note), MaxNoteLength)
	}
	folded, err := LoadFolded(ctx, st, records)
	if err != nil {
		return changes.Event{}, err
	}
	var flag *entrycheck.VerificationFlag
	for i := range folded.Open {
		if folded.Open[i].ID == flagID {
			flag = &folded.Open[i]
		}
	}
	for _, b := range folded.Baselines {
		if b.ID == flagID && flag == nil {
			return reviewBaseline(ctx, st, b, accept, note, datasetVersion, now)
		}
	}
	switch {
	case flag == nil:
		return changes.Event{}, fmt.Errorf("no open flag or baseline %q: `entrycheck review` lists the open ones", flagID)
	case flag.Rejected:
		return changes.Event{}, fmt.Errorf("flag %s was rejected (%s): correct the curated record and re-import it with a citation read after the review", flagID, flag.Note)
	}
	kind, verb := changes.KindReviewAccepted, "Review accepted"
	if !accept {
		kind, verb = changes.KindReviewRejected, "Review rejected"
	}
	rec := flag.Record
	details, err := json.Marshal(changes.Review{
		RecordRef: changes.RecordRef{Destination: rec.Destination, Field: rec.Field},
		URL:       rec.Source.URL, FlagID: flagID, Note: note,
	})
	if err != nil {
		return changes.Event{}, err
	}
	var dests []string
	if rec.Destination != "" {
		dests = []string{rec.Destination}
	}
	ev := changes.Event{
		ID: "review/" + flagID, Kind: kind, Time: now.UTC().Truncate(time.Second), DatasetVersion: datasetVersion,
		Destinations: dests, Fields: []string{rec.Field},
		Summary: fmt.Sprintf("%s: %s %s (%s)", verb, orShared(rec.Destination), rec.Field, flag.SourceName),
		Details: details,
	}
	return appendReview(ctx, st, ev)
}

// reviewBaseline records a curator's confirmation (or rejection) of the
// verifier's first reading of a page against every record awaiting it.
func reviewBaseline(ctx context.Context, st *store.Store, b Baseline, accept bool, note, datasetVersion string, now time.Time) (changes.Event, error) {
	kind, verb := changes.KindReviewAccepted, "Confirmed on the live page"
	if !accept {
		kind, verb = changes.KindReviewRejected, "Not confirmed on the live page"
	}
	details, err := json.Marshal(changes.Review{URL: b.URL, FlagID: b.ID, Note: note})
	if err != nil {
		return changes.Event{}, err
	}
	var dests, fields []string
	for _, r := range b.Records {
		if r.Destination != "" && !slices.Contains(dests, r.Destination) {
			dests = append(dests, r.Destination)
		}
		if !slices.Contains(fields, r.Field) {
			fields = append(fields, r.Field)
		}
	}
	ev := changes.Event{
		ID: "review/" + b.ID, Kind: kind, Time: now.UTC().Truncate(time.Second), DatasetVersion: datasetVersion,
		Destinations: dests, Fields: fields,
		Summary: fmt.Sprintf("%s: %s (%d records)", verb, b.SourceName, len(b.Records)),
		Details: details,
	}
	return appendReview(ctx, st, ev)
}

// appendReview keeps a review event; a flag or baseline is reviewed once.
func appendReview(ctx context.Context, st *store.Store, ev changes.Event) (changes.Event, error) {
	n, err := changes.Append(ctx, st, []changes.Event{ev})
	if err != nil {
		return changes.Event{}, err
	}
	if n == 0 {
		return changes.Event{}, fmt.Errorf("%s was already reviewed", strings.TrimPrefix(ev.ID, "review/"))
	}
	return ev, nil
}

func orShared(dest string) string {
	if dest == "" {
		return "shared"
	}
	return dest
}
