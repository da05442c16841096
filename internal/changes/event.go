// Package changes records what changed in the data the service answers
// from, as events in a durable log, and renders that log as the public
// feeds: /changes.json (the verification activity feed) and an Atom feed of
// rule changes.
//
// Today one kind of event exists: matrix_rule_changed, computed by Diff from
// two matrix snapshots. The Event type is generic (kind, time, destinations,
// fields, summary, JSON details) so that the verification events of the
// daily source checks (re-verified, changed, unreachable, flagged, review
// accepted or rejected) share the same log and feeds.
//
// The package depends on the domain, the dataset and the store; the store
// knows nothing of it (it keeps plain rows, converted here). Nothing here
// reads the clock: event times come from the data, so the feeds are
// byte-for-byte reproducible.
package changes

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// KindMatrixRuleChanged is the kind of an event produced by Diff: the
// secondary matrix states another requirement or stay for one route.
const KindMatrixRuleChanged = "matrix_rule_changed"

// Event is one thing that happened to the data: a rule changed, a source
// was re-verified, a rule was flagged. Events are immutable and identified
// by a stable ID, so recording the same event twice stores it once.
type Event struct {
	// ID is deterministic from what the event is about, for example
	// "matrix/2025-01-12/DEU-THA".
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Time is when the change took effect in the data, in UTC; for a matrix
	// change, the new snapshot's date at 00:00 UTC. The store keeps seconds.
	Time time.Time `json:"time"`
	// DatasetVersion is the dataset version the event belongs to.
	DatasetVersion string `json:"dataset_version"`
	// Destinations are the ISO3 codes of the destinations concerned.
	Destinations []string `json:"destinations"`
	// Fields name what changed ("requirement", "allowed_stay_days", ...).
	Fields []string `json:"fields"`
	// Summary is one line for people.
	Summary string `json:"summary"`
	// Details is a JSON object whose shape depends on Kind: RuleChange for
	// matrix_rule_changed. An event about one route carries its "passport"
	// and "destination" here, which the feeds use to link the route page.
	Details json.RawMessage `json:"details"`
}

// newestFirst orders events newest first and, within the same second, by
// id: the order of the store and of both feeds.
func newestFirst(a, b Event) int {
	if c := b.Time.Compare(a.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// sorted returns a copy of events in newestFirst order.
func sorted(events []Event) []Event {
	out := slices.Clone(events)
	slices.SortStableFunc(out, newestFirst)
	return out
}

// record converts an event to the store's row.
func (e Event) record() store.EventRecord {
	return store.EventRecord{
		ID:             e.ID,
		Kind:           e.Kind,
		OccurredAt:     e.Time,
		DatasetVersion: e.DatasetVersion,
		Destinations:   e.Destinations,
		Fields:         e.Fields,
		Summary:        e.Summary,
		Details:        e.Details,
	}
}

// fromRecord converts a stored row back to an event.
func fromRecord(r store.EventRecord) Event {
	return Event{
		ID:             r.ID,
		Kind:           r.Kind,
		Time:           r.OccurredAt.UTC(),
		DatasetVersion: r.DatasetVersion,
		Destinations:   r.Destinations,
		Fields:         r.Fields,
		Summary:        r.Summary,
		Details:        json.RawMessage(r.Details),
	}
}

// route returns the passport and destination of an event about one route.
func (e Event) route() (passport, destination string, ok bool) {
	if len(e.Destinations) != 1 || len(e.Details) == 0 {
		return "", "", false
	}
	var r struct {
		Passport    string `json:"passport"`
		Destination string `json:"destination"`
	}
	if json.Unmarshal(e.Details, &r) != nil || r.Passport == "" || r.Destination != e.Destinations[0] {
		return "", "", false
	}
	return r.Passport, r.Destination, true
}
