package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

func TestFreeCheck(t *testing.T) {
	e := start(t, "")
	r := e.get("/free/check?passport=DEU&destination=THA")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", r.StatusCode, r.body)
	}
	m := r.json(t)
	if m["requirement"] != "visa_free" || m["allowed_stay_days"] != float64(60) || m["request_id"] != r.Header.Get("X-Request-Id") {
		t.Errorf("DEU to THA: %v %v, request_id %v vs header %s", m["requirement"], m["allowed_stay_days"], m["request_id"], r.Header.Get("X-Request-Id"))
	}
	if r.Header.Get("X-RateLimit-Limit") != "5" || r.Header.Get("X-RateLimit-Remaining") != "4" || r.Header.Get("X-RateLimit-Reset") != "1795392000" {
		t.Errorf("rate-limit headers: %v", r.Header)
	}
	if r.Header.Get("Access-Control-Allow-Origin") != "*" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("CORS or security headers missing: %v", r.Header)
	}
	// The client's own request id is kept.
	r = e.get("/free/check?passport=gbr&destination=usa&transit=CAN", "X-Request-Id", "my-trace-0001")
	if m := r.json(t); m["request_id"] != "my-trace-0001" || m["requirement"] != "eta" || m["apply"] == nil || m["transit"] == nil {
		t.Errorf("GBR to USA: %v", m)
	}
}

// TestDataGapsAreNotErrors: an uncovered code is unknown; a conflict with
// an official statement (USA to BRA in the previous snapshot; the current
// one agrees with the statement) is needs_review.
func TestDataGapsAreNotErrors(t *testing.T) {
	for _, c := range []struct {
		e       *env
		q, want string
	}{
		{start(t, ""), "passport=DEU&destination=PRI", "unknown"},
		{start(t, "", withPrevious), "passport=USA&destination=BRA", "needs_review"},
	} {
		r := c.e.get("/free/check?" + c.q)
		if m := r.json(t); r.StatusCode != http.StatusOK || m["requirement"] != c.want || m["action"] != "check_official_authority" {
			t.Errorf("%s: %d %v %v", c.q, r.StatusCode, m["requirement"], m["action"])
		}
	}
}

func TestCheckErrors(t *testing.T) {
	e := start(t, "")
	cases := []struct {
		query, field, code, suggestion string
	}{
		{"destination=THA", "passport", "missing", ""},
		{"passport=GER&destination=THA", "passport", "unknown_country_code", "DEU"},
		{"passport=Germny&destination=THA", "passport", "unknown_country_code", "DEU"},
		{"passport=DEU&destination=UK", "destination", "malformed_country_code", "GBR"},
		{"passport=DEU&destination=THA&pasport=DEU", "pasport", "unknown_parameter", ""},
		{"passport=DEU&destination=THA&transit=SIN", "transit", "unknown_country_code", "SGP"},
		{"passport=DEU&destination=THA&purpose=study", "purpose", "unsupported_purpose", ""},
		{"passport=DEU&passport=FRA&destination=THA", "passport", "repeated_parameter", ""},
		{"passport=DEU&destination=THA&visas_of=USA,,FRA", "visas_of", "missing", ""},
	}
	for _, c := range cases {
		r := e.get("/free/check?" + c.query)
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d", c.query, r.StatusCode)
			continue
		}
		var got *map[string]any
		for _, p := range r.json(t)["problems"].([]any) {
			p := p.(map[string]any)
			if p["field"] == c.field && p["code"] == c.code {
				got = &p
			}
		}
		if got == nil {
			t.Errorf("%s: no problem %s/%s in %s", c.query, c.field, c.code, r.body)
			continue
		}
		if c.suggestion != "" {
			s, _ := (*got)["suggestions"].([]any)
			if len(s) == 0 || s[0].(map[string]any)["iso3"] != c.suggestion {
				t.Errorf("%s: suggestions %v, want %s first", c.query, (*got)["suggestions"], c.suggestion)
			}
		}
	}
	// Invalid requests use no quota.
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("invalid requests were counted: remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
	if r := e.get("/nowhere"); r.StatusCode != http.StatusNotFound || r.json(t)["error"] != "not_found" {
		t.Errorf("unknown path: %d %s", r.StatusCode, r.body)
	}
	if r := e.post("/free/check", "application/json", []byte("{}")); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /free/check: %d", r.StatusCode)
	}
}

func TestCORSPreflight(t *testing.T) {
	e := start(t, "")
	req, _ := http.NewRequest(http.MethodOptions, e.url+"/free/check?passport=DEU&destination=THA", nil)
	req.Header.Set("Origin", "https://example.org")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "authorization")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") {
		t.Errorf("preflight: %d %v", resp.StatusCode, h)
	}
}

func TestServiceEndpoints(t *testing.T) {
	e := start(t, "")
	e.get("/free/check?passport=DEU&destination=THA")
	e.get("/free/check?passport=DEU&destination=FRA")
	s := e.get("/stats.json").json(t)
	if s["free_checks_today"] != float64(2) || s["dataset_version"] != datatest.Current || s["paid_calls_today"] != float64(0) {
		t.Errorf("stats: %v", s)
	}
	if h := e.get("/healthz"); h.StatusCode != http.StatusOK || h.json(t)["database"] != "ok" {
		t.Errorf("healthz: %d %s", h.StatusCode, h.body)
	}
	m := e.get("/metrics")
	if !strings.Contains(string(m.body), "entrycheck_free_checks_total 2") || !strings.Contains(string(m.body), `entrycheck_http_requests_total{method="GET",route="/free/check",status="200"} 2`) {
		t.Errorf("metrics lack the free checks:\n%.3000s", m.body)
	}
	doc := e.get("/openapi.json").json(t)
	servers := doc["servers"].([]any)
	if doc["openapi"] != "3.1.0" || servers[0].(map[string]any)["url"] != e.url {
		t.Errorf("openapi.json: version %v, servers %v", doc["openapi"], servers)
	}
	for _, p := range []string{"/free/check", "/v1/check", "/v1/passport/{iso3}", "/v1/trips/evaluate", "/oauth/register", "/oauth/token", "/stats.json", "/healthz", "/metrics"} {
		if _, ok := doc["paths"].(map[string]any)[p]; !ok {
			t.Errorf("openapi.json lacks %s", p)
		}
	}
	prm := e.get("/.well-known/oauth-protected-resource").json(t)
	if prm["resource"] != e.url {
		t.Errorf("protected resource metadata: %v", prm)
	}
	asm := e.get("/.well-known/oauth-authorization-server").json(t)
	if asm["token_endpoint"] != e.url+"/oauth/token" || asm["registration_endpoint"] != e.url+"/oauth/register" {
		t.Errorf("authorization server metadata: %v", asm)
	}
	_ = strconv.Itoa
}

// Countries are accepted by alpha-3 or alpha-2 code or by name wherever a
// code is (TestCountriesByCodeOrName in evaluation has the cases); the
// answer echoes the resolved alpha-3 code.
func TestCountriesByNameOnEverySurface(t *testing.T) {
	e := start(t, "")
	r := e.get("/free/check?passport=Germany&destination=th")
	m := r.json(t)
	p, _ := m["passport"].(map[string]any)
	d, _ := m["destination"].(map[string]any)
	if r.StatusCode != http.StatusOK || p["iso3"] != "DEU" || d["iso3"] != "THA" {
		t.Errorf("/free/check by name: %d %v %v", r.StatusCode, p, d)
	}
	// Paid endpoints take names too: the request is valid, so they ask to be paid.
	for _, path := range []string{"/v1/check?passport=Germany&destination=Thailand", "/v1/passport/Germany"} {
		if r := e.get(path); r.StatusCode != http.StatusPaymentRequired {
			t.Errorf("%s: %d, want 402 (a valid request)", path, r.StatusCode)
		}
	}
	trip := `{"traveler":{"passports":["Germany"]},"trip":{"legs":[{"country":"Thailand","arrival":"2027-01-10","departure":"2027-01-20"}]}}`
	if r := e.post("/v1/trips/evaluate", "application/json", []byte(trip)); r.StatusCode != http.StatusPaymentRequired {
		t.Errorf("trip by names: %d %s, want 402 (a valid request)", r.StatusCode, r.body)
	}
	cs := e.connectMCP(nil, "")
	res := callTool(t, cs, "check_entry_requirements", checkArgs("Germany", "TH"))
	if res.IsError {
		t.Fatalf("MCP check by name refused: %+v", res.Content)
	}
	out, _ := res.StructuredContent.(map[string]any)
	if pp, _ := out["passport"].(map[string]any); pp["iso3"] != "DEU" {
		t.Errorf("MCP check by name: passport %v", out["passport"])
	}
}
