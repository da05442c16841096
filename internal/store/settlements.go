package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Settlement is a settled payment as its retry is answered: the receipts
// it was answered with, kept until ExpiresAt, so that a client whose answer
// was lost (a dropped connection, a crash between settlement and answer)
// gets it again for the same payment, and is never charged twice.
type Settlement struct {
	// Network, Asset, Payer and Nonce name the authorization, as in the
	// nonce table (CAIP-2 network, lower-case 0x hex for the rest).
	Network, Asset, Payer, Nonce string
	// PaymentHash tells the same signed payment from another one that
	// reuses its nonce.
	PaymentHash string
	// Resource is the URL of what was paid for.
	Resource string
	// Receipts is what the answer carried, as JSON the caller wrote.
	Receipts             string
	SettledAt, ExpiresAt time.Time
}

// RecordSettlement keeps a settlement. A settlement already kept for the
// same authorization stays as it is: there is only one.
func (s *Store) RecordSettlement(ctx context.Context, st Settlement) error {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO payment_settlements
		(network, asset, payer, nonce, payment_hash, resource, receipts, settled_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (network, asset, payer, nonce) DO NOTHING`),
		st.Network, st.Asset, st.Payer, st.Nonce, st.PaymentHash, st.Resource, st.Receipts, st.SettledAt.Unix(), st.ExpiresAt.Unix())
	if err != nil {
		return unavailable(fmt.Errorf("recording a settlement: %w", err))
	}
	return nil
}

// Settlement returns the settlement of an authorization kept and not
// expired at now, or ErrNotFound.
func (s *Store) Settlement(ctx context.Context, network, asset, payer, nonce string, now time.Time) (Settlement, error) {
	ctx, cancel := s.deadline(ctx)
	defer cancel()
	st := Settlement{Network: network, Asset: asset, Payer: payer, Nonce: nonce}
	var settled, expires int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT payment_hash, resource, receipts, settled_at, expires_at
		FROM payment_settlements WHERE network = ? AND asset = ? AND payer = ? AND nonce = ? AND expires_at > ?`),
		network, asset, payer, nonce, now.Unix()).Scan(&st.PaymentHash, &st.Resource, &st.Receipts, &settled, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNotFound
	}
	if err != nil {
		return st, unavailable(fmt.Errorf("reading a settlement: %w", err))
	}
	st.SettledAt, st.ExpiresAt = time.Unix(settled, 0).UTC(), time.Unix(expires, 0).UTC()
	return st, nil
}
