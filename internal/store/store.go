// Package store is the one database layer of the service: quota buckets,
// registered clients, access tokens and live counters, on SQLite (embedded,
// the default) or PostgreSQL (when configured). Both share one schema and
// one list of migrations; only placeholders and the driver differ.
//
// Nothing here stores a raw IP address or a secret: callers pass keyed
// hashes of addresses and hashes of secrets.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Driver names.
const (
	SQLite   = "sqlite"
	Postgres = "pgx"
)

// ErrNotFound is returned when a client or token does not exist.
var ErrNotFound = errors.New("not found")

// Store is a database connection with the service's schema.
type Store struct {
	db     *sql.DB
	driver string
	ledger *ledger  // SQLite only
	lock   *os.File // SQLite only: the database file, locked while the store is open
	// timeout bounds the database work of one request (see deadline).
	timeout time.Duration
}

// Open connects to a PostgreSQL URL (postgres:// or postgresql://) or a
// SQLite file (a path or a file: URI, see sqlitePath), and migrates the schema to the current version.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	s := &Store{timeout: DefaultTimeout}
	for _, o := range opts {
		o(s)
	}
	var err error
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		s.driver = Postgres
		s.db, err = sql.Open("pgx", dsn)
		if err == nil {
			s.db.SetMaxOpenConns(16)
			s.db.SetMaxIdleConns(16)
		}
	} else {
		s.driver = SQLite
		path, err := sqlitePath(dsn)
		if err != nil {
			return nil, err
		}
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, fmt.Errorf("creating the database directory: %w", err)
			}
		}
		if s.lock, err = lockDatabase(path); err != nil {
			return nil, err
		}

		// WAL lets readers run beside the writer; one connection serialises
		// writers in Go instead of in SQLite's busy loop. synchronous(FULL)
		// fsyncs the WAL at every commit, so that a registration, a payment
		// nonce or a quota count is answered only once it survives a power
		// cut; NORMAL syncs at checkpoints only, and a power cut could undo
		// answered commits. Concurrent quota counts share one commit (see
		// ledger), which keeps the cost off throughput. Only another
		// program (a sqlite3 shell writing) can hold the write lock, since
		// the file belongs to this process: a request waits for it as long
		// as the store's timeout, then is answered 503, rather than stall
		// the free tier. The request's deadline interrupts the wait too;
		// the busy timeout bounds the work that has no deadline.
		busy := max(s.timeout.Milliseconds(), 1)
		s.db, err = sql.Open("sqlite", fmt.Sprintf("file:%s?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_txlock=immediate", path, busy))
		if err == nil {
			s.db.SetMaxOpenConns(1)
		}
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("opening the database: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s.db.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connecting to the %s database: %w", s.Kind(), err)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if s.driver == SQLite {
		if s.ledger, err = newLedger(s); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Kind names the database engine: "sqlite" or "postgresql".
func (s *Store) Kind() string {
	if s.driver == Postgres {
		return "postgresql"
	}
	return "sqlite"
}

// Close closes the connection and releases the SQLite file.
func (s *Store) Close() error {
	err := s.db.Close()
	if s.lock != nil {
		s.lock.Close()
	}
	return err
}

// Ping checks the connection, for health checks, within the store's
// timeout or the caller's deadline, whichever comes first.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	return s.db.PingContext(ctx)
}

// q rewrites ? placeholders for PostgreSQL, so every query is written once.
func (s *Store) q(query string) string {
	if s.driver != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
