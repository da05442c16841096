// Package payment is the paid tier: the payment gate that verifies x402
// payments and settles them through a facilitator, the offers of the paid
// endpoints and tools at their configured prices, and the wrapper that
// serves a paid REST answer only once its payment is settled.
//
// It depends on the x402 and AP2 packages, the configuration, the
// discovery prices and the quota, request and response packages; the API
// assembly and the MCP and A2A packages import it, and the command builds
// its gate with NewGate and its AP2 merchant with NewMerchant.
package payment

import (
	"context"
	"errors"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// Gate is the seam between the paid answers and the payment
// protocol: it decides whether a payment the client sent is acceptable for
// what was offered, and settles it once the answer is ready. No settlement,
// no answer. It is transport-neutral: the HTTP endpoints take the
// PaymentPayload from the PAYMENT-SIGNATURE header, the MCP tools from the
// call's _meta["x402/payment"] (x402 transports-v2/mcp.md), so one gate
// serves both.
type Gate interface {
	// Authorize checks the payment a client sent against the offer. It
	// returns the payment to settle, or a reason why the offer still stands
	// (sent back with the offer as its error).
	Authorize(ctx context.Context, payload x402.PaymentPayload, offer x402.PaymentRequired) (*Payment, string)
	// Settle settles an authorized payment. An error means nothing is served.
	Settle(ctx context.Context, p *Payment) (x402.SettlementResponse, error)
}

// Payment is an authorized payment awaiting settlement.
type Payment struct {
	Payload  x402.PaymentPayload
	Accepted x402.PaymentRequirements
	Payer    string
	// Auth is the verified authorization; its nonce and signature name
	// the payment.
	Auth exact.Authorization
	// Resource is the URL of what it pays for (set by
	// Cashier.AuthorizeWithMandates).
	Resource string
	// Earlier holds the receipts when this very payment was settled before
	// for this resource: its answer was lost and is given again, and
	// Cashier.Settle settles nothing.
	Earlier *Settled
}

// ChallengeOnly is the gate while no payment verification is configured:
// every payment is refused, so every paid request gets the offer.
type ChallengeOnly struct{}

func (ChallengeOnly) Authorize(context.Context, x402.PaymentPayload, x402.PaymentRequired) (*Payment, string) {
	return nil, "payment verification is not enabled on this server; the payment was not accepted and nothing was charged"
}

func (ChallengeOnly) Settle(context.Context, *Payment) (x402.SettlementResponse, error) {
	return x402.SettlementResponse{}, errors.New("payments are not enabled")
}

// NonceStore is what the payment gates need of the store.
type NonceStore = exact.NonceStore

// NewGate builds the gate cfg.Facilitator asks for: nil (the x402
// challenge only) when it is empty, the local facilitator for "local", and
// an HTTP facilitator client for a URL. Both record nonces in nonces.
func NewGate(cfg config.Config, nonces NonceStore, clock entrycheck.Clock) (Gate, error) {
	switch f := cfg.Facilitator; {
	case f == "":
		return nil, nil
	case f == config.FacilitatorLocal:
		lf := &exact.LocalFacilitator{Nonces: nonces}
		if clock != nil {
			lf.Now = clock.Now
		}
		return &X402Gate{Facilitator: lf, Clock: clock}, nil
	default:
		if err := config.CheckFacilitatorURL(f); err != nil {
			return nil, err
		}
		return &X402Gate{Facilitator: &HTTPFacilitator{URL: f, Nonces: nonces, Clock: clock}, Clock: clock}, nil
	}
}
