package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Bucket is one daily quota: a scope (ip, network, client, global, ...), a
// key within it (a keyed hash, a client id, "all") and its limit.
type Bucket struct {
	Scope string
	Key   string
	Limit int
}

// Consumption is the outcome of Consume.
type Consumption struct {
	// Exhausted is the index of the first bucket that had no unit left, or -1.
	Exhausted int
	// Used holds each bucket's count after a successful consumption; after a
	// refusal, the exhausted bucket's count (its limit) and zeros elsewhere.
	Used []int
}

// Consume takes one unit from every bucket of the day, all or nothing: if any
// bucket is at its limit nothing is counted. It returns once the count is
// durable. It is atomic under concurrency, and on PostgreSQL across the
// instances sharing the database.
//
// On PostgreSQL the database decides: each bucket row is incremented with a
// conditional upsert that locks it, in the order given, so every caller must
// list buckets in the same scope order. A SQLite file belongs to one process,
// so that process decides in memory and persists the counts in batches
// before it answers (see ledger).
//
// A consumption that does not finish within the store's timeout returns
// EUNAVAILABLE and is not counted (see consumeInDatabase for the one
// window where it may be).
func (s *Store) Consume(ctx context.Context, day string, buckets []Bucket) (Consumption, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	if s.ledger != nil {
		c, err := s.ledger.consume(ctx, day, buckets)
		return c, unavailable(err)
	}
	c, err := s.consumeInDatabase(ctx, day, buckets)
	return c, unavailable(err)
}

// consumeInDatabase counts in one transaction whose statements are each a
// round trip (BEGIN, the upserts, COMMIT), never one autocommit statement:
// a server that stalls keeps what it was sent and runs it when it resumes,
// even after the deadline answered the request 503. Here COMMIT is sent
// only if every upsert came back in time; otherwise the driver closes the
// connection at the deadline and the server, resuming, rolls back. The
// window left is a stall during COMMIT itself: the request is answered 503
// and the server may still commit, counting one unit that was refused.
func (s *Store) consumeInDatabase(ctx context.Context, day string, buckets []Bucket) (Consumption, error) {
	c := Consumption{Exhausted: -1, Used: make([]int, len(buckets))}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return c, fmt.Errorf("consuming quota: %w", err)
	}
	defer tx.Rollback()
	upsert := s.q(`INSERT INTO quota_usage (day, scope, key, used) VALUES (?, ?, ?, 1)
		ON CONFLICT (day, scope, key) DO UPDATE SET used = quota_usage.used + 1
		WHERE quota_usage.used < ?
		RETURNING used`)
	for i, b := range buckets {
		if b.Limit <= 0 {
			c.Exhausted, c.Used = i, make([]int, len(buckets))
			return c, nil
		}
		err := tx.QueryRowContext(ctx, upsert, day, b.Scope, b.Key, b.Limit).Scan(&c.Used[i])
		if errors.Is(err, sql.ErrNoRows) {
			c.Exhausted, c.Used = i, make([]int, len(buckets))
			c.Used[i] = b.Limit
			return c, nil
		}
		if err != nil {
			return c, fmt.Errorf("consuming quota %s: %w", b.Scope, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return c, fmt.Errorf("consuming quota: %w", err)
	}
	return c, nil
}

// QuotaUsed returns how much of a bucket was used on a day.
func (s *Store) QuotaUsed(ctx context.Context, day, scope, key string) (int, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	var used int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT used FROM quota_usage WHERE day = ? AND scope = ? AND key = ?`), day, scope, key).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return used, unavailable(err)
}

// AddCounter adds delta to a live counter of the day.
func (s *Store) AddCounter(ctx context.Context, day, name string, delta int64) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO counters (day, name, value) VALUES (?, ?, ?)
		ON CONFLICT (day, name) DO UPDATE SET value = counters.value + excluded.value`), day, name, delta)
	if err != nil {
		return unavailable(fmt.Errorf("counting %s: %w", name, err))
	}
	return nil
}

// Counters returns the live counters of a day.
func (s *Store) Counters(ctx context.Context, day string) (map[string]int64, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT name, value FROM counters WHERE day = ?`), day)
	if err != nil {
		return nil, unavailable(fmt.Errorf("reading counters: %w", err))
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return nil, unavailable(err)
		}
		out[name] = v
	}
	return out, unavailable(rows.Err())
}

// pruneQuota deletes quota rows of days before day; they can never matter again.
func (s *Store) pruneQuota(ctx context.Context, day string) error {
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM quota_usage WHERE day < ?`), day); err != nil {
		return fmt.Errorf("deleting old quota rows: %w", err)
	}
	return nil
}

// Truncate empties every table; tests use it to start from a clean shared database.
func (s *Store) Truncate() error {
	for _, t := range []string{"tokens", "clients", "quota_usage", "counters", "events", "payment_nonces", "payment_settlements", "source_pages", "hash_salts", "settings"} {
		if _, err := s.db.Exec(`DELETE FROM ` + t); err != nil {
			return fmt.Errorf("emptying %s: %w", t, err)
		}
	}
	return nil
}
