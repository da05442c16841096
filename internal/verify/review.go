package verify

import (
	"context"
	"encoding/json"
	"fmt"
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
func Load(ctx context.Context, st *store.Store, records []entrycheck.CitedRecord) (entrycheck.Verification, []OpenFlag, error) {
	events, err := changes.LoadVerification(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	v, open := State(records, events)
	return v, open, nil
}

// Review records a curator's decision on an open flag: accept (the record
// still holds against the changed page) or reject (it no longer holds). A
// note is required: it is published with the event. A flag is reviewed
// once; a rejected record is cleared by correcting the curated layer.
func Review(ctx context.Context, st *store.Store, records []entrycheck.CitedRecord, flagID string, accept bool, note, datasetVersion string, now time.Time) (changes.Event, error) {
	note = strings.TrimSpace(note)
	if note == "" {
		return changes.Event{}, fmt.Errorf("a review needs a note saying what was checked (--note)")
	}
	if len(note) > MaxNoteLength {
		return changes.Event{}, fmt.Errorf("the note has %d characters; at most %d are kept", len(note), MaxNoteLength)
	}
	_, open, err := Load(ctx, st, records)
	if err != nil {
		return changes.Event{}, err
	}
	var flag *OpenFlag
	for i := range open {
		if open[i].ID == flagID {
			flag = &open[i]
		}
	}
	switch {
	case flag == nil:
		return changes.Event{}, fmt.Errorf("no open flag %q: `entrycheck review` lists the open ones", flagID)
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
	n, err := changes.Append(ctx, st, []changes.Event{ev})
	if err != nil {
		return changes.Event{}, err
	}
	if n == 0 {
		return changes.Event{}, fmt.Errorf("flag %s was already reviewed", flagID)
	}
	return ev, nil
}

func orShared(dest string) string {
	if dest == "" {
		return "shared"
	}
	return dest
}
