package exact

import (
	"context"
	"sync"
)

// MemoryNonceStore is a NonceStore in memory: the tests' NonceStore. The zero value is ready.
type MemoryNonceStore struct {
	mu   sync.Mutex
	used map[string]struct{}
}

// UseNonce implements NonceStore.
func (m *MemoryNonceStore) UseNonce(_ context.Context, network, asset, from, nonce string) (bool, error) {
	key := network + "|" + asset + "|" + from + "|" + nonce
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.used[key]; ok {
		return false, nil
	}
	if m.used == nil {
		m.used = make(map[string]struct{})
	}
	m.used[key] = struct{}{}
	return true, nil
}
