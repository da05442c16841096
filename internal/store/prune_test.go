package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// Prune deletes expired clients and tokens and the quota rows of past days,
// and keeps everything that can still matter.
func TestPruneKeepsWhatCanStillMatter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	s := open(t, path)
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, c := range []store.Client{
		{ID: "live", SecretHash: "h", Name: "live", CreatedAt: now.Add(-time.Hour), ExpiresAt: now.Add(time.Hour)},
		{ID: "gone", SecretHash: "h", Name: "gone", CreatedAt: now.Add(-91 * 24 * time.Hour), ExpiresAt: now.Add(-time.Hour)},
	} {
		if err := s.CreateClient(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, tok := range []store.Token{
		{ID: "old", ClientID: "live", SecretHash: "h", ExpiresAt: now.Add(-time.Minute)},
		{ID: "new", ClientID: "live", SecretHash: "h", ExpiresAt: now.Add(time.Hour)},
	} {
		// Created an hour apart, so that issuing "new" keeps "old".
		if err := s.CreateToken(ctx, tok, 5, tok.ExpiresAt.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	for _, day := range []string{"2026-11-21", "2026-11-22"} {
		if _, err := s.Consume(ctx, day, []store.Bucket{{Scope: "ip", Key: "k", Limit: 5}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close() // the ledger writes its counts
	s = open(t, path)
	defer s.Close()

	if err := s.Prune(ctx, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Client(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired client kept: %v", err)
	}
	if _, err := s.Client(ctx, "live"); err != nil {
		t.Errorf("live client: %v", err)
	}
	if _, err := s.Token(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired token kept: %v", err)
	}
	if _, err := s.Token(ctx, "new"); err != nil {
		t.Errorf("live token: %v", err)
	}
	for day, want := range map[string]int{"2026-11-21": 0, "2026-11-22": 1} {
		if used, err := s.QuotaUsed(ctx, day, "ip", "k"); err != nil || used != want {
			t.Errorf("quota of %s: %d (%v), want %d", day, used, err, want)
		}
	}
}

// A client holds at most keep live tokens: the newest.
func TestCreateTokenKeepsTheNewest(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if err := s.CreateClient(ctx, store.Client{ID: "c", SecretHash: "h", Name: "c", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	ids := []string{"t9", "t1", "t8", "t2", "t7"} // issued in this order, ids unordered
	for _, id := range ids {
		if err := s.CreateToken(ctx, store.Token{ID: id, ClientID: "c", SecretHash: "h", ExpiresAt: now.Add(time.Hour)}, 3, now); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.LiveTokens(ctx, "c", now); err != nil || n != 3 {
		t.Errorf("%d live tokens (%v), want 3", n, err)
	}
	for i, id := range ids {
		_, err := s.Token(ctx, id)
		if kept := err == nil; kept != (i >= 2) {
			t.Errorf("token %s (issued %d of %d): kept %v", id, i+1, len(ids), kept)
		}
	}
}
