package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// listed reports whether the comma-separated header list names every one
// of names, ignoring case as header names do.
func listed(list string, names ...string) bool {
	for _, n := range names {
		found := false
		for _, v := range strings.Split(list, ",") {
			if strings.EqualFold(strings.TrimSpace(v), n) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// checkAnyOrigin checks that h lets any page read an answer without
// credentials: "*" and credentials are exclusive, and no credentials are
// used.
func checkAnyOrigin(t *testing.T, what string, h http.Header) {
	t.Helper()
	if h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("%s: Allow-Origin %q, Allow-Credentials %q", what, h.Get("Access-Control-Allow-Origin"), h.Get("Access-Control-Allow-Credentials"))
	}
}

// TestCORSPaidPreflight: a page on another site may send a payment, AP2
// mandates and a bearer token to every paid route, and fetch the OAuth
// metadata and the AP2 keys with the header browser MCP clients add.
func TestCORSPaidPreflight(t *testing.T) {
	e := start(t, "")
	// The official x402 fetch client sends Access-Control-Expose-Headers
	// with its payment, as a request header.
	paying := []string{x402.HeaderPaymentSignature, payment.HeaderAP2CheckoutMandate, payment.HeaderAP2PaymentMandate, "Authorization", "Content-Type", "Access-Control-Expose-Headers"}
	cases := []struct {
		path, method string
		headers      []string
	}{
		{checkPath, http.MethodGet, paying},
		{"/v1/passport/DEU", http.MethodGet, paying},
		{discovery.PathTrips, http.MethodPost, paying},
		{discovery.PathAuthorizationServer, http.MethodGet, []string{"Mcp-Protocol-Version"}},
		{discovery.PathProtectedResource, http.MethodGet, []string{"Mcp-Protocol-Version"}},
		{discovery.PathAP2JWKS, http.MethodGet, []string{"Mcp-Protocol-Version"}},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(http.MethodOptions, e.url+c.path, nil)
		req.Header.Set("Origin", "https://shop.example")
		req.Header.Set("Access-Control-Request-Method", c.method)
		req.Header.Set("Access-Control-Request-Headers", strings.ToLower(strings.Join(c.headers, ",")))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if resp.StatusCode != http.StatusNoContent || !listed(h.Get("Access-Control-Allow-Methods"), c.method) ||
			!listed(h.Get("Access-Control-Allow-Headers"), c.headers...) || h.Get("Access-Control-Max-Age") == "" {
			t.Errorf("preflight of %s %s: %d %v", c.method, c.path, resp.StatusCode, h)
		}
		checkAnyOrigin(t, "preflight of "+c.path, h)
	}
}

// TestCORSPaidExposesPayment: a page reads the offer of a 402 and the
// receipt of a 200, and the counters every answer carries.
func TestCORSPaidExposesPayment(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	common := []string{"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"}
	offer := e.get(checkPath, "Origin", "https://shop.example")
	if offer.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("unpaid: %d %s", offer.StatusCode, offer.body)
	}
	checkAnyOrigin(t, "402", offer.Header)
	if h := offer.Header.Get("Access-Control-Expose-Headers"); !listed(h, append(common, x402.HeaderPaymentRequired, payment.HeaderAP2Checkout)...) {
		t.Errorf("402 exposes %q", h)
	}

	key := mustKey(t)
	acc := e.offerOf(checkPath).Accepts[0]
	paid := e.get(checkPath, "Origin", "https://shop.example",
		x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key)))
	checkPaid(t, paid, crypto.PubkeyToAddress(key.PublicKey).Hex())
	checkAnyOrigin(t, "200", paid.Header)
	if h := paid.Header.Get("Access-Control-Expose-Headers"); !listed(h, append(common, x402.HeaderPaymentResponse, payment.HeaderAP2CheckoutReceipt, payment.HeaderAP2PaymentReceipt)...) {
		t.Errorf("200 exposes %q", h)
	}
}
