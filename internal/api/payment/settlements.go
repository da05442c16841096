package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// Settled is what a settled payment's answer carries: the x402 receipt
// and, when AP2 mandates were accepted, the signed AP2 receipts.
type Settled struct {
	Receipt x402.SettlementResponse `json:"receipt"`
	AP2     *AP2Receipts            `json:"ap2,omitempty"`
}

// Settlements keeps the receipts of settled payments, so that a retry of
// a payment whose answer was lost is answered again (see
// Cashier.AuthorizeWithMandates). *store.Store implements it.
type Settlements interface {
	RecordSettlement(ctx context.Context, s store.Settlement) error
	Settlement(ctx context.Context, network, asset, payer, nonce string, now time.Time) (store.Settlement, error)
}

// keepSettlements bounds how long a settled payment can be retried for
// its answer, whatever validity the client signed: a retry comes within
// seconds of a lost answer, and an idempotency key is commonly kept a day.
const keepSettlements = 24 * time.Hour

// settlementOf is the kept settlement of p, for resource.
func settlementOf(p *Payment, resource string, settled Settled, now time.Time) (store.Settlement, error) {
	receipts, err := json.Marshal(settled)
	if err != nil {
		return store.Settlement{}, err
	}
	k := p.Auth.Key()
	expires := now.Add(keepSettlements)
	if vb := p.Auth.ValidBefore; vb != nil && vb.IsInt64() && vb.Int64() < expires.Unix() {
		expires = time.Unix(vb.Int64(), 0)
	}
	return store.Settlement{
		Network: k.Network, Asset: k.Asset, Payer: k.From, Nonce: k.Nonce,
		PaymentHash: paymentHash(p), Resource: ownPart(resource), Receipts: string(receipts), SettledAt: now, ExpiresAt: expires,
	}, nil
}

// ownPart is the path and query of a resource URL of this service: what
// was paid for, whichever base URL the service had when it was paid (an
// operator may change it between a payment and its retry).
func ownPart(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return resource
	}
	return u.RequestURI()
}

// paymentHash names the signed authorization: a retry must carry the same
// signature, not merely the same nonce.
func paymentHash(p *Payment) string {
	h := sha256.Sum256(p.Auth.Signature)
	return hex.EncodeToString(h[:])
}

// remember keeps the receipts of p, settled for resource. A failure is
// logged: the payment is settled and its answer is served, only a retry of
// it would not be answered again.
func (c *Cashier) remember(ctx context.Context, p *Payment, resource string, settled Settled) {
	if c.Settlements == nil || p.Auth.Signature == nil {
		return
	}
	st, err := settlementOf(p, resource, settled, c.Clock.Now())
	if err == nil {
		err = c.Settlements.RecordSettlement(ctx, st)
	}
	if err != nil {
		c.Log.ErrorContext(ctx, "keeping the receipts of a settled payment: a retry of it will be refused as a replay",
			"request_id", request.IDFrom(ctx), "error", err)
	}
}

// earlier returns the receipts of p when it was settled before, for the
// same resource, and is retried within its validity: its answer was lost,
// and it is answered again without being settled again. The same nonce in
// another signed payment, or the same payment for another resource, is
// not a retry: it goes on to be refused as a replay.
func (c *Cashier) earlier(ctx context.Context, p *Payment, resource string) *Settled {
	if c.Settlements == nil || p.Auth.Signature == nil {
		return nil
	}
	k := p.Auth.Key()
	st, err := c.Settlements.Settlement(ctx, k.Network, k.Asset, k.From, k.Nonce, c.Clock.Now())
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			c.Log.WarnContext(ctx, "reading the receipts of a settled payment", "request_id", request.IDFrom(ctx), "error", err)
		}
		return nil
	}
	if st.PaymentHash != paymentHash(p) || !SameResource(st.Resource, ownPart(resource)) {
		return nil
	}
	var settled Settled
	if err := json.Unmarshal([]byte(st.Receipts), &settled); err != nil {
		c.Log.ErrorContext(ctx, "reading the receipts of a settled payment", "request_id", request.IDFrom(ctx), "error", err)
		return nil
	}
	c.Log.InfoContext(ctx, "a settled payment was sent again: answered again with its receipts, nothing charged",
		"request_id", request.IDFrom(ctx), "settled_at", st.SettledAt.Format(time.RFC3339))
	return &settled
}
