package payment

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
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

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
	k := auth.Key()
	fresh, err := f.Nonces.UseNonce(ctx, k.Network, k.Asset, k.From, k.Nonce)
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
