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
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO clients (id, secret_hash, name, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`),
		c.ID, c.SecretHash, c.Name, c.CreatedAt.Unix(), c.ExpiresAt.Unix())
	if err != nil {
		return fmt.Errorf("storing client: %w", err)
	}
	return nil
}

// Client returns a client by id, or ErrNotFound.
func (s *Store) Client(ctx context.Context, id string) (Client, error) {
	c := Client{ID: id}
	var created, expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT secret_hash, name, created_at, expires_at FROM clients WHERE id = ?`), id).
		Scan(&c.SecretHash, &c.Name, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("reading client: %w", err)
	}
	c.CreatedAt, c.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	return c, nil
}

// CreateToken stores a new access token.
func (s *Store) CreateToken(ctx context.Context, t Token) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO tokens (id, client_id, secret_hash, expires_at) VALUES (?, ?, ?, ?)`),
		t.ID, t.ClientID, t.SecretHash, t.ExpiresAt.Unix())
	if err != nil {
		return fmt.Errorf("storing token: %w", err)
	}
	return nil
}

// Token returns a token by id, or ErrNotFound.
func (s *Store) Token(ctx context.Context, id string) (Token, error) {
	t := Token{ID: id}
	var expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT client_id, secret_hash, expires_at FROM tokens WHERE id = ?`), id).
		Scan(&t.ClientID, &t.SecretHash, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return t, ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("reading token: %w", err)
	}
	t.ExpiresAt = time.Unix(expires, 0).UTC()
	return t, nil
}

// DeleteExpired removes tokens and clients that expired before now.
func (s *Store) DeleteExpired(ctx context.Context, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM tokens WHERE expires_at < ?`), now.Unix()); err != nil {
		return fmt.Errorf("deleting expired tokens: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`DELETE FROM clients WHERE expires_at < ?`), now.Unix()); err != nil {
		return fmt.Errorf("deleting expired clients: %w", err)
	}
	return nil
}
