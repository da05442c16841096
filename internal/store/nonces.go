package store

import (
	"context"
	"fmt"
	"time"
)

// UseNonce records the nonce of a payment authorization as used and
// reports whether it was fresh: of any number of calls with the same
// (network, asset, from, nonce), concurrent or across restarts, exactly one
// is fresh. It satisfies exact.NonceStore; callers pass the CAIP-2 network
// and lower-case 0x hex for the rest.
func (s *Store) UseNonce(ctx context.Context, network, asset, from, nonce string) (fresh bool, err error) {
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO payment_nonces (network, asset, payer, nonce, used_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (network, asset, payer, nonce) DO NOTHING`),
		network, asset, from, nonce, time.Now().Unix())
	if err != nil {
		return false, fmt.Errorf("recording a payment nonce: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("recording a payment nonce: %w", err)
	}
	return n == 1, nil
}
