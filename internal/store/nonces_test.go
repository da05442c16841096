package store_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

var _ exact.NonceStore = (*store.Store)(nil)

const (
	testAsset = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"
	testPayer = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
	testNonce = "0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480"
)

func TestUseNonce(t *testing.T) {
	for name, s := range eventStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if fresh, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, testNonce); err != nil || !fresh {
				t.Fatalf("first use: %v %v", fresh, err)
			}
			if fresh, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, testNonce); err != nil || fresh {
				t.Fatalf("second use: %v %v, want not fresh", fresh, err)
			}
			// Another network, payer or nonce is another authorization.
			if fresh, err := s.UseNonce(ctx, "eip155:84532", testAsset, testPayer, testNonce); err != nil || !fresh {
				t.Errorf("other network: %v %v", fresh, err)
			}
			// Concurrent uses of one new nonce: exactly one is fresh.
			var (
				wg    sync.WaitGroup
				mu    sync.Mutex
				fresh int
			)
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					f, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, "0x01")
					if err != nil {
						t.Error(err)
					}
					if f {
						mu.Lock()
						fresh++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if fresh != 1 {
				t.Errorf("%d concurrent uses were fresh, want 1", fresh)
			}
			if err := s.Truncate(); err != nil {
				t.Fatal(err)
			}
			if f, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, testNonce); err != nil || !f {
				t.Errorf("after Truncate: %v %v", f, err)
			}
		})
	}
}

func TestUseNonceSurvivesReopening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nonces.db")
	ctx := context.Background()
	s := open(t, path)
	if fresh, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, testNonce); err != nil || !fresh {
		t.Fatalf("first use: %v %v", fresh, err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	if fresh, err := s.UseNonce(ctx, "eip155:8453", testAsset, testPayer, testNonce); err != nil || fresh {
		t.Fatalf("after reopening: %v %v, want not fresh", fresh, err)
	}
}
