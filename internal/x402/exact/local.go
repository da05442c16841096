package exact

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// NonceStore records the EIP-3009 nonces already settled. An authorization
// can be used once per (network, asset, from, nonce), as on the token
// contract. UseNonce records it and reports whether it was fresh; it must be
// atomic (of two concurrent calls with the same key, exactly one is fresh)
// and durable once it returns. The arguments are as LocalFacilitator passes
// them: the CAIP-2 network and lower-case 0x hex for the rest.
type NonceStore interface {
	UseNonce(ctx context.Context, network, asset, from, nonce string) (fresh bool, err error)
}

// LocalTransactionPrefix marks the transaction id of a local settlement:
// nothing was sent to any chain.
const LocalTransactionPrefix = "local:"

// LocalFacilitator verifies exact EVM payments and "settles" them by
// recording their nonce, without touching any chain: for development and
// tests only. The payer's balance is never checked and no funds move.
type LocalFacilitator struct {
	Nonces NonceStore
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (f *LocalFacilitator) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// Verify checks the payment against the offer at the facilitator's clock.
func (f *LocalFacilitator) Verify(_ context.Context, payload x402.PaymentPayload, offered x402.PaymentRequirements) (Authorization, error) {
	return Verify(payload, offered, f.now())
}

// Settle verifies the payment again and uses its nonce. A refused payment
// returns an unsuccessful SettlementResponse with the reason and an *Error;
// a nonce store failure returns only an error. A successful settlement's
// transaction id is LocalTransactionPrefix followed by the hex of
// keccak256(network|asset|from|nonce): deterministic, and not an on-chain
// transaction hash.
func (f *LocalFacilitator) Settle(ctx context.Context, payload x402.PaymentPayload, offered x402.PaymentRequirements) (x402.SettlementResponse, error) {
	refused := func(err error, payer string) (x402.SettlementResponse, error) {
		return x402.SettlementResponse{Success: false, ErrorReason: ReasonOf(err), Payer: payer, Network: offered.Network}, err
	}
	auth, err := Verify(payload, offered, f.now())
	if err != nil {
		var payer string
		if e, ok := err.(*Error); ok {
			payer = e.Payer
		}
		return refused(err, payer)
	}
	if f.Nonces == nil {
		return x402.SettlementResponse{}, fmt.Errorf("local facilitator has no nonce store")
	}
	k := auth.Key()
	fresh, err := f.Nonces.UseNonce(ctx, k.Network, k.Asset, k.From, k.Nonce)
	if err != nil {
		return x402.SettlementResponse{}, fmt.Errorf("recording the authorization nonce: %w", err)
	}
	if !fresh {
		return refused(&Error{Reason: ReasonNonceAlreadyUsed, Message: "this authorization was already settled", Payer: auth.From.Hex()}, auth.From.Hex())
	}
	id := keccak256([]byte(k.Network + "|" + k.Asset + "|" + k.From + "|" + k.Nonce))
	return x402.SettlementResponse{
		Success:     true,
		Payer:       auth.From.Hex(),
		Transaction: LocalTransactionPrefix + "0x" + hex.EncodeToString(id[:]),
		Network:     auth.Network,
		Amount:      auth.Value.String(),
	}, nil
}
