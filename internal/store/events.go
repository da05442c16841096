package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// EventRecord is one row of the event log: something that happened to the
// data the service answers from (a matrix rule changed, a cited source was
// re-verified, a rule was flagged). The log is append-only and idempotent:
// an event is written once under its id and never updated. The store knows
// rows, not event kinds; the packages that produce events give them meaning.
type EventRecord struct {
	// ID is stable: recording the same event again is a no-op.
	ID   string
	Kind string
	// OccurredAt is kept to the second.
	OccurredAt     time.Time
	DatasetVersion string
	// Destinations are ISO3 codes and Fields are field names; neither may
	// contain a comma (they are stored comma-separated).
	Destinations []string
	Fields       []string
	Summary      string
	// Details is a JSON document ("{}" when empty).
	Details []byte
}

// EventQuery selects events. Zero values do not restrict.
type EventQuery struct {
	// Since is inclusive and Until exclusive.
	Since, Until time.Time
	// Kinds keeps only events of these kinds.
	Kinds []string
	// Limit caps the number of events returned; 0 or less returns all.
	Limit int
}

// AppendEvents writes events in one transaction, skipping ids already in
// the log, and returns how many were new. Either every new event is written
// or none is. It refuses records without an id or kind, with commas in
// their destinations or fields, or with details that are not JSON.
func (s *Store) AppendEvents(ctx context.Context, events []EventRecord) (inserted int, err error) {
	for _, e := range events {
		if err := e.validate(); err != nil {
			return 0, err
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("appending events: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO events
		(id, kind, occurred_at, dataset_version, destinations, fields, summary, details)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`))
	if err != nil {
		return 0, fmt.Errorf("appending events: %w", err)
	}
	defer stmt.Close()
	for _, e := range events {
		details := e.Details
		if len(details) == 0 {
			details = []byte("{}")
		}
		res, err := stmt.ExecContext(ctx, e.ID, e.Kind, e.OccurredAt.Unix(), e.DatasetVersion,
			strings.Join(e.Destinations, ","), strings.Join(e.Fields, ","), e.Summary, string(details))
		if err != nil {
			return 0, fmt.Errorf("appending event %s: %w", e.ID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("appending event %s: %w", e.ID, err)
		}
		inserted += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("appending events: %w", err)
	}
	return inserted, nil
}

func (e EventRecord) validate() error {
	if e.ID == "" || e.Kind == "" {
		return fmt.Errorf("event %q of kind %q: both an id and a kind are required", e.ID, e.Kind)
	}
	for _, list := range [][]string{e.Destinations, e.Fields} {
		for _, v := range list {
			if v == "" || strings.Contains(v, ",") {
				return fmt.Errorf("event %s: %q is not a valid destination or field name (empty or with a comma)", e.ID, v)
			}
		}
	}
	if len(e.Details) > 0 && !json.Valid(e.Details) {
		return fmt.Errorf("event %s: details are not valid JSON", e.ID)
	}
	return nil
}

// Events returns the events matching q, newest first; events of the same
// second are ordered by id (byte order, on both engines).
func (s *Store) Events(ctx context.Context, q EventQuery) ([]EventRecord, error) {
	var where []string
	var args []any
	if !q.Since.IsZero() {
		where, args = append(where, `occurred_at >= ?`), append(args, q.Since.Unix())
	}
	if !q.Until.IsZero() {
		where, args = append(where, `occurred_at < ?`), append(args, q.Until.Unix())
	}
	if len(q.Kinds) > 0 {
		where = append(where, `kind IN (?`+strings.Repeat(`, ?`, len(q.Kinds)-1)+`)`)
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	query := `SELECT id, kind, occurred_at, dataset_version, destinations, fields, summary, details FROM events`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, ` AND `)
	}
	query += ` ORDER BY occurred_at DESC, id`
	if q.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, q.Limit)
	}
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("reading events: %w", err)
	}
	defer rows.Close()
	var out []EventRecord
	for rows.Next() {
		var e EventRecord
		var at int64
		var destinations, fields, details string
		if err := rows.Scan(&e.ID, &e.Kind, &at, &e.DatasetVersion, &destinations, &fields, &e.Summary, &details); err != nil {
			return nil, fmt.Errorf("reading events: %w", err)
		}
		e.OccurredAt = time.Unix(at, 0).UTC()
		e.Destinations, e.Fields, e.Details = splitList(destinations), splitList(fields), []byte(details)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading events: %w", err)
	}
	return out, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
