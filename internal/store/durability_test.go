package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// TestSQLiteCommitsAreDurable: every commit of a SQLite store is fsynced
// before it returns (WAL with synchronous FULL), so nothing that was
// answered is lost in a power cut.
func TestSQLiteCommitsAreDurable(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "durable.db"))
	defer s.Close()
	var mode string
	var sync int
	if err := s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || !strings.EqualFold(mode, "wal") {
		t.Errorf("journal_mode %q %v, want wal", mode, err)
	}
	if err := s.DB().QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
		t.Errorf("synchronous %d %v, want 2 (FULL)", sync, err)
	}
}

// BenchmarkDurableCommits times the commits that answer a request on a
// SQLite store, one per operation: a quota count, a payment nonce and a
// registered client. scripts/fsync-count.sh counts their fsyncs.
func BenchmarkDurableCommits(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(b.TempDir(), "durable.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	n := 0 // unique keys across every run of the sub-benchmarks
	b.Run("quota", func(b *testing.B) {
		buckets := []store.Bucket{{Scope: "ip", Key: "a", Limit: 1 << 30}}
		for b.Loop() {
			if _, err := s.Consume(ctx, "2026-11-22", buckets); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("nonce", func(b *testing.B) {
		for b.Loop() {
			n++
			if fresh, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, fmt.Sprintf("0x%x", n)); err != nil || !fresh {
				b.Fatalf("%v %v", fresh, err)
			}
		}
	})
	b.Run("client", func(b *testing.B) {
		now := time.Now()
		for b.Loop() {
			n++
			c := store.Client{ID: fmt.Sprint("client-", n), SecretHash: "h", Name: "bench", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
			if err := s.CreateClient(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
