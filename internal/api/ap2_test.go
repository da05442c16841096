package api_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// mandatesDir holds the independent AP2 implementation the tests build
// mandates and check receipts with (@sd-jwt libraries, ajv).
var mandatesDir = filepath.Join("..", "..", "e2e", "ap2-mandates")

// ap2Node returns the node binary when e2e/ap2-mandates is installed, or
// skips the test (fails on CI, where .ci/run installs it).
func ap2Node(t *testing.T) string {
	t.Helper()
	missing := func(what string) {
		msg := what + ": run `npm ci` in e2e/ap2-mandates (Node.js 20+) to run the AP2 tests"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	for _, pkg := range []string{"@sd-jwt/core", "@sd-jwt/crypto-nodejs", "ajv"} {
		if _, err := os.Stat(filepath.Join(mandatesDir, "node_modules", pkg, "package.json")); err != nil {
			missing("e2e/ap2-mandates/node_modules/" + pkg + " is missing")
		}
	}
	return bin
}

// runNode runs script of e2e/ap2-mandates with req on stdin and decodes its answer into out.
func runNode(t *testing.T, node, script string, req, out any) {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Dir = mandatesDir
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("node %s answered %q: %v", script, stdout.String(), err)
	}
}

// ap2Keys are the user's and the agent provider's keys of mandates.mjs.
type ap2Keys struct {
	User     json.RawMessage `json:"user"`
	Provider json.RawMessage `json:"provider"`
	Trusted  json.RawMessage `json:"trusted"`
}

type jwks struct {
	Keys []struct {
		Kty, Crv, X, Y, Kid string
	} `json:"keys"`
}

// verifyJWT checks an ES256 JWT against the keys and returns its payload.
func verifyJWT(t *testing.T, set jwks, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	verified := false
	for _, k := range set.Keys {
		x, _ := base64.RawURLEncoding.DecodeString(k.X)
		y, _ := base64.RawURLEncoding.DecodeString(k.Y)
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err == nil && len(sig) == 64 && ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
			verified = true
		}
	}
	if !verified {
		t.Fatalf("JWT %.60s… does not verify with the published JWKS", jwt)
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

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
	node := ap2Node(t)
	var keys ap2Keys
	runNode(t, node, "mandates.mjs", map[string]string{"op": "keys"}, &keys)
	trusted := filepath.Join(t.TempDir(), "trusted.jwks")
	if err := os.WriteFile(trusted, keys.Trusted, 0o600); err != nil {
		t.Fatal(err)
	}
	e := start(t, "", withLocalFacilitator, func(c *config.Config) { c.AP2TrustedKeys = trusted })

	res, err := http.Get(e.url + payment.PathAP2JWKS)
	if err != nil {
		t.Fatal(err)
	}
	var published jwks
	err = json.NewDecoder(res.Body).Decode(&published)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || len(published.Keys) != 1 {
		t.Fatalf("JWKS: %d %v %+v", res.StatusCode, err, published)
	}

	offer := e.ap2Offer(t)
	checkout := verifyJWT(t, published, offer["checkout_jwt"].(string))
	merchant, _ := checkout["merchant"].(map[string]any)
	if checkout["resource"] != e.url+checkPath || merchant["website"] != e.url || checkout["jti"] != offer["nonce"] || checkout["exp"] == nil {
		t.Errorf("Checkout JWT payload %v", checkout)
	}
	if amount, _ := offer["payment_amount"].(map[string]any); amount["amount"] != float64(3) || amount["currency"] != "USD" {
		t.Errorf("payment_amount %v, want 3 USD cents", offer["payment_amount"])
	}

	schemas := filepath.Join(datatest.SharedDir(t), "spec", "ap2-v0.2", "schemas")
	key := mustKey(t)
	payer := crypto.PubkeyToAddress(key.PublicKey).Hex()
	acc := e.offerOf(checkPath).Accepts[0]
	// pay sends a fresh x402 payment with the mandates of variant for a fresh offer.
	pay := func(variant string) (response, map[string]string, x402.PaymentPayload) {
		t.Helper()
		offer := e.ap2Offer(t)
		other := e.ap2Offer(t)
		var m map[string]string
		runNode(t, node, "mandates.mjs", map[string]any{
			"op": "mandates", "keys": keys, "offer": offer, "now": e.clock.Now().Unix(), "variant": variant, "other_checkout_jwt": other["checkout_jwt"],
		}, &m)
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
			co := verifyJWT(t, published, body["checkout_receipt"].(string))
			pr := verifyJWT(t, published, body["payment_receipt"].(string))
			if co["status"] != "Success" || co["reference"] != closedHash(m["checkout_mandate"]) || co["iss"] != e.url {
				t.Errorf("Checkout Receipt %v", co)
			}
			var settled x402.SettlementResponse
			_ = x402.Decode(r.Header.Get(x402.HeaderPaymentResponse), &settled)
			if pr["status"] != "Success" || pr["reference"] != closedHash(m["payment_mandate"]) || pr["network_confirmation_id"] != settled.Transaction {
				t.Errorf("Payment Receipt %v", pr)
			}
			var valid struct{ Errors []string }
			runNode(t, node, "receipts.mjs", map[string]any{
				"schema_dir": schemas,
				"receipts":   []map[string]any{{"schema": "checkout_receipt.json", "payload": co}, {"schema": "payment_receipt.json", "payload": pr}},
			}, &valid)
			if len(valid.Errors) > 0 {
				t.Errorf("receipts do not follow the AP2 schemas: %v", valid.Errors)
			}

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
			receipt := verifyJWT(t, published, refused["checkout_receipt"].(string))
			if receipt["status"] != "Error" || receipt["error"] != check || receipt["reference"] != closedHash(m["checkout_mandate"]) {
				t.Errorf("error Checkout Receipt %v", receipt)
			}
			var valid struct{ Errors []string }
			runNode(t, node, "receipts.mjs", map[string]any{
				"schema_dir": schemas, "receipts": []map[string]any{{"schema": "checkout_receipt.json", "payload": receipt}},
			}, &valid)
			if len(valid.Errors) > 0 {
				t.Errorf("the error receipt does not follow the AP2 schema: %v", valid.Errors)
			}
			// The refused payment was never settled: it still pays, once.
			checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, p)), payer)
			paidCalls++
		})
	}
	if n := e.get("/stats.json").json(t)["paid_calls_today"]; n != float64(paidCalls) {
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

// closedHash is the hash of the closed SD-JWT of a presented mandate, the
// last of its chain, as sd_hash is computed: the receipts' reference.
func closedHash(mandate string) string {
	parts := strings.Split(strings.TrimSuffix(mandate, "~"), "~~")
	sum := sha256.Sum256([]byte(parts[len(parts)-1] + "~"))
	return base64.RawURLEncoding.EncodeToString(sum[:])
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
