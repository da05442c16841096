package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// leaks are what no body may carry, in one list: Go type and package
// names, source positions, SQL and database names, file paths, socket
// addresses. Each pattern is narrow enough to leave a body's legitimate
// content alone: the service's URLs and the sources it cites (whose paths
// may hold a /home/ segment or a github.com repository), ISO codes, and
// the client's own input echoed back.
var leaks = regexp.MustCompile(`(?:` +
	// A qualified Go identifier (*mcp.CallToolParamsRaw, x402.PaymentRequirements).
	`\*?\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b` +
	`|\bGo (?:value|struct field)\b|\bstruct \{|\bpanic\b` +
	// The module's package paths and source positions.
	`|github\.com/entrycheck/|(?:^|[^\w./-])internal/\w|\.go:\d` +
	// SQL and the database drivers.
	`|\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM) [a-z_*]|\bsqlite3?: |\bSQLITE_[A-Z]|\bSQL logic error\b|\bno such (?:table|column)\b|\bpq: |\bpgx\b|\bpgconn\b|\bSQLSTATE\b` +
	// Files of the host, not a segment of a URL's path.
	`|(?:^|[^\w./~%-])/(?:tmp|home|root|work|var|usr|etc)/` +
	// Socket addresses and network errors.
	`|127\.0\.0\.1:\d+|\[::1\]:\d+|\bdial tcp\b)`)

// internals returns what body, the answer to a request for path, tells of
// the service's internals, or "". The Prometheus exposition is exempt: it
// describes the Go runtime's metrics by their Go names, for operators.
func internals(path string, body []byte) string {
	if p, _, _ := strings.Cut(path, "?"); p == "/metrics" {
		return ""
	}
	return string(leaks.Find(body))
}

// TestRefusalsNameTheInput sends the inputs whose refusals once passed the
// decoder's errors through: params of the wrong JSON kind on MCP, a
// payment payload of the wrong shape in _meta and in PAYMENT-SIGNATURE.
// Each refusal must name the member at fault, and nothing internal.
func TestRefusalsNameTheInput(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	trip := `{"traveler":{"passports":["DEU"]},"trip":{"legs":[{"country":"THA","arrival":"2027-05-01"}]}}`
	for _, c := range []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{}}}`, "/name must be a JSON string"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}`, "params must be a JSON object"},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, "/protocolVersion must be a JSON string"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"evaluate_trip","arguments":` + trip + `,"_meta":{"x402/payment":"junk"}}}`, "must be a JSON object, not a string"},
	} {
		r := rawMCP(t, e, c.body)
		if loc := internals("/mcp", bytes.ReplaceAll(r.body, []byte(strings.TrimPrefix(e.url, "http://")), nil)); loc != "" || !strings.Contains(string(r.body), c.want) {
			t.Errorf("%s: the answer tells internals (%s) or does not say %q: %s", c.body, loc, c.want, r.body)
		}
	}
	offer := e.offerOf(checkPath)
	for _, payload := range []string{`"junk"`, `{"signature":5,"authorization":{}}`} {
		b, _ := json.Marshal(map[string]any{"x402Version": 2, "accepted": offer.Accepts[0], "payload": json.RawMessage(payload)})
		r := e.get(checkPath, x402.HeaderPaymentSignature, base64.StdEncoding.EncodeToString(b))
		if loc := internals(checkPath, bytes.ReplaceAll(r.body, []byte(e.url), nil)); r.StatusCode != http.StatusPaymentRequired || loc != "" || !strings.Contains(string(r.body), "must be a JSON") {
			t.Errorf("payload %s: %d, the answer tells internals (%s) or does not name the member: %.400s", payload, r.StatusCode, loc, r.body)
		}
	}
}
