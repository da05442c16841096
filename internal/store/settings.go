package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// Agree records value under name unless a value is recorded already, and
// returns the recorded one: the first instance to start on a database sets
// what the others must match.
func (s *Store) Agree(ctx context.Context, name, value string) (string, error) {
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`), name, value); err != nil {
		return "", fmt.Errorf("recording %s: %w", name, err)
	}
	var stored string
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT value FROM settings WHERE name = ?`), name).Scan(&stored); err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	return stored, nil
}

// DaySalt returns the random salt of a day's address hashes, made by the
// first instance that needs it. Prune deletes it with the day's quota rows.
func (s *Store) DaySalt(ctx context.Context, day string) (string, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", unavailable(err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO hash_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`), day, hex.EncodeToString(b[:])); err != nil {
		return "", unavailable(fmt.Errorf("making the salt of %s: %w", day, err))
	}
	var salt string
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT salt FROM hash_salts WHERE day = ?`), day).Scan(&salt); err != nil {
		return "", unavailable(fmt.Errorf("reading the salt of %s: %w", day, err))
	}
	return salt, nil
}
