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

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// The helpers of the AP2 tests on every transport: mandates built and
// receipts checked by the independent implementation in e2e/ap2-mandates.

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

// closedHash is the hash of the closed SD-JWT of a presented mandate, the
// last of its chain, as sd_hash is computed: the receipts' reference.
func closedHash(mandate string) string {
	parts := strings.Split(strings.TrimSuffix(mandate, "~"), "~~")
	sum := sha256.Sum256([]byte(parts[len(parts)-1] + "~"))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// ap2Env is a server that takes x402 payments (local facilitator) and
// trusts the mandates signed with the keys of mandates.mjs, and what the
// tests verify its AP2 answers with.
type ap2Env struct {
	*env
	node string
	keys ap2Keys
	// published is the server's JWKS, as served.
	published jwks
	// schemas is the directory of the AP2 JSON schemas.
	schemas string
}

// startAP2 starts an ap2Env, or skips the test where mandates.mjs is not installed.
func startAP2(t *testing.T) ap2Env {
	t.Helper()
	a := ap2Env{node: ap2Node(t), schemas: filepath.Join(datatest.SharedDir(t), "spec", "ap2-v0.2", "schemas")}
	runNode(t, a.node, "mandates.mjs", map[string]string{"op": "keys"}, &a.keys)
	trusted := filepath.Join(t.TempDir(), "trusted.jwks")
	if err := os.WriteFile(trusted, a.keys.Trusted, 0o600); err != nil {
		t.Fatal(err)
	}
	a.env = start(t, "", withLocalFacilitator, func(c *config.Config) { c.AP2TrustedKeys = trusted })
	// The harness holds the answer to its description in openapi.json.
	r := a.get(discovery.PathAP2JWKS)
	if err := json.Unmarshal(r.body, &a.published); err != nil || r.StatusCode != http.StatusOK || len(a.published.Keys) != 1 ||
		r.Header.Get("Content-Type") != discovery.MediaTypeJWKS {
		t.Fatalf("JWKS: %d %s %v %s", r.StatusCode, r.Header.Get("Content-Type"), err, r.body)
	}
	return a
}

// mandates builds the closed mandates of variant for offer, the ap2
// object of a payment-required answer; otherCheckoutJWT is the Checkout
// JWT of another offer, for the variant other_checkout.
func (a ap2Env) mandates(t *testing.T, offer map[string]any, variant, otherCheckoutJWT string) map[string]string {
	t.Helper()
	var m map[string]string
	runNode(t, a.node, "mandates.mjs", map[string]any{
		"op": "mandates", "keys": a.keys, "offer": offer, "now": a.clock.Now().Unix(), "variant": variant, "other_checkout_jwt": otherCheckoutJWT,
	}, &m)
	return m
}

// checkReceipts checks the receipts of accepted mandates m whose payment
// settled as transaction: both verify with the published JWKS, name the
// closed mandates, and follow the AP2 schemas.
func (a ap2Env) checkReceipts(t *testing.T, checkoutReceipt, paymentReceipt string, m map[string]string, transaction string) {
	t.Helper()
	co := verifyJWT(t, a.published, checkoutReceipt)
	pr := verifyJWT(t, a.published, paymentReceipt)
	if co["status"] != "Success" || co["reference"] != closedHash(m["checkout_mandate"]) || co["iss"] != a.url {
		t.Errorf("Checkout Receipt %v", co)
	}
	if pr["status"] != "Success" || pr["reference"] != closedHash(m["payment_mandate"]) || pr["network_confirmation_id"] != transaction {
		t.Errorf("Payment Receipt %v, want transaction %s", pr, transaction)
	}
	a.followSchemas(t, map[string]any{"schema": "checkout_receipt.json", "payload": co}, map[string]any{"schema": "payment_receipt.json", "payload": pr})
}

// checkRefusalReceipt checks the error Checkout Receipt of mandates m
// refused for check: it verifies, names the check and the closed Checkout
// Mandate, and follows the AP2 schema.
func (a ap2Env) checkRefusalReceipt(t *testing.T, receipt string, m map[string]string, check string) {
	t.Helper()
	r := verifyJWT(t, a.published, receipt)
	if r["status"] != "Error" || r["error"] != check || r["reference"] != closedHash(m["checkout_mandate"]) {
		t.Errorf("error Checkout Receipt %v", r)
	}
	a.followSchemas(t, map[string]any{"schema": "checkout_receipt.json", "payload": r})
}

// followSchemas validates receipt payloads with receipts.mjs (ajv).
func (a ap2Env) followSchemas(t *testing.T, receipts ...map[string]any) {
	t.Helper()
	var valid struct{ Errors []string }
	runNode(t, a.node, "receipts.mjs", map[string]any{"schema_dir": a.schemas, "receipts": receipts}, &valid)
	if len(valid.Errors) > 0 {
		t.Errorf("receipts do not follow the AP2 schemas: %v", valid.Errors)
	}
}

// paidCallsToday is the count of settled calls /stats.json reports.
func (e *env) paidCallsToday(t *testing.T) any {
	t.Helper()
	return e.get("/stats.json").json(t)["paid_calls_today"]
}
