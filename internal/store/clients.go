package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Client is a registered OAuth client. SecretHash is a hash of the secret,
// which itself is shown once and never stored.
type Client struct {
	ID         string
	SecretHash string
	Name       string
	CreatedAt  time.Time
	ExpiresAt  time.Time
}

// Token is an issued access token, stored by id with a hash of its secret part.
type Token struct {
	ID         string
	ClientID   string
	SecretHash string
	ExpiresAt  time.Time
}

// CreateClient stores a new client.
func (s *Store) CreateClient(ctx context.Context, c Client) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO clients (id, secret_hash, name, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
		c.ID, c.SecretHash, c.Name, c.CreatedAt.Unix(), c.ExpiresAt.Unix())
	if err != nil {
		return unavailable(fmt.Errorf("storing client: %w", err))
	}
	return nil
}

// Client returns a client by id, or ErrNotFound.
func (s *Store) Client(ctx context.Context, id string) (Client, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	c := Client{ID: id}
	var created, expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT secret_hash, name, created_at, expires_at FROM clients WHERE id = ?`), id).
		Scan(&c.SecretHash, &c.Name, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, unavailable(fmt.Errorf("reading client: %w", err))
	}
	c.CreatedAt, c.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	return c, nil
}

// CreateToken stores a new access token and revokes the client's tokens
// that expired before now or were issued before its newest keep. Mints of
// one client are serialised, so that at most keep stay live however many
// run at once: SQLite has one writer, and on PostgreSQL the transaction
// first locks the client's row, without which each concurrent transaction
// (READ COMMITTED) would see at most keep tokens, add its own and keep
// them all.
func (s *Store) CreateToken(ctx context.Context, t Token, keep int, now time.Time) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return unavailable(fmt.Errorf("storing token: %w", err))
	}
	defer tx.Rollback()
	if s.driver == Postgres {
		// No row (an unknown client) locks nothing, and the insert then
		// fails on the foreign key.
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM clients WHERE id = $1 FOR UPDATE`, t.ClientID); err != nil {
			return unavailable(fmt.Errorf("locking the client's tokens: %w", err))
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO tokens (id, client_id, secret_hash, expires_at, seq)
		VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tokens WHERE client_id = ?))`),
		t.ID, t.ClientID, t.SecretHash, t.ExpiresAt.Unix(), t.ClientID); err != nil {
		return unavailable(fmt.Errorf("storing token: %w", err))
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM tokens WHERE client_id = ? AND (expires_at < ? OR id NOT IN
		(SELECT id FROM tokens WHERE client_id = ? ORDER BY seq DESC LIMIT ?))`),
		t.ClientID, now.Unix(), t.ClientID, keep); err != nil {
		return unavailable(fmt.Errorf("revoking old tokens: %w", err))
	}
	if err := tx.Commit(); err != nil {
		return unavailable(fmt.Errorf("storing token: %w", err))
	}
	return nil
}

// LiveTokens counts a client's tokens that have not expired at now.
func (s *Store) LiveTokens(ctx context.Context, clientID string, now time.Time) (int, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM tokens WHERE client_id = ? AND expires_at >= ?`), clientID, now.Unix()).Scan(&n)
	if err != nil {
		return 0, unavailable(fmt.Errorf("counting tokens: %w", err))
	}
	return n, nil
}

// Token returns a token by id, or ErrNotFound.
func (s *Store) Token(ctx context.Context, id string) (Token, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	t := Token{ID: id}
	var expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT client_id, secret_hash, expires_at FROM tokens WHERE id = ?`), id).
		Scan(&t.ClientID, &t.SecretHash, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return t, ErrNotFound
	}
	if err != nil {
		return t, unavailable(fmt.Errorf("reading token: %w", err))
	}
	t.ExpiresAt = time.Unix(expires, 0).UTC()
	return t, nil
}

// Prune deletes what can never matter again: tokens, clients and
// settlement receipts that expired before now, and the quota rows and
// address-hash salts of days before today's (the day of now, UTC). Serving
// runs it at start and every hour, so that the database stays bounded
// however it is used.
func (s *Store) Prune(ctx context.Context, now time.Time) error {
	if err := s.deleteExpired(ctx, now); err != nil {
		return err
	}
	today := now.UTC().Format(time.DateOnly)
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM hash_salts WHERE day < ?`), today); err != nil {
		return fmt.Errorf("deleting old address-hash salts: %w", err)
	}
	return s.pruneQuota(ctx, today)
}

// deleteExpired removes tokens, clients and payment settlements that
// expired before now.
func (s *Store) deleteExpired(ctx context.Context, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM tokens WHERE expires_at < ?`), now.Unix()); err != nil {
		return fmt.Errorf("deleting expired tokens: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM clients WHERE expires_at < ?`), now.Unix()); err != nil {
		return fmt.Errorf("deleting expired clients: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM payment_settlements WHERE expires_at < ?`), now.Unix()); err != nil {
		return fmt.Errorf("deleting expired settlements: %w", err)
	}
	return nil
}
