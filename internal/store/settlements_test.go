package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// TestSettlements: a settlement is found by its authorization until it
// expires, the first one recorded stays, and Prune deletes it once expired.
func TestSettlements(t *testing.T) {
	for name, s := range eventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
			first := store.Settlement{
				Network: "eip155:8453", Asset: testAsset, Payer: testPayer, Nonce: testNonce,
				PaymentHash: "h1", Resource: "https://entrycheck.example/v1/check?passport=DEU&destination=THA",
				Receipts: `{"receipt":{"success":true}}`, SettledAt: now, ExpiresAt: now.Add(time.Hour),
			}
			if _, err := s.Settlement(ctx, first.Network, first.Asset, first.Payer, first.Nonce, now); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("before recording: %v, want ErrNotFound", err)
			}
			if err := s.RecordSettlement(ctx, first); err != nil {
				t.Fatal(err)
			}
			other := first
			other.PaymentHash, other.Receipts = "h2", `{}`
			if err := s.RecordSettlement(ctx, other); err != nil {
				t.Fatal(err)
			}
			got, err := s.Settlement(ctx, first.Network, first.Asset, first.Payer, first.Nonce, now.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if got != first {
				t.Errorf("got %+v, want the first recorded %+v", got, first)
			}
			if _, err := s.Settlement(ctx, first.Network, first.Asset, testAsset, first.Nonce, now); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("another payer: %v, want ErrNotFound", err)
			}
			if _, err := s.Settlement(ctx, first.Network, first.Asset, first.Payer, first.Nonce, first.ExpiresAt); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("at its expiry: %v, want ErrNotFound", err)
			}
			if err := s.Prune(ctx, first.ExpiresAt.Add(time.Second)); err != nil {
				t.Fatal(err)
			}
			if err := s.RecordSettlement(ctx, other); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Settlement(ctx, first.Network, first.Asset, first.Payer, first.Nonce, now); err != nil || got.PaymentHash != "h2" {
				t.Errorf("after pruning the expired one, a new record: %+v %v", got, err)
			}
			if err := s.Truncate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
