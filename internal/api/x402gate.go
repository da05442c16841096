package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
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

// X402Gate is the PaymentGate of the exact EVM scheme: Authorize verifies
// the signed EIP-3009 authorization against the offer (exact.Verify, no
// chain access), Settle hands it to the Facilitator.
type X402Gate struct {
	Facilitator Facilitator
	// Clock is the time authorizations are checked at; nil means the wall clock.
	Clock entrycheck.Clock
}

// Authorize implements PaymentGate.
func (g *X402Gate) Authorize(_ context.Context, payload x402.PaymentPayload, offer x402.PaymentRequired) (*Payment, string) {
	if len(offer.Accepts) == 0 {
		return nil, "this resource offers no way to pay"
	}
	// A payload that names its resource must name this one: a payment is
	// single-use (its nonce) and priced per resource, and a client that
	// echoes another resource's offer is paying for something else. The
	// signature does not cover the resource, so this binds honest clients
	// only; the nonce is what bounds every payment to one answer.
	if pr := payload.Resource; pr != nil && pr.URL != "" && pr.URL != offer.Resource.URL {
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
	return &Payment{Payload: payload, Accepted: req, Payer: auth.From.Hex()}, ""
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

// Settle implements PaymentGate.
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

// facilitatorTimeout bounds each request to a remote facilitator.
const facilitatorTimeout = 10 * time.Second

// maxFacilitatorBody bounds a facilitator's answer.
const maxFacilitatorBody = 64 << 10

// HTTPFacilitator settles through a remote x402 facilitator (x402
// specification v2, section 7): POST {URL}/verify, then POST {URL}/settle,
// each with {x402Version, paymentPayload, paymentRequirements}. Before
// either it verifies the payment itself and records its nonce in Nonces, so
// a replayed authorization is refused here, across restarts, before the
// facilitator sees it. A nonce is used once even when the facilitator then
// fails: the client signs a new authorization to retry.
type HTTPFacilitator struct {
	URL    string
	Nonces exact.NonceStore
	// Client defaults to one with a facilitatorTimeout timeout.
	Client *http.Client
	// Clock defaults to the wall clock.
	Clock entrycheck.Clock
}

type facilitatorRequest struct {
	X402Version         int                      `json:"x402Version"`
	PaymentPayload      x402.PaymentPayload      `json:"paymentPayload"`
	PaymentRequirements x402.PaymentRequirements `json:"paymentRequirements"`
}

type verifyResponse struct {
	IsValid       bool   `json:"isValid"`
	InvalidReason string `json:"invalidReason"`
	Payer         string `json:"payer"`
}

// Settle implements Facilitator.
func (f *HTTPFacilitator) Settle(ctx context.Context, payload x402.PaymentPayload, req x402.PaymentRequirements) (x402.SettlementResponse, error) {
	failed := func(reason, payer string, err error) (x402.SettlementResponse, error) {
		return x402.SettlementResponse{Success: false, ErrorReason: reason, Payer: payer, Network: req.Network}, err
	}
	now := time.Now()
	if f.Clock != nil {
		now = f.Clock.Now()
	}
	auth, err := exact.Verify(payload, req, now)
	if err != nil {
		return failed(exact.ReasonOf(err), "", err)
	}
	payer := auth.From.Hex()
	if f.Nonces == nil {
		return x402.SettlementResponse{}, errors.New("the facilitator client has no nonce store")
	}
	fresh, err := f.Nonces.UseNonce(ctx, auth.Network, strings.ToLower(auth.Asset.Hex()), strings.ToLower(payer), auth.NonceHex())
	if err != nil {
		return x402.SettlementResponse{}, fmt.Errorf("recording the authorization nonce: %w", err)
	}
	if !fresh {
		return failed(exact.ReasonNonceAlreadyUsed, payer, &exact.Error{Reason: exact.ReasonNonceAlreadyUsed, Message: "this authorization was already used", Payer: payer})
	}
	body := facilitatorRequest{X402Version: x402.Version, PaymentPayload: payload, PaymentRequirements: req}

	var v verifyResponse
	if err := f.post(ctx, "/verify", body, &v); err != nil {
		return failed("unexpected_verify_error", payer, err)
	}
	if !v.IsValid {
		reason := v.InvalidReason
		if reason == "" {
			reason = "invalid_payment"
		}
		return failed(reason, payer, &exact.Error{Reason: reason, Message: "the facilitator refused the payment", Payer: payer})
	}
	var s x402.SettlementResponse
	if err := f.post(ctx, "/settle", body, &s); err != nil {
		return failed("unexpected_settle_error", payer, err)
	}
	if !s.Success {
		if s.ErrorReason == "" {
			s.ErrorReason = "unexpected_settle_error"
		}
		if s.Network == "" {
			s.Network = req.Network
		}
		return s, &exact.Error{Reason: s.ErrorReason, Message: "the facilitator did not settle the payment", Payer: payer}
	}
	if s.Payer == "" {
		s.Payer = payer
	}
	return s, nil
}

// post sends one facilitator request and decodes its JSON answer. The
// facilitator answers refusals with a JSON body too (often with status
// 400), so a body that decodes is believed whatever the status.
func (f *HTTPFacilitator) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, facilitatorTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(f.URL, "/")+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	c := f.Client
	if c == nil {
		c = &http.Client{Timeout: facilitatorTimeout}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("facilitator %s: %w", path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxFacilitatorBody))
	if err != nil {
		return fmt.Errorf("facilitator %s: %w", path, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("facilitator %s answered %d, not JSON: %.200s", path, resp.StatusCode, raw)
	}
	if resp.StatusCode >= 500 {
		return fmt.Errorf("facilitator %s answered %d", path, resp.StatusCode)
	}
	return nil
}

// NonceStore is what the payment gates need of the store.
type NonceStore = exact.NonceStore

// NewPaymentGate builds the gate cfg.Facilitator asks for: nil (the x402
// challenge only) when it is empty, the local facilitator for "local", and
// an HTTP facilitator client for a URL. Both record nonces in nonces.
func NewPaymentGate(cfg config.Config, nonces NonceStore, clock entrycheck.Clock) (PaymentGate, error) {
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
