package store

import (
	"context"
	"time"
)

// DefaultTimeout bounds the database work of one request unless Open is
// given another (see WithTimeout).
const DefaultTimeout = 2 * time.Second

// Option changes how Open sets up a store.
type Option func(*Store)

// WithTimeout bounds the database work of each request to d (see
// deadline); zero or less keeps DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.timeout = d
		}
	}
}

// deadline bounds one call's database work made while serving a request,
// waiting for a pooled connection included: a stalled database (a frozen
// PostgreSQL, a SQLite file another program keeps locked) answers the
// request 503 after the timeout (see unavailable) instead of holding it
// until the client or the proxy gives up. On PostgreSQL the driver closes
// the connection at the deadline, which rolls back an open transaction;
// on SQLite it interrupts the statement.
//
// Every method that serves requests calls it; the background work
// (migrations, pruning, verification runs) has its own bounds.
func (s *Store) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}
