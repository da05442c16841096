package api_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// TestA2AAP2Mandates pays the paid-check skill with x402 and AP2 mandates
// in the message metadata: accepted mandates complete the task with
// signed receipts; mandates presented again, or whose amount is one cent
// off, fail the task naming the check, and nothing is charged.
func TestA2AAP2Mandates(t *testing.T) {
	e := startAP2(t)
	key := mustKey(t)
	// offer starts a paid task and returns it with its x402 and AP2 offers.
	offer := func() (a2aTask, x402.PaymentRequired, map[string]any) {
		t.Helper()
		k := e.a2a(t, a2aCall{data: map[string]any{"skill": "paid-check", "passport": "DEU", "destination": "THA"}, x402: true})
		if k.Status.State != "input-required" {
			t.Fatalf("paid-check: %s %q", k.Status.State, k.words())
		}
		var req x402.PaymentRequired
		var checkout map[string]any
		k.meta(t, x402.MetaA2ARequired, &req)
		k.meta(t, ap2.MetaA2ACheckout, &checkout)
		if !strings.Contains(k.words(), ap2.MetaA2ACheckoutMandate) {
			t.Errorf("the offer does not say where the mandates go: %q", k.words())
		}
		return k, req, checkout
	}
	// pay answers the task with a fresh x402 payment and the mandates m.
	pay := func(k a2aTask, req x402.PaymentRequired, m map[string]string) a2aTask {
		t.Helper()
		p := newPayment(t, key, req.Accepts[0], e.clock.Now()).sign(t, key)
		p.Resource = &req.Resource
		return e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, x402: true, ap2: true, metadata: map[string]any{
			x402.MetaA2AStatus: x402.A2APaymentSubmitted, x402.MetaA2APayload: p,
			ap2.MetaA2ACheckoutMandate: m["checkout_mandate"], ap2.MetaA2APaymentMandate: m["payment_mandate"],
		}})
	}
	// refused checks a task failed for mandates refused by check.
	refused := func(k a2aTask, check string) {
		t.Helper()
		var status, code, named string
		k.meta(t, x402.MetaA2AStatus, &status)
		k.meta(t, x402.MetaA2AError, &code)
		k.meta(t, ap2.MetaA2AError, &named)
		if k.Status.State != "failed" || status != x402.A2APaymentFailed || code != payment.CodeAP2Refused || named != check ||
			!strings.Contains(k.words(), check+": AP2 mandate refused") || !strings.Contains(k.words(), "nothing was charged") || len(k.Artifacts) != 0 {
			t.Errorf("refusal naming %s: %s %s %s %s %q", check, k.Status.State, status, code, named, k.words())
		}
	}

	k, req, checkout := offer()
	if jwt := verifyJWT(t, e.published, checkout["checkout_jwt"].(string)); jwt["resource"] != req.Resource.URL {
		t.Errorf("Checkout JWT resource %v, want %s", jwt["resource"], req.Resource.URL)
	}
	m := e.mandates(t, checkout, "direct", "")
	paid := pay(k, req, m)
	if paid.Status.State != "completed" {
		t.Fatalf("paid with mandates: %s %q", paid.Status.State, paid.words())
	}
	var settled []x402.SettlementResponse
	var receipts payment.AP2Receipts
	paid.meta(t, x402.MetaA2AReceipts, &settled)
	paid.meta(t, ap2.MetaA2AReceipts, &receipts)
	if len(settled) != 1 || !settled[0].Success {
		t.Fatalf("settlement %+v", settled)
	}
	e.checkReceipts(t, receipts.CheckoutReceipt, receipts.PaymentReceipt, m, settled[0].Transaction)

	// The same mandates in a new task, with a new payment.
	k, req, _ = offer()
	refused(pay(k, req, m), ap2.CheckMandateReplayed)

	// A Payment Mandate one cent over the price.
	k, req, checkout = offer()
	m = e.mandates(t, checkout, "amount_off", "")
	off := pay(k, req, m)
	refused(off, ap2.CheckAmount)
	var errorReceipt map[string]string
	off.meta(t, ap2.MetaA2AReceipts, &errorReceipt)
	e.checkRefusalReceipt(t, errorReceipt["checkout_receipt"], m, ap2.CheckAmount)

	if n := e.paidCallsToday(t); n != float64(1) {
		t.Errorf("paid_calls_today %v, want 1: a refused mandate was charged", n)
	}
}

// TestMCPAP2Mandates pays evaluate_trip with x402 and AP2 mandates in the
// call's _meta: accepted mandates get the answer with signed receipts in
// the result's _meta; mandates presented again, or whose amount is one
// cent off, get the offer again naming the check, and nothing is charged.
func TestMCPAP2Mandates(t *testing.T) {
	e := startAP2(t)
	cs := e.connectMCP(nil, protocolDiscover)
	trip, err := os.ReadFile("../evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	key := mustKey(t)
	type required struct {
		x402.PaymentRequired
		Code string         `json:"code"`
		AP2  map[string]any `json:"ap2"`
	}
	// offer calls the tool without paying: its x402 offer and AP2 offer.
	offer := func() required {
		t.Helper()
		res := callTool(t, cs, "evaluate_trip", json.RawMessage(trip))
		var body required
		structured(t, res, &body)
		if !res.IsError || len(body.Accepts) != 1 || body.AP2["checkout_jwt"] == nil || !strings.Contains(strings.Join(textOf(res), " "), ap2.MetaMCPCheckoutMandate) {
			t.Fatalf("payment-required result without the AP2 offer: %v", textOf(res))
		}
		return body
	}
	// pay calls the tool with a fresh x402 payment and the mandates m.
	pay := func(req required, m map[string]string) *mcp.CallToolResult {
		t.Helper()
		p := newPayment(t, key, req.Accepts[0], e.clock.Now()).sign(t, key)
		p.Resource = &req.Resource
		return callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{
			x402.MetaPayment: p, ap2.MetaMCPCheckoutMandate: m["checkout_mandate"], ap2.MetaMCPPaymentMandate: m["payment_mandate"],
		})
	}
	// refused checks the offer again for mandates refused by check, and returns it.
	refused := func(res *mcp.CallToolResult, check string) required {
		t.Helper()
		var body required
		structured(t, res, &body)
		if !res.IsError || body.Code != payment.CodeAP2Refused || body.AP2["check"] != check || !strings.HasPrefix(body.Error, check+":") ||
			res.Meta[ap2.MetaMCPError] != check || res.Meta[x402.MetaPaymentResponse] != nil || res.Meta[ap2.MetaMCPReceipts] != nil {
			t.Errorf("refusal naming %s: %v, _meta %v", check, textOf(res), res.Meta)
		}
		return body
	}

	req := offer()
	if jwt := verifyJWT(t, e.published, req.AP2["checkout_jwt"].(string)); jwt["resource"] != req.Resource.URL {
		t.Errorf("Checkout JWT resource %v, want %s", jwt["resource"], req.Resource.URL)
	}
	m := e.mandates(t, req.AP2, "direct", "")
	res := pay(req, m)
	if res.IsError {
		t.Fatalf("paid with mandates: %v", textOf(res))
	}
	settled, _ := res.Meta[x402.MetaPaymentResponse].(map[string]any)
	receipts, _ := res.Meta[ap2.MetaMCPReceipts].(map[string]any)
	if settled["success"] != true || receipts == nil {
		t.Fatalf("_meta %v", res.Meta)
	}
	co, _ := receipts["checkout_receipt"].(string)
	pr, _ := receipts["payment_receipt"].(string)
	e.checkReceipts(t, co, pr, m, settled["transaction"].(string))

	// The same mandates again, with a new payment.
	refused(pay(offer(), m), ap2.CheckMandateReplayed)

	// Mandates that are not strings are refused as malformed, not ignored.
	p := newPayment(t, key, req.Accepts[0], e.clock.Now()).sign(t, key)
	refused(callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{
		x402.MetaPayment: p, ap2.MetaMCPCheckoutMandate: map[string]any{"vct": "mandate.checkout.1"}, ap2.MetaMCPPaymentMandate: 3,
	}), ap2.CheckMalformed)

	// A Payment Mandate one cent over the price.
	req = offer()
	m = e.mandates(t, req.AP2, "amount_off", "")
	body := refused(pay(req, m), ap2.CheckAmount)
	receipt, _ := body.AP2["checkout_receipt"].(string)
	e.checkRefusalReceipt(t, receipt, m, ap2.CheckAmount)

	if n := e.paidCallsToday(t); n != float64(1) {
		t.Errorf("paid_calls_today %v, want 1: a refused mandate was charged", n)
	}
}
