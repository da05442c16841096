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
//
// A batch is written within the earliest deadline of its requests, and
// every request waits for its batch's outcome rather than for its own
// deadline: a batch that cannot be written in time (another program holds
// the file's write lock) is rolled back and taken back from the counts,
// and all its requests are answered EUNAVAILABLE, so that none is counted
// after it was refused. Requests share a timeout, so the earlier batch's
// deadline is the earlier one, and a request waits at most its own
// timeout and the time SQLite takes to notice an interrupt. The window
// left is an interrupt that arrives as COMMIT completes: the batch is
// reported failed and taken back in memory though the file has it, so its
// requests are answered 503 yet counted in the file, and this process may
// grant as many units more that day.
type ledger struct {
	s        *Store
	add      *sql.Stmt
	mu       sync.Mutex
	day      string
	used     map[bucketKey]int
	pending  map[pendingKey]int
	waiters  []waiter
	flushing bool
}

// waiter is a request waiting for its batch to be written.
type waiter struct {
	done     chan error
	deadline time.Time
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
	w := waiter{done: make(chan error, 1)}
	w.deadline, _ = ctx.Deadline() // Consume always sets one
	l.waiters = append(l.waiters, w)
	if !l.flushing {
		l.flushing = true
		go l.flush()
	}
	l.mu.Unlock()
	// Not ctx.Done: whether the unit was counted is known only once the
	// batch is written or rolled back, which its deadline bounds.
	return c, <-w.done
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
		err := l.write(pending, earliest(waiters))
		if err != nil {
			l.forget(pending)
		}
		for _, w := range waiters {
			w.done <- err
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

// earliest is the earliest deadline of a batch's waiters.
func earliest(waiters []waiter) time.Time {
	first := waiters[0].deadline
	for _, w := range waiters[1:] {
		if !w.deadline.IsZero() && (first.IsZero() || w.deadline.Before(first)) {
			first = w.deadline
		}
	}
	return first
}

// write persists a batch in one transaction, given up at deadline (zero:
// the store's timeout from now). SQLite interrupts a statement whose
// context ends, and a transaction that did not commit is rolled back.
func (l *ledger) write(pending map[pendingKey]int, deadline time.Time) error {
	if deadline.IsZero() {
		deadline = time.Now().Add(l.s.timeout)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	tx, err := l.s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("persisting quota counts: %w", err)
	}
	defer tx.Rollback()
	stmt := tx.StmtContext(ctx, l.add)
	for k, n := range pending {
		if _, err := stmt.ExecContext(ctx, k.day, k.scope, k.key, n); err != nil {
			return fmt.Errorf("persisting quota %s: %w", k.scope, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("persisting quota counts: %w", err)
	}
	return nil
}
