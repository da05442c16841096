package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// errorCase is one bad request to one endpoint.
type errorCase struct {
	name, method, path, contentType, body string
	header                                []string
	// status is the answer expected.
	status int
}

// errorShape is what an error body must be, by endpoint family.
type errorShape int

const (
	// apiError is {"error": code, "message": ...}.
	apiError errorShape = iota
	// oauthError is RFC 6749 section 5.2 / RFC 7591 section 3.2.2:
	// {"error": code, "error_description": ...}.
	oauthError
	// rpcError is a JSON-RPC 2.0 response with an error object.
	rpcError
)

func shapeOf(path string) errorShape {
	switch {
	case path == "/oauth/register" || path == "/oauth/token":
		return oauthError
	case path == "/mcp":
		return rpcError
	}
	return apiError
}

// machineCode is a stable error code: lower snake case.
var machineCode = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// TestEveryErrorIsJSON sends bad requests of every kind to every endpoint
// and checks that each answer is a JSON error in its endpoint's shape, with
// a machine code and a message a person can act on, and nothing internal.
// Each GET is sent as HEAD too, which gets the same status and JSON
// Content-Type without the body. The 405s of every path and method are
// TestEveryOtherMethodIs405's.
func TestEveryErrorIsJSON(t *testing.T) {
	e := start(t, "")
	big := strings.Repeat("x", 70<<10)
	cases := []errorCase{
		{name: "no parameters", method: "GET", path: "/free/check", status: 400},
		{name: "unknown code", method: "GET", path: "/free/check?passport=GER&destination=THA", status: 400},
		{name: "malformed code", method: "GET", path: "/free/check?passport=D3U&destination=THA", status: 400},
		{name: "unknown parameter", method: "GET", path: "/free/check?passport=DEU&destination=THA&x=1", status: 400},
		{name: "invalid token", method: "GET", path: "/free/check?passport=DEU&destination=THA", header: []string{"Authorization", "Bearer nope"}, status: 401},
		{name: "basic scheme", method: "GET", path: "/free/check?passport=DEU&destination=THA", header: []string{"Authorization", "Basic Zm9vOmJhcg=="}, status: 401},
		{name: "no parameters", method: "GET", path: "/v1/check", status: 400},
		{name: "unpaid", method: "GET", path: "/v1/check?passport=DEU&destination=THA", status: 402},
		{name: "garbage payment", method: "GET", path: "/v1/check?passport=DEU&destination=THA", header: []string{"PAYMENT-SIGNATURE", "not base64 !"}, status: 402},
		{name: "unknown code", method: "GET", path: "/v1/passport/XX1", status: 400},
		{name: "unpaid", method: "GET", path: "/v1/passport/DEU", status: 402},
		{name: "malformed JSON", method: "POST", path: "/v1/trips/evaluate", contentType: "application/json", body: `{"traveler":`, status: 400},
		{name: "empty body", method: "POST", path: "/v1/trips/evaluate", contentType: "application/json", status: 400},
		{name: "not JSON", method: "POST", path: "/v1/trips/evaluate", contentType: "text/plain", body: "hello", status: 415},
		{name: "too large", method: "POST", path: "/v1/trips/evaluate", contentType: "application/json", body: `{"x":"` + big + `"}`, status: 413},
		{name: "invalid trip", method: "POST", path: "/v1/trips/evaluate", contentType: "application/json", body: `{"traveler":{"passports":["GER"]},"trip":{"legs":[]}}`, status: 400},
		{name: "malformed JSON", method: "POST", path: "/oauth/register", contentType: "application/json", body: `{"client_name":`, status: 400},
		{name: "wrong type", method: "POST", path: "/oauth/register", contentType: "application/json", body: `{"client_name":5}`, status: 400},
		{name: "not JSON", method: "POST", path: "/oauth/register", contentType: "text/plain", body: "hello", status: 415},
		{name: "too large", method: "POST", path: "/oauth/register", contentType: "application/json", body: `{"client_name":"` + big + `"}`, status: 413},
		{name: "no grant", method: "POST", path: "/oauth/token", contentType: "application/x-www-form-urlencoded", body: "", status: 400},
		{name: "unsupported grant", method: "POST", path: "/oauth/token", contentType: "application/x-www-form-urlencoded", body: "grant_type=password&client_id=a&client_secret=b", status: 400},
		{name: "unknown client", method: "POST", path: "/oauth/token", contentType: "application/x-www-form-urlencoded", body: "grant_type=client_credentials&client_id=nobody&client_secret=nothing", status: 401},
		{name: "malformed JSON-RPC", method: "POST", path: "/mcp", contentType: "application/json", body: `{"jsonrpc":`, header: []string{"Accept", "application/json, text/event-stream"}, status: 400},
		{name: "unknown API path", method: "GET", path: "/v1/nowhere", status: 404},
		{name: "unknown OAuth path", method: "GET", path: "/oauth/nowhere", status: 404},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path+" "+c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, e.url+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			for i := 0; i+1 < len(c.header); i += 2 {
				req.Header.Set(c.header[i], c.header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.status, body)
			}
			// The service's own base URL is no leak (the 402 names the resource).
			checkErrorBody(t, c.path, resp, bytes.ReplaceAll(body, []byte(e.url), []byte("https://entrycheck.example")))
			if c.method == http.MethodGet {
				req.Method = http.MethodHead
				head, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, head.Body)
				head.Body.Close()
				if head.StatusCode != c.status || n > 0 || head.Header.Get("Content-Type") != resp.Header.Get("Content-Type") {
					t.Errorf("HEAD: status %d, Content-Type %q, %d bytes of body; GET: %d, %q", head.StatusCode, head.Header.Get("Content-Type"), n, resp.StatusCode, resp.Header.Get("Content-Type"))
				}
			}
		})
	}
}

// checkErrorBody checks one error answer against its endpoint's shape.
func checkErrorBody(t *testing.T, path string, resp *http.Response, body []byte) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
		t.Errorf("Content-Type %q, want JSON: %s", ct, body)
		return
	}
	if loc := internals(path, body); loc != "" {
		t.Errorf("the body tells internals (%s): %s", loc, body)
	}
	var m map[string]any
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&m); err != nil {
		t.Errorf("not a JSON object: %v: %s", err, body)
		return
	}
	code, _ := m["error"].(string)
	switch shapeOf(strings.SplitN(path, "?", 2)[0]) {
	case oauthError:
		if desc, _ := m["error_description"].(string); !machineCode.MatchString(code) || len(desc) < 10 {
			t.Errorf("not an OAuth error (error, error_description): %s", body)
		}
	case rpcError:
		rpcErr, _ := m["error"].(map[string]any)
		if msg, _ := rpcErr["message"].(string); m["jsonrpc"] != "2.0" || rpcErr["code"] == nil || msg == "" {
			t.Errorf("not a JSON-RPC error: %s", body)
		}
	default:
		msg, _ := m["message"].(string)
		if resp.StatusCode == http.StatusPaymentRequired {
			// The x402 PaymentRequired: its error member is the message
			// (x402 v2), the machine code is in code, the offer in accepts.
			code, _ = m["code"].(string)
			msg, _ = m["error"].(string)
			if _, ok := m["accepts"]; !ok {
				t.Errorf("a 402 without the x402 offer: %s", body)
			}
		}
		if !machineCode.MatchString(code) || len(msg) < 10 {
			t.Errorf("not an API error (error code, message): %s", body)
		}
	}
}
