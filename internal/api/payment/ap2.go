package payment

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The HTTP headers of AP2 on the paid routes. A 402 carries the Checkout
// JWT in AP2-Checkout; a paid retry may carry, beside PAYMENT-SIGNATURE,
// the closed Checkout Mandate and closed Payment Mandate; the 200 answer
// carries the signed receipts.
const (
	HeaderAP2Checkout        = "AP2-Checkout"
	HeaderAP2CheckoutMandate = "AP2-Checkout-Mandate"
	HeaderAP2PaymentMandate  = "AP2-Payment-Mandate"
	HeaderAP2CheckoutReceipt = "AP2-Checkout-Receipt"
	HeaderAP2PaymentReceipt  = "AP2-Payment-Receipt"
)

// CodeAP2Refused is the code of a 402 whose AP2 mandates were refused;
// the failed check is in ap2.check and starts the error.
const CodeAP2Refused = "ap2_mandate_refused"

// CheckAP2Off is the check of mandates sent while the server has no AP2
// merchant (its key or trusted keys could not be read).
const CheckAP2Off = "ap2_disabled"

// Mandates are the closed AP2 mandates a paid request carries, each an
// SD-JWT or a chain of SD-JWTs; both empty when it carries none.
type Mandates struct {
	Checkout, Payment string
}

// MandatesFrom reads the AP2 mandate headers of a request.
func MandatesFrom(h http.Header) Mandates {
	return Mandates{Checkout: strings.TrimSpace(h.Get(HeaderAP2CheckoutMandate)), Payment: strings.TrimSpace(h.Get(HeaderAP2PaymentMandate))}
}

// MandatesIn reads the mandates a transport carries in a metadata object
// (MCP's _meta, A2A's message metadata) under its two keys. A mandate that
// is not a string is passed on as text that does not parse, so that it is
// refused as malformed rather than the payment going through without it.
func MandatesIn(meta map[string]any, checkoutKey, paymentKey string) Mandates {
	read := func(key string) string {
		switch v := meta[key].(type) {
		case nil:
			return ""
		case string:
			return strings.TrimSpace(v)
		default:
			return fmt.Sprint(v)
		}
	}
	return Mandates{Checkout: read(checkoutKey), Payment: read(paymentKey)}
}

// Present reports whether any mandate was sent: then AP2 applies.
func (m Mandates) Present() bool { return m.Checkout != "" || m.Payment != "" }

// AP2Required is the ap2 field of a 402 answer: the Checkout JWT and what
// the mandates must say, and when mandates were refused, the failed check
// and the error Checkout Receipt.
type AP2Required struct {
	*ap2.Offer
	Check           string `json:"check,omitempty" jsonschema:"The failed check of refused mandates."`
	CheckoutReceipt string `json:"checkout_receipt,omitempty" jsonschema:"The error Checkout Receipt JWT of refused mandates."`
}

// AP2Receipts is the ap2 field of a paid answer: the signed receipts.
type AP2Receipts struct {
	CheckoutReceipt string `json:"checkout_receipt"`
	PaymentReceipt  string `json:"payment_receipt"`
}

// Checkout returns the AP2 offer of a paid resource, or nil when AP2 is
// off or the price cannot be stated in cents. It is sent with every offer.
func (c *Cashier) Checkout(offer x402.PaymentRequired, p discovery.Price) *ap2.Offer {
	if c.Merchant == nil || len(offer.Accepts) == 0 {
		return nil
	}
	o, err := c.Merchant.Checkout(ap2.Sale{ItemID: p.Name, Title: p.Description, Resource: offer.Resource.URL, Pay: offer.Accepts[0]})
	if err != nil {
		return nil
	}
	return &o
}

// offerCheckout signs the Checkout JWT of a 402 answer and sets its header.
func (c *Cashier) offerCheckout(w http.ResponseWriter, offer x402.PaymentRequired, p discovery.Price) *ap2.Offer {
	checkout := c.Checkout(offer, p)
	if checkout != nil {
		w.Header().Set(HeaderAP2Checkout, checkout.CheckoutJWT)
	}
	return checkout
}

// AuthorizeWithMandates authorizes an x402 payment as the gate does and,
// when mandates are present, verifies them against it and records their
// use, before anything is settled. Transport-neutral: the REST routes read
// the mandates from headers, other transports from their own fields. It
// returns the payment to settle and, when mandates were accepted, what the
// receipts are made of; or the reason the offer still stands and, for a
// mandate refused, the refusal.
//
// A payment already settled for this resource and still valid is a retry
// whose answer was lost, as with an idempotency key: it is authorized
// again with its earlier receipts (Payment.Earlier), its mandates are not
// checked again, and Settle charges nothing.
func (c *Cashier) AuthorizeWithMandates(ctx context.Context, payload x402.PaymentPayload, offer x402.PaymentRequired, mandates Mandates) (*Payment, *ap2.Accepted, string, *ap2.Refusal) {
	payment, reason := c.Gate.Authorize(ctx, payload, offer)
	if payment == nil {
		return nil, nil, reason, nil
	}
	payment.Resource = offer.Resource.URL
	if payment.Earlier = c.earlier(ctx, payment, payment.Resource); payment.Earlier != nil || !mandates.Present() {
		return payment, nil, "", nil
	}
	accepted, refusal := c.verifyMandates(ctx, mandates, payment, offer.Resource.URL)
	if refusal != nil {
		return nil, nil, refusalReason(refusal), refusal
	}
	return payment, accepted, "", nil
}

func (c *Cashier) verifyMandates(ctx context.Context, m Mandates, p *Payment, resource string) (*ap2.Accepted, *ap2.Refusal) {
	if c.Merchant == nil {
		return nil, &ap2.Refusal{Check: CheckAP2Off, Message: "this server does not accept AP2 mandates"}
	}
	return c.Merchant.Verify(ctx, m.Checkout, m.Payment, ap2.Payment{Resource: resource, Accepted: p.Accepted})
}

func refusalReason(r *ap2.Refusal) string {
	return r.Check + ": AP2 mandate refused, " + r.Message + "; nothing was charged"
}

// receipts signs the AP2 receipts of accepted mandates whose payment
// settled. It returns nil when no mandates were accepted, or when signing
// failed: the answer is paid for and is served without them, and the
// failure is logged.
func (c *Cashier) receipts(ctx context.Context, accepted *ap2.Accepted, settled x402.SettlementResponse) *AP2Receipts {
	if accepted == nil || c.Merchant == nil {
		return nil
	}
	co, pay, err := c.Merchant.Receipts(accepted, settled)
	if err != nil {
		c.Log.ErrorContext(ctx, "signing AP2 receipts", "request_id", request.IDFrom(ctx), "error", err)
		return nil
	}
	return &AP2Receipts{CheckoutReceipt: co, PaymentReceipt: pay}
}

// JWKS serves the service's AP2 public key.
func (c *Cashier) JWKS(w http.ResponseWriter, r *http.Request) {
	if c.Merchant == nil {
		response.Fail(w, r, http.StatusNotFound, response.CodeNotFound, "AP2 is not enabled on this server")
		return
	}
	response.AllowAnyOrigin(w.Header(), response.CORSExposeHeaders)
	w.Header().Set("Content-Type", discovery.MediaTypeJWKS)
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(c.Merchant.JWKS())
}

// required is the 402 body of offer with its AP2 part.
func (c *Cashier) required(r *http.Request, offer x402.PaymentRequired, checkout *ap2.Offer, refusal *ap2.Refusal) Required {
	return c.Required(request.ID(r), offer, checkout, MandatesFrom(r.Header), refusal)
}

// Required is the body of a payment-required answer on any transport:
// the offer with its AP2 part and, when mandates were refused, the failed
// check and the error Checkout Receipt of the Checkout Mandate m carried.
func (c *Cashier) Required(requestID string, offer x402.PaymentRequired, checkout *ap2.Offer, m Mandates, refusal *ap2.Refusal) Required {
	body := Required{PaymentRequired: offer, Code: response.CodePaymentRequired, RequestID: requestID}
	if checkout != nil {
		body.AP2 = &AP2Required{Offer: checkout}
	}
	if refusal != nil {
		body.Code = CodeAP2Refused
		if body.AP2 == nil {
			body.AP2 = &AP2Required{}
		}
		body.AP2.Check = refusal.Check
		body.AP2.CheckoutReceipt = c.RefusalReceipt(m, refusal)
	}
	return body
}

// RefusalReceipt is the error Checkout Receipt of refused mandates, or ""
// when AP2 is off or the Checkout Mandate cannot be read far enough to
// hash.
func (c *Cashier) RefusalReceipt(m Mandates, refusal *ap2.Refusal) string {
	if c.Merchant == nil {
		return ""
	}
	return c.Merchant.RefusalReceipt(m.Checkout, refusal)
}
