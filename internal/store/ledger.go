package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// ledger decides quota consumption in memory for a SQLite store, which one
// process owns, and persists the counts before answering: concurrent
// requests wait for the same write, so a burst costs one transaction with
// one upsert per distinct bucket instead of a transaction per request.
// Counts are read from the database the first time a bucket is seen, so
// they survive restarts.
type ledger struct {
	s        *Store
	add      *sql.Stmt
	mu       sync.Mutex
	day      string
	used     map[bucketKey]int
	pending  map[pendingKey]int
	waiters  []chan error
	flushing bool
}

type bucketKey struct{ scope, key string }

// pendingKey carries the day, so that counts taken just before midnight are
// written to their own day even when the write happens after it.
type pendingKey struct {
	day string
	bucketKey
}

func newLedger(s *Store) (*ledger, error) {
	add, err := s.db.Prepare(`INSERT INTO quota_usage (day, scope, key, used) VALUES (?, ?, ?, ?)
		ON CONFLICT (day, scope, key) DO UPDATE SET used = quota_usage.used + excluded.used`)
	if err != nil {
		return nil, fmt.Errorf("preparing the quota ledger: %w", err)
	}
	return &ledger{s: s, add: add, used: map[bucketKey]int{}, pending: map[pendingKey]int{}}, nil
}

func (l *ledger) consume(ctx context.Context, day string, buckets []Bucket) (Consumption, error) {
	c := Consumption{Exhausted: -1, Used: make([]int, len(buckets))}
	l.mu.Lock()
	if day != l.day {
		// A new day: only its buckets matter from now on.
		l.day, l.used = day, map[bucketKey]int{}
	}
	for i, b := range buckets {
		k := bucketKey{b.Scope, b.Key}
		n, ok := l.used[k]
		if !ok {
			var err error
			if n, err = l.s.QuotaUsed(ctx, day, b.Scope, b.Key); err != nil {
				l.mu.Unlock()
				return c, err
			}
			l.used[k] = n
		}
		if n >= b.Limit {
			l.mu.Unlock()
			c.Exhausted, c.Used[i] = i, b.Limit
			return c, nil
		}
	}
	for i, b := range buckets {
		k := bucketKey{b.Scope, b.Key}
		l.used[k]++
		c.Used[i] = l.used[k]
		l.pending[pendingKey{day, k}]++
	}
	done := make(chan error, 1)
	l.waiters = append(l.waiters, done)
	if !l.flushing {
		l.flushing = true
		go l.flush()
	}
	l.mu.Unlock()
	select {
	case err := <-done:
		return c, err
	case <-ctx.Done():
		// The unit stays counted: the caller gave up, not the quota.
		return c, ctx.Err()
	}
}

// linger is how long a batch waits for more requests before it is written.
// A write costs about as much as a hundred answers, so under load a short
// wait turns many concurrent checks into one transaction; it adds well under
// a millisecond to an answer.
const linger = 500 * time.Microsecond

// flush writes pending counts until none are left, answering each batch's
// waiters. It lingers only under load (the last batch served several
// requests), so that a lone request is not delayed.
func (l *ledger) flush() {
	lastBatch := 0
	for {
		if lastBatch > 1 {
			time.Sleep(linger)
		}
		l.mu.Lock()
		if len(l.waiters) == 0 {
			l.flushing = false
			l.mu.Unlock()
			return
		}
		pending, waiters := l.pending, l.waiters
		l.pending, l.waiters = map[pendingKey]int{}, nil
		lastBatch = len(waiters)
		l.mu.Unlock()
		err := l.write(pending)
		if err != nil {
			l.forget(pending)
		}
		for _, w := range waiters {
			w <- err
		}
	}
}

// forget takes back the counts of a batch that could not be written: its
// callers are told the check failed, so it must not use up their quota.
func (l *ledger) forget(pending map[pendingKey]int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, n := range pending {
		if k.day == l.day {
			l.used[k.bucketKey] -= n
		}
	}
}

func (l *ledger) write(pending map[pendingKey]int) error {
	tx, err := l.s.db.Begin()
	if err != nil {
		return fmt.Errorf("persisting quota counts: %w", err)
	}
	defer tx.Rollback()
	stmt := tx.Stmt(l.add)
	for k, n := range pending {
		if _, err := stmt.Exec(k.day, k.scope, k.key, n); err != nil {
			return fmt.Errorf("persisting quota %s: %w", k.scope, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("persisting quota counts: %w", err)
	}
	return nil
}
