package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// ap2Offer asks for checkPath without paying and returns the 402's ap2 field.
func (e *env) ap2Offer(t *testing.T) map[string]any {
	t.Helper()
	r := e.get(checkPath)
	if r.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("unpaid: %d %s", r.StatusCode, r.body)
	}
	offer, _ := r.json(t)["ap2"].(map[string]any)
	if offer == nil || offer["checkout_jwt"] == "" || r.Header.Get(payment.HeaderAP2Checkout) != offer["checkout_jwt"] {
		t.Fatalf("402 without the AP2 offer: %s", r.body)
	}
	return offer
}

// TestAP2Mandates pays /v1/check with x402 and AP2 mandates built by an
// independent implementation: accepted mandates get the answer with signed
// receipts that follow the AP2 schemas; each refused mandate gets a 402
// naming the failed check, and its x402 payment is not settled.
func TestAP2Mandates(t *testing.T) {
	e := startAP2(t)
	offer := e.ap2Offer(t)
	checkout := verifyJWT(t, e.published, offer["checkout_jwt"].(string))
	merchant, _ := checkout["merchant"].(map[string]any)
	if checkout["resource"] != e.url+checkPath || merchant["website"] != e.url || checkout["jti"] != offer["nonce"] || checkout["exp"] == nil {
		t.Errorf("Checkout JWT payload %v", checkout)
	}
	if amount, _ := offer["payment_amount"].(map[string]any); amount["amount"] != float64(3) || amount["currency"] != "USD" {
		t.Errorf("payment_amount %v, want 3 USD cents", offer["payment_amount"])
	}

	key := mustKey(t)
	payer := crypto.PubkeyToAddress(key.PublicKey).Hex()
	acc := e.offerOf(checkPath).Accepts[0]
	// pay sends a fresh x402 payment with the mandates of variant for a fresh offer.
	pay := func(variant string) (response, map[string]string, x402.PaymentPayload) {
		t.Helper()
		m := e.mandates(t, e.ap2Offer(t), variant, e.ap2Offer(t)["checkout_jwt"].(string))
		p := newPayment(t, key, acc, e.clock.Now()).sign(t, key)
		r := e.get(checkPath, x402.HeaderPaymentSignature, header(t, p),
			payment.HeaderAP2CheckoutMandate, m["checkout_mandate"], payment.HeaderAP2PaymentMandate, m["payment_mandate"])
		return r, m, p
	}

	paidCalls := 0
	for _, variant := range []string{"direct", "delegated"} {
		t.Run(variant, func(t *testing.T) {
			r, m, _ := pay(variant)
			if delegated := strings.Contains(m["checkout_mandate"], "~~") && strings.Contains(m["payment_mandate"], "~~"); delegated != (variant == "delegated") {
				t.Fatalf("%s mandates chained: %v", variant, delegated)
			}
			checkPaid(t, r, payer)
			paidCalls++
			body, _ := r.json(t)["ap2"].(map[string]any)
			if body == nil || body["checkout_receipt"] != r.Header.Get(payment.HeaderAP2CheckoutReceipt) || body["payment_receipt"] != r.Header.Get(payment.HeaderAP2PaymentReceipt) {
				t.Fatalf("receipts: body %v, headers %q %q", body, r.Header.Get(payment.HeaderAP2CheckoutReceipt), r.Header.Get(payment.HeaderAP2PaymentReceipt))
			}
			var settled x402.SettlementResponse
			_ = x402.Decode(r.Header.Get(x402.HeaderPaymentResponse), &settled)
			e.checkReceipts(t, body["checkout_receipt"].(string), body["payment_receipt"].(string), m, settled.Transaction)

			// The same mandates again, with a new payment: refused, nothing charged.
			p := newPayment(t, key, acc, e.clock.Now()).sign(t, key)
			r = e.get(checkPath, x402.HeaderPaymentSignature, header(t, p),
				payment.HeaderAP2CheckoutMandate, m["checkout_mandate"], payment.HeaderAP2PaymentMandate, m["payment_mandate"])
			checkAP2Refused(t, r, "mandate_replayed")
			checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, p)), payer)
			paidCalls++
		})
	}

	for variant, check := range map[string]string{
		"other_checkout":     "checkout_hash",
		"amount_off":         "amount",
		"kb_expired":         "key_binding_expired",
		"untrusted":          "untrusted_signer",
		"merchant_excluded":  "allowed_merchants",
		"payee_off":          "payee",
		"instrument_off":     "instrument",
		"nonce_off":          "key_binding_nonce",
		"audience_off":       "key_binding_audience",
		"unknown_constraint": "unknown_constraint",
	} {
		t.Run(variant, func(t *testing.T) {
			r, m, p := pay(variant)
			checkAP2Refused(t, r, check)
			// The refusal carries the error Checkout Receipt AP2 asks for.
			refused, _ := r.json(t)["ap2"].(map[string]any)
			e.checkRefusalReceipt(t, refused["checkout_receipt"].(string), m, check)
			// The refused payment was never settled: it still pays, once.
			checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, p)), payer)
			paidCalls++
		})
	}
	if n := e.paidCallsToday(t); n != float64(paidCalls) {
		t.Errorf("paid_calls_today %v, want %d: a refused mandate was charged", n, paidCalls)
	}
}

// checkAP2Refused checks a 402 that refuses AP2 mandates, naming check.
func checkAP2Refused(t *testing.T, r response, check string) {
	t.Helper()
	if r.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("%d %s, want 402 naming %s", r.StatusCode, r.body, check)
	}
	body := r.json(t)
	ap2, _ := body["ap2"].(map[string]any)
	if msg, _ := body["error"].(string); body["code"] != payment.CodeAP2Refused || !strings.HasPrefix(msg, check+":") || ap2["check"] != check {
		t.Errorf("refusal does not name %s: %s", check, r.body)
	}
	if r.Header.Get(x402.HeaderPaymentResponse) != "" || body["payment"] != nil || body["requirement"] != nil {
		t.Errorf("refused mandates, yet settled or served: %s", r.body)
	}
}

// TestAP2TrustsNoKeyByDefault: without --ap2-trusted-keys every mandate is
// refused as untrusted_signer, and plain x402 still pays.
func TestAP2TrustsNoKeyByDefault(t *testing.T) {
	node := ap2Node(t)
	var keys ap2Keys
	runNode(t, node, "mandates.mjs", map[string]string{"op": "keys"}, &keys)
	e := start(t, "", withLocalFacilitator)
	var m map[string]string
	runNode(t, node, "mandates.mjs", map[string]any{"op": "mandates", "keys": keys, "offer": e.ap2Offer(t), "now": e.clock.Now().Unix(), "variant": "direct"}, &m)
	key := mustKey(t)
	p := newPayment(t, key, e.offerOf(checkPath).Accepts[0], e.clock.Now()).sign(t, key)
	checkAP2Refused(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, p),
		payment.HeaderAP2CheckoutMandate, m["checkout_mandate"], payment.HeaderAP2PaymentMandate, m["payment_mandate"]), "untrusted_signer")
	checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, p)), crypto.PubkeyToAddress(key.PublicKey).Hex())
}
