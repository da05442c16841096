package a2aserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The paid skills follow x402's A2A transport (specs/transports-v2/a2a.md)
// and are settled exactly as the paid REST routes are: the cashier prices
// the REST route that gives the same answer and offers it; the gate
// authorizes the PaymentPayload (signature, amount, recipient, validity)
// and the cashier settles it (single-use nonce, facilitator) only once
// the answer is computed. One task, one offer, one payment: a task whose
// payment fails is failed, and a new payment needs a new task. AP2 rides
// beside x402 as on the REST routes: the offer carries the Checkout JWT,
// the payment message may carry the closed mandates, which the cashier
// verifies before settling, and the completed task carries the receipts.

// offer answers the first message of a paid skill: its arguments are
// validated by computing the answer (nobody pays for a refusal), then the
// task waits in input-required with the offer.
func (e *Endpoint) offer(ctx context.Context, rc *a2asrv.RequestContext, sk discovery.A2ASkill, resource string, compute func() (any, error)) *a2a.Task {
	if _, err := compute(); err != nil {
		return e.refused(ctx, rc, err)
	}
	if e.Cashier.PayTo == "" {
		return e.refused(ctx, rc, &response.StatusError{Code: response.CodePaymentsOff,
			Message: "this server has no payment address configured (ENTRYCHECK_PAY_TO), so " + sk.ID + " cannot be paid for; use the skill " + discovery.A2ASkillCheck})
	}
	if !activated(ctx) {
		return e.refused(ctx, rc, &response.StatusError{Code: response.CodePaymentRequired,
			Message: sk.ID + " is paid with x402: activate the extension by sending the header X-A2A-Extensions: " + x402.A2AExtensionURI + " and send the message again; nothing was charged"})
	}
	price := e.Cashier.Price(sk.Path)
	offer, err := e.Cashier.Offer(e.Cashier.BaseURL+resource, price)
	if err != nil {
		return e.refused(ctx, rc, err)
	}
	offer.Error = "payment required: answer in this task with the signed PaymentPayload in the message metadata " + x402.MetaA2APayload
	return paymentRequired(rc, offer, e.Cashier.Checkout(offer, price))
}

// pay answers a message in a task that waits for its payment: the
// payment is authorized against the task's own offer (recomputed from its
// first message), the answer computed, the payment settled and only then
// the answer sent.
func (e *Endpoint) pay(ctx context.Context, rc *a2asrv.RequestContext) *a2a.Task {
	task := rc.StoredTask
	if len(task.History) == 0 || task.Status.State != a2a.TaskStateInputRequired {
		return e.refused(ctx, rc, invalid("taskId", string(task.ID), "this task waits for nothing: start a new task with a new message"))
	}
	id, args, err := skillCall(task.History[0])
	if err != nil {
		return e.refused(ctx, rc, err)
	}
	sk := skillByID(id)
	resource, compute := e.skills()[id](ctx, args)
	price := e.Cashier.Price(sk.Path)
	offer, err := e.Cashier.Offer(e.Cashier.BaseURL+resource, price)
	if err != nil {
		return e.refused(ctx, rc, err)
	}
	payload, reason := submitted(rc.Message)
	if reason != "" {
		// Not a payment at all: the offer still stands.
		offer.Error = reason
		return paymentRequired(rc, offer, e.Cashier.Checkout(offer, price))
	}
	// AP2 mandates, when sent, are verified and their use recorded before
	// anything is settled: a refused mandate charges nothing.
	mandates := payment.MandatesIn(rc.Message.Metadata, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate)
	paid, accepted, reason, refusal := e.Cashier.AuthorizeWithMandates(ctx, payload, offer, mandates)
	if refusal != nil {
		return e.mandateRefused(rc, mandates, refusal, reason)
	}
	if paid == nil {
		return paymentFailed(rc, reason, "invalid_payment", nil)
	}
	res, err := compute()
	if err != nil {
		return e.refused(ctx, rc, err) // not settled: nothing is charged
	}
	settled, failure, err := e.Cashier.Settle(ctx, paid, accepted)
	receipt := settled.Receipt
	if err != nil {
		return paymentFailed(rc, "payments cannot be settled right now; nothing was charged: start a new task and sign a new payment in a minute", "settlement_unavailable", nil)
	}
	if failure != "" {
		return paymentFailed(rc, failure, receipt.ErrorReason, &receipt)
	}
	meta := map[string]any{
		x402.MetaA2AStatus:   x402.A2APaymentCompleted,
		x402.MetaA2AReceipts: []x402.SettlementResponse{receipt},
	}
	if settled.AP2 != nil {
		meta[ap2.MetaA2AReceipts] = settled.AP2
	}
	return e.answered(rc, res, meta)
}

// submitted reads the PaymentPayload a message carries in its metadata,
// or says why it carries none.
func submitted(m *a2a.Message) (x402.PaymentPayload, string) {
	var payload x402.PaymentPayload
	raw, ok := m.Metadata[x402.MetaA2APayload]
	if !ok || raw == nil || m.Metadata[x402.MetaA2AStatus] != x402.A2APaymentSubmitted {
		return payload, fmt.Sprintf("no payment was sent: answer in this task with message metadata %q: %q and the signed PaymentPayload in %q",
			x402.MetaA2AStatus, x402.A2APaymentSubmitted, x402.MetaA2APayload)
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &payload)
	}
	if err != nil {
		return payload, fmt.Sprintf("the metadata %q must be an x402 PaymentPayload object: %v", x402.MetaA2APayload, err)
	}
	return payload, ""
}

// mandateRefused fails the task whose AP2 mandates were refused, naming
// the failed check, with the error Checkout Receipt when there is one.
// Nothing was settled. A store that could not record the mandates' use
// is a failure to retry, not a refusal.
func (e *Endpoint) mandateRefused(rc *a2asrv.RequestContext, m payment.Mandates, refusal *ap2.Refusal, reason string) *a2a.Task {
	if refusal.Check == ap2.CheckStoreUnavailable {
		return paymentFailed(rc, "AP2 mandates cannot be recorded right now; nothing was charged: start a new task with new mandates and a new payment in a minute", "settlement_unavailable", nil)
	}
	t := paymentFailed(rc, reason, payment.CodeAP2Refused, nil)
	t.Status.Message.Metadata[ap2.MetaA2AError] = refusal.Check
	if receipt := e.Cashier.RefusalReceipt(m, refusal); receipt != "" {
		t.Status.Message.Metadata[ap2.MetaA2AReceipts] = map[string]string{"checkout_receipt": receipt}
	}
	return t
}

// activated says whether the request activated the x402 extension.
func activated(ctx context.Context) bool {
	exts, ok := a2asrv.ExtensionsFrom(ctx)
	return ok && exts.Active(&a2a.AgentExtension{URI: x402.A2AExtensionURI})
}

// paymentRequired is the task waiting for payment: input-required, the
// offer in the status message's metadata and in words.
func paymentRequired(rc *a2asrv.RequestContext, offer x402.PaymentRequired, checkout *ap2.Offer) *a2a.Task {
	words := "Payment required; nothing was charged: " + offer.Error + "."
	if len(offer.Accepts) > 0 {
		a := offer.Accepts[0]
		words += fmt.Sprintf("\n%s: %s atomic units of USDC (asset %s on %s) paid to %s, x402 version %d, scheme %s.",
			offer.Resource.Description, a.Amount, a.Asset, a.Network, a.PayTo, offer.X402Version, a.Scheme)
	}
	meta := map[string]any{x402.MetaA2AStatus: x402.A2APaymentRequired, x402.MetaA2ARequired: offer}
	if checkout != nil {
		// AP2 is an option beside plain x402: the Checkout JWT the
		// mandates refer to, and what they must say.
		meta[ap2.MetaA2ACheckout] = checkout
		words += fmt.Sprintf("\nAP2 (optional): the Checkout JWT and what the closed mandates must say are in the metadata %q; "+
			"send the closed Checkout and Payment Mandates in %q and %q beside the payment.",
			ap2.MetaA2ACheckout, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate)
	}
	msg := a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, text(words))
	msg.Metadata = meta
	return final(rc, a2a.TaskStateInputRequired, msg, nil)
}

// paymentFailed fails the task: the payment was refused or not settled,
// and nothing was charged. code is the machine reason.
func paymentFailed(rc *a2asrv.RequestContext, reason, code string, receipt *x402.SettlementResponse) *a2a.Task {
	receipts := []x402.SettlementResponse{}
	if receipt != nil && receipt.Network != "" {
		receipts = append(receipts, *receipt)
	}
	if code == "" {
		code = "payment_failed"
	}
	msg := a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, text("Payment failed, nothing was charged and nothing is served: "+reason))
	msg.Metadata = map[string]any{x402.MetaA2AStatus: x402.A2APaymentFailed, x402.MetaA2AError: code, x402.MetaA2AReceipts: receipts}
	return final(rc, a2a.TaskStateFailed, msg, nil)
}
