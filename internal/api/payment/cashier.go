package payment

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/faultpoint"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// Cashier offers the paid answers at their prices and settles their
// payments through the gate.
type Cashier struct {
	Gate Gate
	// PayTo is the address paid to; empty, nothing can be paid for.
	PayTo string
	// BaseURL is the configured public address, which names the paid
	// resources.
	BaseURL string
	Prices  config.Prices
	Clock   entrycheck.Clock
	Log     *slog.Logger
	// Counters records the day's settled calls.
	Counters interface {
		AddCounter(ctx context.Context, day, name string, delta int64) error
	}
	// PaidCalls counts the settled calls.
	PaidCalls prometheus.Counter
	// Merchant is the AP2 merchant role: Checkout JWTs in the offers,
	// mandates verified before settlement, receipts after. Nil: AP2 off.
	Merchant *ap2.Merchant
	// Settlements keeps the receipts of settled payments, so that a
	// payment sent again after its answer was lost is answered again
	// without being charged twice. Nil: such a retry is refused as a
	// replay.
	Settlements Settlements
}

// Price returns what the paid endpoint at path costs: the prices published
// in the discovery documents, from one table and the configuration.
func (c *Cashier) Price(path string) discovery.Price {
	for _, p := range discovery.PricesOf(c.Prices) {
		if p.Path == path {
			return p
		}
	}
	panic("payment: no price for " + path) // a route without a price is a programming error
}

// maxTimeoutSeconds is how long a client has to complete a payment.
const maxTimeoutSeconds = 120

// Offer builds the x402 payment requirements of the priced resource at resourceURL.
func (c *Cashier) Offer(resourceURL string, p discovery.Price) (x402.PaymentRequired, error) {
	amount, err := x402.AtomicUSDC(p.USD)
	if err != nil {
		return x402.PaymentRequired{}, err
	}
	return x402.PaymentRequired{
		X402Version: x402.Version,
		Resource:    x402.ResourceInfo{URL: resourceURL, Description: p.Description + " (" + p.USD + " USD)", MimeType: "application/json"},
		Accepts:     []x402.PaymentRequirements{x402.ExactUSDC(amount, c.PayTo, maxTimeoutSeconds)},
	}, nil
}

// authorizeHeader reads the PAYMENT-SIGNATURE header of an HTTP request,
// and the AP2 mandate headers unless it is a HEAD (which settles nothing,
// so records no mandate), and asks AuthorizeWithMandates. A missing or
// undecodable header is refused here, with a reason that says how to send it.
func (c *Cashier) authorizeHeader(r *http.Request, offer x402.PaymentRequired) (*Payment, *ap2.Accepted, string, *ap2.Refusal) {
	h := r.Header.Get(x402.HeaderPaymentSignature)
	if h == "" {
		return nil, nil, x402.HeaderPaymentSignature + " header is required", nil
	}
	var payload x402.PaymentPayload
	if err := x402.Decode(h, &payload); err != nil {
		return nil, nil, x402.HeaderPaymentSignature + " must be the base64-encoded JSON PaymentPayload of x402 version 2", nil
	}
	var mandates Mandates
	if r.Method != http.MethodHead {
		mandates = MandatesFrom(r.Header)
	}
	return c.AuthorizeWithMandates(r.Context(), payload, offer, mandates)
}

// ErrSettlementUnavailable is a settlement that could not be attempted: the
// store that records nonces or the facilitator did not answer. The caller
// is told to retry; the cause is logged, never sent.
var ErrSettlementUnavailable = errors.New("settlement unavailable")

// Settle settles an authorized payment, signs the AP2 receipts of the
// mandates accepted with it (nil for none), keeps the receipts for a retry
// and counts the paid call. A payment settled before (Payment.Earlier)
// gets its receipts again, and nothing is settled or counted. When the
// payment is refused it returns the reason to send back with the offer;
// the receipt may still name the network and transaction that failed.
// When the settlement could not be attempted it returns
// ErrSettlementUnavailable.
func (c *Cashier) Settle(ctx context.Context, payment *Payment, accepted *ap2.Accepted) (Settled, string, error) {
	if payment.Earlier != nil {
		return *payment.Earlier, "", nil
	}
	receipt, err := c.Gate.Settle(ctx, payment)
	if err != nil && exact.ReasonOf(err) == "" {
		c.Log.WarnContext(ctx, "settling a payment", "request_id", request.IDFrom(ctx), "error", err)
		return Settled{Receipt: receipt}, "", ErrSettlementUnavailable
	}
	if err != nil || !receipt.Success {
		return Settled{Receipt: receipt}, "settlement failed, nothing was charged and nothing is served: " + settleReason(receipt, err), nil
	}
	settled := Settled{Receipt: receipt, AP2: c.receipts(ctx, accepted, receipt)}
	c.remember(ctx, payment, payment.Resource, settled)
	c.PaidCalls.Inc()
	dayKey, _ := quota.Day(c.Clock.Now())
	if err := c.Counters.AddCounter(ctx, dayKey, quota.CounterPaidCalls, 1); err != nil {
		c.Log.WarnContext(ctx, "counting a paid call", "request_id", request.IDFrom(ctx), "error", err)
	}
	faultpoint.Reach(faultpoint.AfterSettlement)
	return settled, "", nil
}

// Required is the body of a 402 answer: the x402 PaymentRequired
// object, plus the service's machine code and request id.
type Required struct {
	x402.PaymentRequired
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
	// AP2 is the AP2 offer (Checkout JWT) and, for refused mandates, the
	// failed check.
	AP2 *AP2Required `json:"ap2,omitempty"`
}
