package payment

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// Facilitator settles a verified x402 payment: exact.LocalFacilitator
// (development, nothing on-chain) or HTTPFacilitator (a remote x402
// facilitator). A refused payment returns an unsuccessful response with
// its reason and an error.
type Facilitator interface {
	Settle(ctx context.Context, payload x402.PaymentPayload, req x402.PaymentRequirements) (x402.SettlementResponse, error)
}

// X402Gate is the Gate of the exact EVM scheme: Authorize verifies
// the signed EIP-3009 authorization against the offer (exact.Verify, no
// chain access), Settle hands it to the Facilitator.
type X402Gate struct {
	Facilitator Facilitator
	// Clock is the time authorizations are checked at; nil means the wall clock.
	Clock entrycheck.Clock
}

// Authorize implements Gate.
func (g *X402Gate) Authorize(_ context.Context, payload x402.PaymentPayload, offer x402.PaymentRequired) (*Payment, string) {
	if len(offer.Accepts) == 0 {
		return nil, "this resource offers no way to pay"
	}
	// A payload that names its resource must name this one: a payment is
	// single-use (its nonce) and priced per resource, and a client that
	// echoes another resource's offer is paying for something else. The
	// signature does not cover the resource, so this binds honest clients
	// only; the nonce is what bounds every payment to one answer. The URLs
	// are compared as resources (SameResource), so that a client that
	// rebuilt the URL in another order or letter case is not refused.
	if pr := payload.Resource; pr != nil && pr.URL != "" && !SameResource(pr.URL, offer.Resource.URL) {
		return nil, "this payment was made for " + pr.URL + ", not for " + offer.Resource.URL + "; nothing was charged: pay this resource's own offer (its 402 answer)"
	}
	// The requirement the client accepted; when none matches, the first
	// offered one, so that Verify names the field that differs.
	req := offer.Accepts[0]
	for _, o := range offer.Accepts {
		a := payload.Accepted
		if a.Scheme == o.Scheme && a.Network == o.Network && strings.EqualFold(a.Asset, o.Asset) &&
			strings.EqualFold(a.PayTo, o.PayTo) && a.Amount == o.Amount {
			req = o
			break
		}
	}
	now := time.Now()
	if g.Clock != nil {
		now = g.Clock.Now()
	}
	auth, err := exact.Verify(payload, req, now)
	if err != nil {
		return nil, refusal(err)
	}
	return &Payment{Payload: payload, Accepted: req, Payer: auth.From.Hex(), Auth: auth}, ""
}

// refusal is the error text of a refused payment: the machine reason, what
// was wrong, and that nothing was charged.
func refusal(err error) string {
	var e *exact.Error
	if errors.As(err, &e) {
		return "payment refused (" + e.Reason + "): " + e.Message + "; nothing was charged"
	}
	return "payment refused: " + err.Error() + "; nothing was charged"
}

// Settle implements Gate.
func (g *X402Gate) Settle(ctx context.Context, p *Payment) (x402.SettlementResponse, error) {
	if g.Facilitator == nil {
		return x402.SettlementResponse{}, errors.New("no facilitator is configured")
	}
	r, err := g.Facilitator.Settle(ctx, p.Payload, p.Accepted)
	if err != nil && r.ErrorReason == "" {
		r.ErrorReason = exact.ReasonOf(err)
	}
	return r, err
}
