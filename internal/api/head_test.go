package api_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// exchange sends one request and reads the whole answer, outside the
// openapi.json validation (which declares no HEAD operations: HEAD is GET
// without the body). Compressed answers are asked for explicitly, so that
// the client decompresses nothing and GET and HEAD ask alike.
func (e *env) exchange(method, path string, header ...string) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "br, gzip")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, body
}

// volatile are the headers that differ between two answers to the same
// request: the request id and date, the length a HEAD may omit (RFC 9110
// section 9.3.2) where GET's body was long enough to be chunked, and the
// AP2 Checkout JWT, signed anew for every offer.
var volatile = []string{"X-Request-Id", "Date", "Content-Length", "Ap2-Checkout"}

// TestHeadAnswersEveryGetRoute: every route that answers GET answers HEAD,
// and a HEAD gets the status and headers a GET just got, without a body:
// answers, errors (400, 401, 402, 404), redirects, documents and pages.
func TestHeadAnswersEveryGetRoute(t *testing.T) {
	e := start(t, "")
	routes, ok := e.service.Handler().(chi.Routes)
	if !ok {
		t.Fatal("the service's handler is no longer the chi router this test walks")
	}
	paths := []string{
		"/free/check?passport=DEU&destination=THA", "/free/check", "/v1/check", "/v1/check?passport=DEU&destination=THA",
		"/v1/passport/XX1", "/go?passport=DEU&destination=THA", "/nowhere", "/.well-known/nowhere",
	}
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method != http.MethodGet {
			return nil
		}
		if !slices.ContainsFunc(routes.Routes(), func(r chi.Route) bool { return r.Pattern == route && r.Handlers[http.MethodHead] != nil }) {
			t.Errorf("GET %s has no HEAD", route)
		}
		paths = append(paths, strings.NewReplacer("{iso3}", "DEU", "*", "").Replace(route))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		for _, auth := range []string{"", "Bearer nope"} {
			get, _ := e.exchange(http.MethodGet, path, "Authorization", auth)
			head, body := e.exchange(http.MethodHead, path, "Authorization", auth)
			if head.StatusCode != get.StatusCode || len(body) > 0 {
				t.Errorf("HEAD %s (Authorization %q): %d with %d bytes of body; GET: %d", path, auth, head.StatusCode, len(body), get.StatusCode)
			}
			for name := range mergedKeys(get.Header, head.Header) {
				if slices.Contains(volatile, name) {
					continue
				}
				if g, h := get.Header.Values(name), head.Header.Values(name); !slices.Equal(g, h) {
					t.Errorf("HEAD %s (Authorization %q): %s %q; GET: %q", path, auth, name, h, g)
				}
			}
		}
	}
}

func mergedKeys(a, b http.Header) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

// TestHeadUsesNoFreeCheck: HEAD /free/check counts nothing. It tells the
// checks left (all of them, before any GET), then, once GET has used them
// up, the 429 GET would get.
func TestHeadUsesNoFreeCheck(t *testing.T) {
	e := start(t, "")
	const path = "/free/check?passport=DEU&destination=THA"
	for range 10 {
		r, _ := e.exchange(http.MethodHead, path)
		if r.StatusCode != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != "5" || r.Header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("HEAD before any check: %d, X-RateLimit-Remaining %q", r.StatusCode, r.Header.Get("X-RateLimit-Remaining"))
		}
	}
	for i := range 5 {
		if r := e.get(path); r.StatusCode != http.StatusOK {
			t.Fatalf("check %d after the HEADs: %d, they used quota", i+1, r.StatusCode)
		}
	}
	r, body := e.exchange(http.MethodHead, path)
	if r.StatusCode != http.StatusTooManyRequests || len(body) > 0 || r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("HEAD once the checks are used up: %d, Retry-After %q, remaining %q, %d bytes", r.StatusCode, r.Header.Get("Retry-After"), r.Header.Get("X-RateLimit-Remaining"), len(body))
	}
	if s := e.get("/stats.json").json(t); s["free_checks_today"] != float64(5) {
		t.Errorf("stats after 10 HEADs and 5 checks: %v", s["free_checks_today"])
	}
}

// TestHeadIsNeverCharged: a HEAD to a paid endpoint gets the 402 offer
// headers, even with a valid payment, which stays unspent for the GET.
func TestHeadIsNeverCharged(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	offer := e.offerOf(checkPath)
	pay := header(t, newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key))
	r, body := e.exchange(http.MethodHead, checkPath, x402.HeaderPaymentSignature, pay)
	var got x402.PaymentRequired
	if err := x402.Decode(r.Header.Get(x402.HeaderPaymentRequired), &got); err != nil || r.StatusCode != http.StatusPaymentRequired || len(body) > 0 {
		t.Fatalf("HEAD with a payment: %d, %d bytes, PAYMENT-REQUIRED %v", r.StatusCode, len(body), err)
	}
	if r.Header.Get(x402.HeaderPaymentResponse) != "" || !strings.Contains(got.Error, "never charged") || len(got.Accepts) != 1 {
		t.Errorf("HEAD with a payment: receipt %q, offer %+v", r.Header.Get(x402.HeaderPaymentResponse), got)
	}
	checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, pay), crypto.PubkeyToAddress(key.PublicKey).Hex())
}
