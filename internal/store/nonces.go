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
//
// The insert is a transaction of its own, committed only if it came back
// within the deadline (see consumeInDatabase): a call answered
// EUNAVAILABLE leaves the nonce fresh, so that the payer may retry with the
// same authorization, bar a stall during COMMIT itself.
func (s *Store) UseNonce(ctx context.Context, network, asset, from, nonce string) (fresh bool, err error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, unavailable(fmt.Errorf("recording a payment nonce: %w", err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO payment_nonces (network, asset, payer, nonce, used_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (network, asset, payer, nonce) DO NOTHING`),
		network, asset, from, nonce, time.Now().Unix())
	if err != nil {
		return false, unavailable(fmt.Errorf("recording a payment nonce: %w", err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, unavailable(fmt.Errorf("recording a payment nonce: %w", err))
	}
	if err := tx.Commit(); err != nil {
		return false, unavailable(fmt.Errorf("recording a payment nonce: %w", err))
	}
	return n == 1, nil
}
