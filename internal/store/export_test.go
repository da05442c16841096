package store

import "database/sql"

// DB exposes the connection pool, for tests that read pragmas or the
// schema version back.
func (s *Store) DB() *sql.DB { return s.db }

// SchemaVersion is the version a migrated database records.
func SchemaVersion() int { return len(migrations) }
