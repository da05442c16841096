package payment

import (
	"encoding/json"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// headNeverCharged is the reason a HEAD with a valid payment gets the offer.
const headNeverCharged = "this payment is valid, but HEAD carries no answer and is never charged: send it with GET; nothing was charged"

// Paid wraps the answer of a paid endpoint: invalid requests are refused
// before any payment (nobody pays for a 400), also where payments are not
// configured (a 503), then the payment is authorized,
// the answer computed, the payment settled, and only then the answer sent.
// Paid endpoints are never rate limited and use no free quota. HEAD gets
// the status and headers of an unpaid GET (400, 503 or the 402 offer) and
// settles nothing.
func (c *Cashier) Paid(path string, answer func(r *http.Request) (any, error)) http.HandlerFunc {
	p := c.Price(path)
	return func(w http.ResponseWriter, r *http.Request) {
		res, err := answer(r)
		if err != nil {
			response.Error(c.Log, w, r, err)
			return
		}
		if c.PayTo == "" {
			response.Fail(w, r, http.StatusServiceUnavailable, response.CodePaymentsOff, "this server has no payment address configured (ENTRYCHECK_PAY_TO); use /free/check")
			return
		}
		offer, err := c.Offer(c.BaseURL+r.URL.RequestURI(), p)
		if err != nil {
			response.Error(c.Log, w, r, err)
			return
		}
		// AP2 mandates are verified, and their use recorded, before the
		// payment is settled: a refused mandate charges nothing.
		payment, accepted, reason, refusal := c.authorizeHeader(r, offer)
		if refusal != nil && refusal.Check == ap2.CheckStoreUnavailable {
			response.Unavailable(w, r, "AP2 mandates cannot be recorded right now; nothing was charged: retry in a minute with new mandates and a new payment")
			return
		}
		if payment != nil && r.Method == http.MethodHead {
			// A HEAD carries no answer, so it is never charged: it gets
			// the offer GET would, and a payment is only checked.
			payment, reason = nil, headNeverCharged
		}
		if payment == nil {
			offer.Error = reason
			header, err := x402.Encode(offer)
			if err != nil {
				response.Error(c.Log, w, r, err)
				return
			}
			w.Header().Set(x402.HeaderPaymentRequired, header)
			checkout := c.offerCheckout(w, offer, p)
			response.Write(w, http.StatusPaymentRequired, c.required(r, offer, checkout, refusal))
			return
		}
		settled, failure, err := c.Settle(r.Context(), payment, accepted)
		receipt := settled.Receipt
		if err != nil {
			response.Unavailable(w, r, "payments cannot be settled right now; nothing was charged: sign a new payment and retry in a minute")
			return
		}
		if failure != "" {
			offer.Error = failure
			header, _ := x402.Encode(offer)
			w.Header().Set(x402.HeaderPaymentRequired, header)
			if h, err := x402.Encode(receipt); err == nil && receipt.Network != "" {
				w.Header().Set(x402.HeaderPaymentResponse, h)
			}
			checkout := c.offerCheckout(w, offer, p)
			response.Write(w, http.StatusPaymentRequired, c.required(r, offer, checkout, nil))
			return
		}
		header, err := x402.Encode(receipt)
		if err != nil {
			response.Error(c.Log, w, r, err)
			return
		}
		w.Header().Set(x402.HeaderPaymentResponse, header)
		body := withReceipt(res, receipt)
		if receipts := settled.AP2; receipts != nil {
			w.Header().Set(HeaderAP2CheckoutReceipt, receipts.CheckoutReceipt)
			w.Header().Set(HeaderAP2PaymentReceipt, receipts.PaymentReceipt)
			body = withField(body, "ap2", receipts)
		}
		response.JSON(w, http.StatusOK, body, response.CacheNone)
	}
}

func settleReason(r x402.SettlementResponse, err error) string {
	if err != nil {
		return err.Error()
	}
	if r.ErrorReason != "" {
		return r.ErrorReason
	}
	return "the facilitator did not confirm the payment"
}

// withField adds name: v to a body withReceipt made.
func withField(body any, name string, v any) any {
	m, ok := body.(map[string]json.RawMessage)
	if !ok {
		return body
	}
	b, err := json.Marshal(v)
	if err != nil {
		return body
	}
	m[name] = b
	return m
}

// PaidFields are the fields a paid answer carries beside its own: the
// settlement (withReceipt) and, when mandates were accepted, the AP2
// receipts (withField).
type PaidFields struct {
	Payment x402.SettlementResponse `json:"payment"`
	AP2     *AP2Receipts            `json:"ap2,omitempty"`
}

// withReceipt echoes the settlement in the body under "payment", beside the answer's own fields.
func withReceipt(answer any, receipt x402.SettlementResponse) any {
	b, err := json.Marshal(answer)
	if err != nil {
		return answer
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return answer
	}
	r, _ := json.Marshal(receipt)
	m["payment"] = r
	return m
}
