package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// price returns what the paid endpoint at path costs: the prices published
// in the discovery documents, from one table.
func price(path string) discovery.Price {
	for _, p := range discovery.DefaultPrices() {
		if p.Path == path {
			return p
		}
	}
	panic("api: no price for " + path) // a route without a price is a programming error
}

// maxTimeoutSeconds is how long a client has to complete a payment.
const maxTimeoutSeconds = 120

// PaymentGate is the seam between the paid endpoints and the payment
// protocol: it decides whether a request carries an acceptable payment for
// what was offered, and settles it once the answer is ready. No settlement,
// no answer.
type PaymentGate interface {
	// Authorize checks the request's payment against the offer. It returns
	// the payment to settle, or a reason why the offer still stands (sent
	// with 402).
	Authorize(r *http.Request, offer x402.PaymentRequired) (*Payment, string)
	// Settle settles an authorized payment. An error means nothing is served.
	Settle(ctx context.Context, p *Payment) (x402.SettlementResponse, error)
}

// Payment is an authorized payment awaiting settlement.
type Payment struct {
	Payload  x402.PaymentPayload
	Accepted x402.PaymentRequirements
	Payer    string
}

// challengeOnly is the gate while no payment verification is configured:
// every paid request gets the 402 offer.
type challengeOnly struct{ cfg config.Config }

func (challengeOnly) Authorize(r *http.Request, offer x402.PaymentRequired) (*Payment, string) {
	if r.Header.Get(x402.HeaderPaymentSignature) != "" {
		return nil, "payment verification is not enabled on this server; the payment was not accepted and nothing was charged"
	}
	return nil, x402.HeaderPaymentSignature + " header is required"
}

func (challengeOnly) Settle(context.Context, *Payment) (x402.SettlementResponse, error) {
	return x402.SettlementResponse{}, errors.New("payments are not enabled")
}

// offer builds the x402 payment requirements of a priced request.
func (s *Server) offer(r *http.Request, p discovery.Price) (x402.PaymentRequired, error) {
	amount, err := x402.AtomicUSDC(p.USD)
	if err != nil {
		return x402.PaymentRequired{}, err
	}
	return x402.PaymentRequired{
		X402Version: x402.Version,
		Resource:    x402.ResourceInfo{URL: s.cfg.BaseURL + r.URL.RequestURI(), Description: p.Description + " (" + p.USD + " USD)", MimeType: "application/json"},
		Accepts:     []x402.PaymentRequirements{x402.ExactUSDC(amount, s.cfg.PayTo, maxTimeoutSeconds)},
	}, nil
}

// paymentRequired is the body of a 402 answer: the x402 PaymentRequired
// object, plus the service's machine code and request id.
type paymentRequired struct {
	x402.PaymentRequired
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
}

// paid wraps the answer of a paid endpoint: invalid requests are refused
// before any payment (nobody pays for a 400), then the payment is authorized,
// the answer computed, the payment settled, and only then the answer sent.
// Paid endpoints are never rate limited and use no free quota.
func (s *Server) paid(path string, answer func(r *http.Request) (any, error)) http.HandlerFunc {
	p := price(path)
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.PayTo == "" {
			s.fail(w, r, http.StatusServiceUnavailable, codePaymentsOff, "this server has no payment address configured (ENTRYCHECK_PAY_TO); use /free/check")
			return
		}
		res, err := answer(r)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		offer, err := s.offer(r, p)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		payment, reason := s.payments.Authorize(r, offer)
		if payment == nil {
			offer.Error = reason
			header, err := x402.Encode(offer)
			if err != nil {
				s.failErr(w, r, err)
				return
			}
			w.Header().Set(x402.HeaderPaymentRequired, header)
			writeJSON(w, http.StatusPaymentRequired, paymentRequired{PaymentRequired: offer, Code: codePaymentRequired, RequestID: requestIDOf(r)})
			return
		}
		receipt, err := s.payments.Settle(r.Context(), payment)
		if err != nil || !receipt.Success {
			offer.Error = "settlement failed, nothing was charged and nothing is served: " + settleReason(receipt, err)
			header, _ := x402.Encode(offer)
			w.Header().Set(x402.HeaderPaymentRequired, header)
			if h, err := x402.Encode(receipt); err == nil && receipt.Network != "" {
				w.Header().Set(x402.HeaderPaymentResponse, h)
			}
			writeJSON(w, http.StatusPaymentRequired, paymentRequired{PaymentRequired: offer, Code: codePaymentRequired, RequestID: requestIDOf(r)})
			return
		}
		header, err := x402.Encode(receipt)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		s.metrics.paidCalls.Inc()
		dayKey, _ := day(s.clock.Now())
		if err := s.store.AddCounter(r.Context(), dayKey, counterPaidCalls, 1); err != nil {
			s.log.WarnContext(r.Context(), "counting a paid call", "request_id", requestIDOf(r), "error", err)
		}
		w.Header().Set(x402.HeaderPaymentResponse, header)
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusOK, withReceipt(res, receipt))
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
