package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// price returns what the paid endpoint at path costs: the prices published
// in the discovery documents, from one table and the configuration.
func (s *Server) price(path string) discovery.Price {
	for _, p := range discovery.PricesOf(s.cfg.Prices) {
		if p.Path == path {
			return p
		}
	}
	panic("api: no price for " + path) // a route without a price is a programming error
}

// maxTimeoutSeconds is how long a client has to complete a payment.
const maxTimeoutSeconds = 120

// PaymentGate is the seam between the paid answers and the payment
// protocol: it decides whether a payment the client sent is acceptable for
// what was offered, and settles it once the answer is ready. No settlement,
// no answer. It is transport-neutral: the HTTP endpoints take the
// PaymentPayload from the PAYMENT-SIGNATURE header, the MCP tools from the
// call's _meta["x402/payment"] (x402 transports-v2/mcp.md), so one gate
// serves both.
type PaymentGate interface {
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
}

// challengeOnly is the gate while no payment verification is configured:
// every payment is refused, so every paid request gets the offer.
type challengeOnly struct{ cfg config.Config }

func (challengeOnly) Authorize(context.Context, x402.PaymentPayload, x402.PaymentRequired) (*Payment, string) {
	return nil, "payment verification is not enabled on this server; the payment was not accepted and nothing was charged"
}

func (challengeOnly) Settle(context.Context, *Payment) (x402.SettlementResponse, error) {
	return x402.SettlementResponse{}, errors.New("payments are not enabled")
}

// offer builds the x402 payment requirements of the priced resource at resourceURL.
func (s *Server) offer(resourceURL string, p discovery.Price) (x402.PaymentRequired, error) {
	amount, err := x402.AtomicUSDC(p.USD)
	if err != nil {
		return x402.PaymentRequired{}, err
	}
	return x402.PaymentRequired{
		X402Version: x402.Version,
		Resource:    x402.ResourceInfo{URL: resourceURL, Description: p.Description + " (" + p.USD + " USD)", MimeType: "application/json"},
		Accepts:     []x402.PaymentRequirements{x402.ExactUSDC(amount, s.cfg.PayTo, maxTimeoutSeconds)},
	}, nil
}

// authorizeHeader reads the PAYMENT-SIGNATURE header of an HTTP request and
// asks the gate. A missing or undecodable header is refused here, with a
// reason that says how to send it.
func (s *Server) authorizeHeader(r *http.Request, offer x402.PaymentRequired) (*Payment, string) {
	h := r.Header.Get(x402.HeaderPaymentSignature)
	if h == "" {
		return nil, x402.HeaderPaymentSignature + " header is required"
	}
	var payload x402.PaymentPayload
	if err := x402.Decode(h, &payload); err != nil {
		return nil, x402.HeaderPaymentSignature + " must be the base64-encoded JSON PaymentPayload of x402 version 2"
	}
	return s.payments.Authorize(r.Context(), payload, offer)
}

// errSettlementUnavailable is a settlement that could not be attempted: the
// store that records nonces or the facilitator did not answer. The caller
// is told to retry; the cause is logged, never sent.
var errSettlementUnavailable = errors.New("settlement unavailable")

// settle settles an authorized payment and counts the paid call. When the
// payment is refused it returns the reason to send back with the offer; the
// receipt may still name the network and transaction that failed. When the
// settlement could not be attempted it returns errSettlementUnavailable.
func (s *Server) settle(ctx context.Context, payment *Payment) (x402.SettlementResponse, string, error) {
	receipt, err := s.payments.Settle(ctx, payment)
	if err != nil && exact.ReasonOf(err) == "" {
		s.log.WarnContext(ctx, "settling a payment", "request_id", request.IDFrom(ctx), "error", err)
		return receipt, "", errSettlementUnavailable
	}
	if err != nil || !receipt.Success {
		return receipt, "settlement failed, nothing was charged and nothing is served: " + settleReason(receipt, err), nil
	}
	s.metrics.paidCalls.Inc()
	dayKey, _ := quota.Day(s.clock.Now())
	if err := s.store.AddCounter(ctx, dayKey, quota.CounterPaidCalls, 1); err != nil {
		s.log.WarnContext(ctx, "counting a paid call", "request_id", request.IDFrom(ctx), "error", err)
	}
	return receipt, "", nil
}

// paymentRequired is the body of a 402 answer: the x402 PaymentRequired
// object, plus the service's machine code and request id.
type paymentRequired struct {
	x402.PaymentRequired
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
}

// headNeverCharged is the reason a HEAD with a valid payment gets the offer.
const headNeverCharged = "this payment is valid, but HEAD carries no answer and is never charged: send it with GET; nothing was charged"

// paid wraps the answer of a paid endpoint: invalid requests are refused
// before any payment (nobody pays for a 400), then the payment is authorized,
// the answer computed, the payment settled, and only then the answer sent.
// Paid endpoints are never rate limited and use no free quota. HEAD gets
// the status and headers of an unpaid GET (400, 503 or the 402 offer) and
// settles nothing.
func (s *Server) paid(path string, answer func(r *http.Request) (any, error)) http.HandlerFunc {
	p := s.price(path)
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.PayTo == "" {
			response.Fail(w, r, http.StatusServiceUnavailable, response.CodePaymentsOff, "this server has no payment address configured (ENTRYCHECK_PAY_TO); use /free/check")
			return
		}
		res, err := answer(r)
		if err != nil {
			response.Error(s.log, w, r, err)
			return
		}
		offer, err := s.offer(s.cfg.BaseURL+r.URL.RequestURI(), p)
		if err != nil {
			response.Error(s.log, w, r, err)
			return
		}
		payment, reason := s.authorizeHeader(r, offer)
		if payment != nil && r.Method == http.MethodHead {
			// A HEAD carries no answer, so it is never charged: it gets
			// the offer GET would, and a payment is only checked.
			payment, reason = nil, headNeverCharged
		}
		if payment == nil {
			offer.Error = reason
			header, err := x402.Encode(offer)
			if err != nil {
				response.Error(s.log, w, r, err)
				return
			}
			w.Header().Set(x402.HeaderPaymentRequired, header)
			response.Write(w, http.StatusPaymentRequired, paymentRequired{PaymentRequired: offer, Code: response.CodePaymentRequired, RequestID: request.ID(r)})
			return
		}
		receipt, failure, err := s.settle(r.Context(), payment)
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
			response.Write(w, http.StatusPaymentRequired, paymentRequired{PaymentRequired: offer, Code: response.CodePaymentRequired, RequestID: request.ID(r)})
			return
		}
		header, err := x402.Encode(receipt)
		if err != nil {
			response.Error(s.log, w, r, err)
			return
		}
		w.Header().Set(x402.HeaderPaymentResponse, header)
		response.JSON(w, http.StatusOK, withReceipt(res, receipt), response.CacheNone)
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
