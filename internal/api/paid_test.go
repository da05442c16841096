package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
)

func TestPaidEndpointsAskForPayment(t *testing.T) {
	e := start(t, "")
	cases := []struct {
		method, path, body, amount string
	}{
		{"GET", "/v1/check?passport=DEU&destination=THA", "", "30000"},
		{"GET", "/v1/passport/DEU", "", "150000"},
	}
	for _, c := range cases {
		for i := 0; i < 8; i++ { // far beyond any free quota: paid endpoints are never rate limited
			r := e.get(c.path)
			if r.StatusCode != http.StatusPaymentRequired {
				t.Fatalf("%s: %d %s", c.path, r.StatusCode, r.body)
			}
			raw, err := base64.StdEncoding.DecodeString(r.Header.Get("PAYMENT-REQUIRED"))
			if err != nil {
				t.Fatalf("PAYMENT-REQUIRED is not base64: %v", err)
			}
			var header, body map[string]any
			if err := json.Unmarshal(raw, &header); err != nil {
				t.Fatal(err)
			}
			body = r.json(t)
			accept := header["accepts"].([]any)[0].(map[string]any)
			if header["x402Version"] != float64(2) || accept["scheme"] != "exact" || accept["network"] != "eip155:8453" ||
				accept["amount"] != c.amount || accept["asset"] != "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" || accept["payTo"] != payTo ||
				accept["extra"].(map[string]any)["name"] != "USD Coin" || header["resource"].(map[string]any)["url"] != e.url+c.path {
				t.Errorf("%s: offer %v", c.path, header)
			}
			if body["accepts"] == nil || body["code"] != "payment_required" || body["error"] != header["error"] {
				t.Errorf("%s: body %v does not carry the same offer", c.path, body)
			}
		}
	}
	// Nobody pays for an invalid request.
	if r := e.get("/v1/check?passport=GER&destination=THA"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid paid request: %d", r.StatusCode)
	}
	if r := e.get("/v1/passport/GER"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid passport matrix request: %d", r.StatusCode)
	}
	// A payment header the server cannot verify is refused, and says so.
	if r := e.get("/v1/check?passport=DEU&destination=THA", "PAYMENT-SIGNATURE", "e30="); r.StatusCode != http.StatusPaymentRequired || r.json(t)["error"] == "PAYMENT-SIGNATURE header is required" {
		t.Errorf("unverifiable payment: %d %s", r.StatusCode, r.body)
	}
	// Paid calls used none of the free quota.
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("free quota after paid calls: remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
}

func TestPaymentsNotConfigured(t *testing.T) {
	e := start(t, "", func(c *config.Config) { c.PayTo = "" })
	r := e.get("/v1/check?passport=DEU&destination=THA")
	if r.StatusCode != http.StatusServiceUnavailable || r.json(t)["error"] != "payments_not_configured" {
		t.Errorf("%d %s", r.StatusCode, r.body)
	}
	// A request that is invalid is told so first, as on a server that
	// takes payments: the fault is the client's whatever the server's setup.
	if r := e.get("/v1/check?passport=GER&destination=THA"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid check without payments configured: %d %s", r.StatusCode, r.body)
	}
	if r := e.post("/v1/trips/evaluate", "application/json", []byte(`{"traveler":{}}`)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid trip without payments configured: %d %s", r.StatusCode, r.body)
	}
}

func TestTripEndpoint(t *testing.T) {
	e := start(t, "")
	body, err := os.ReadFile("../evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	r := e.post("/v1/trips/evaluate", "application/json", body)
	if r.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("valid trip without payment: %d %s", r.StatusCode, r.body)
	}
	accept := r.json(t)["accepts"].([]any)[0].(map[string]any)
	if accept["amount"] != "100000" {
		t.Errorf("trip price %v, want 100000 (0.10 USD)", accept["amount"])
	}
	r = e.post("/v1/trips/evaluate", "application/json", []byte(`{"traveler":{"passports":["GER"]},"trip":{"legs":[{"country":"THA","arrival":"2027-13-01"}],"extra":1}}`))
	if r.StatusCode != http.StatusBadRequest {
		t.Fatalf("invalid trip: %d %s", r.StatusCode, r.body)
	}
	fields := map[string]bool{}
	for _, p := range r.json(t)["problems"].([]any) {
		fields[p.(map[string]any)["field"].(string)] = true
	}
	if !fields["/trip/extra"] {
		t.Errorf("problems %s lack the JSON pointer of the unknown field", r.body)
	}
	if r := e.post("/v1/trips/evaluate", "text/plain", body); r.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain trip: %d", r.StatusCode)
	}
	big := append([]byte(`{"traveler":{"passports":["DEU"]},"trip":{"legs":[]},"pad":"`), bytes.Repeat([]byte("x"), 70<<10)...)
	if r := e.post("/v1/trips/evaluate", "application/json", append(big, '"', '}')); r.StatusCode != http.StatusRequestEntityTooLarge || r.json(t)["error"] != "payload_too_large" {
		t.Errorf("oversized trip: %d %s", r.StatusCode, r.body)
	}
}
