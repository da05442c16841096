package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations is the ordered schema history. Each runs once, in its own
// transaction, and receives the driver name for the rare statement that
// differs between engines. Append; never edit a released migration.
var migrations = []func(tx *sql.Tx, driver string) error{
	func(tx *sql.Tx, driver string) error {
		return exec(tx,
			`CREATE TABLE quota_usage (
				day   TEXT    NOT NULL,
				scope TEXT    NOT NULL,
				key   TEXT    NOT NULL,
				used  INTEGER NOT NULL,
				PRIMARY KEY (day, scope, key))`,
			`CREATE TABLE counters (
				day   TEXT   NOT NULL,
				name  TEXT   NOT NULL,
				value BIGINT NOT NULL,
				PRIMARY KEY (day, name))`,
			`CREATE TABLE clients (
				id          TEXT   PRIMARY KEY,
				secret_hash TEXT   NOT NULL,
				name        TEXT   NOT NULL,
				created_at  BIGINT NOT NULL,
				expires_at  BIGINT NOT NULL)`,
			`CREATE TABLE tokens (
				id          TEXT   PRIMARY KEY,
				client_id   TEXT   NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
				secret_hash TEXT   NOT NULL,
				expires_at  BIGINT NOT NULL)`,
			`CREATE INDEX tokens_expiry ON tokens (expires_at)`,
			`CREATE INDEX clients_expiry ON clients (expires_at)`,
		)
	},
	// 2: the event log (rule changes now, verification events later). Ids
	// compare byte by byte on both engines, so that "newest first, then by
	// id" is one order everywhere.
	func(tx *sql.Tx, driver string) error {
		id := `id TEXT PRIMARY KEY`
		if driver == Postgres {
			id = `id TEXT COLLATE "C" PRIMARY KEY`
		}
		return exec(tx,
			`CREATE TABLE events (
				`+id+`,
				kind            TEXT   NOT NULL,
				occurred_at     BIGINT NOT NULL,
				dataset_version TEXT   NOT NULL,
				destinations    TEXT   NOT NULL,
				fields          TEXT   NOT NULL,
				summary         TEXT   NOT NULL,
				details         TEXT   NOT NULL)`,
			`CREATE INDEX events_occurred ON events (occurred_at)`,
		)
	},
	// 3: the EIP-3009 authorization nonces of settled x402 payments, so
	// that an authorization pays once, across restarts and instances.
	func(tx *sql.Tx, driver string) error {
		return exec(tx,
			`CREATE TABLE payment_nonces (
				network TEXT   NOT NULL,
				asset   TEXT   NOT NULL,
				payer   TEXT   NOT NULL,
				nonce   TEXT   NOT NULL,
				used_at BIGINT NOT NULL,
				PRIMARY KEY (network, asset, payer, nonce))`,
		)
	},
	// 4: what the daily verification keeps of each cited page between
	// runs: its validators for conditional requests and its main text, the
	// baseline the next reading is compared with.
	func(tx *sql.Tx, driver string) error {
		return exec(tx,
			`CREATE TABLE source_pages (
				url           TEXT   PRIMARY KEY,
				etag          TEXT   NOT NULL,
				last_modified TEXT   NOT NULL,
				fingerprint   TEXT   NOT NULL,
				text          TEXT   NOT NULL,
				read_at       BIGINT NOT NULL)`,
		)
	},
	// 5: the order in which a client's tokens were issued (the newest few
	// stay live); the daily salts of the address hashes, deleted with the
	// day's quota rows; and settings the instances sharing a database
	// must agree on (the address-hash key's fingerprint).
	func(tx *sql.Tx, driver string) error {
		return exec(tx,
			`ALTER TABLE tokens ADD COLUMN seq BIGINT NOT NULL DEFAULT 0`,
			`CREATE INDEX tokens_client ON tokens (client_id, seq)`,
			`CREATE TABLE hash_salts (
				day  TEXT PRIMARY KEY,
				salt TEXT NOT NULL)`,
			`CREATE TABLE settings (
				name  TEXT PRIMARY KEY,
				value TEXT NOT NULL)`,
		)
	},
	// 6: the receipts of settled payments, kept until their authorization
	// expires (a day at most), so that a client whose answer was lost gets
	// it again for the same payment without paying twice.
	func(tx *sql.Tx, driver string) error {
		return exec(tx,
			`CREATE TABLE payment_settlements (
				network      TEXT   NOT NULL,
				asset        TEXT   NOT NULL,
				payer        TEXT   NOT NULL,
				nonce        TEXT   NOT NULL,
				payment_hash TEXT   NOT NULL,
				resource     TEXT   NOT NULL,
				receipts     TEXT   NOT NULL,
				settled_at   BIGINT NOT NULL,
				expires_at   BIGINT NOT NULL,
				PRIMARY KEY (network, asset, payer, nonce))`,
			`CREATE INDEX payment_settlements_expiry ON payment_settlements (expires_at)`,
		)
	},
}

func exec(tx *sql.Tx, statements ...string) error {
	for _, s := range statements {
		if _, err := tx.Exec(s); err != nil {
			return fmt.Errorf("%w in %.60q", err, s)
		}
	}
	return nil
}

// migrate brings the schema to len(migrations), recording the version.
func (s *Store) migrate(ctx context.Context) error {
	for {
		done, err := s.migrateOne(ctx)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, if any. On PostgreSQL an advisory
// lock, taken before anything else, keeps instances that start together
// from migrating twice, and from creating schema_version at the same time:
// PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe against itself (both
// may find no table, and one fails on a duplicate catalogue row).
func (s *Store) migrateOne(ctx context.Context) (done bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("starting a migration: %w", err)
	}
	defer tx.Rollback()
	if s.driver == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(4242001)`); err != nil {
			return false, fmt.Errorf("locking for migration: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return false, fmt.Errorf("creating schema_version: %w", err)
	}
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return false, fmt.Errorf("reading the schema version: %w", err)
	}
	if version > len(migrations) {
		return false, fmt.Errorf("the database schema is version %d, newer than this binary knows (%d)", version, len(migrations))
	}
	if version == len(migrations) {
		return true, nil
	}
	if err := migrations[version](tx, s.driver); err != nil {
		return false, fmt.Errorf("migration %d: %w", version+1, err)
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM schema_version`)); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_version (version) VALUES (?)`), version+1); err != nil {
		return false, err
	}
	return false, tx.Commit()
}
