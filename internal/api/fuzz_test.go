package api_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/config"
)

// The malformed-request suite: a seeded generator of requests that are
// wrong in every way a client, a scanner or an attacker gets them wrong,
// sent over raw TCP so that what net/http's client would refuse to send
// (control bytes, invalid UTF-8, truncated or badly chunked bodies) is
// sent too: 20,000 by default on SQLite and on PostgreSQL (a few seconds
// each); ENTRYCHECK_FUZZ_REQUESTS sets how many and ENTRYCHECK_FUZZ_SEED
// replays or varies a run.

const defaultFuzzRequests = 20_000

func fuzzRequests(t *testing.T) (n int, seed uint64) {
	n, seed = defaultFuzzRequests, 1
	if v := os.Getenv("ENTRYCHECK_FUZZ_REQUESTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("ENTRYCHECK_FUZZ_REQUESTS=%q is not a positive number", v)
		}
	}
	if v := os.Getenv("ENTRYCHECK_FUZZ_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("ENTRYCHECK_FUZZ_SEED=%q is not a number", v)
		}
	}
	return n, seed
}

// lockedBuffer collects the service's log across goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMalformedRequests: no malformed request gets a 5xx, every error a
// handler gives on an API path is JSON, and no body or log line holds a
// client's address, secret or token, or any internal detail.
func TestMalformedRequests(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) { malformedRequests(t, dsn) })
	}
}

// fuzzTally counts what the run saw.
type fuzzTally struct {
	mu                                sync.Mutex
	sent, byHandler, byNetHTTP, noAns int
	status                            map[int]int
	failures                          []string
	// slowest is the longest wait for an answer, and its request line.
	slowest    time.Duration
	slowestReq string
}

func (f *fuzzTally) fail(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.failures) < 30 {
		f.failures = append(f.failures, fmt.Sprintf(format, args...))
	}
}

func malformedRequests(t *testing.T, dsn string) {
	n, seed := fuzzRequests(t)
	logs := &lockedBuffer{}
	e := startLogged(t, t, dsn, nil, logs, func(c *config.Config) {
		c.Quotas.Anonymous, c.Quotas.Network, c.Quotas.Client = 40, 40, 40
	})
	if dsn != "" {
		e.resetPostgres()
	}
	id, secret := e.register("fuzz client")
	tok := e.post("/oauth/token", "application/x-www-form-urlencoded", []byte("grant_type=client_credentials&client_id="+id+"&client_secret="+secret)).json(t)["access_token"].(string)
	secrets := []string{secret, tok}
	addr := e.srv.Listener.Addr().String()

	tally := &fuzzTally{status: map[int]int{}}
	var wg sync.WaitGroup
	const workers = 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			g := generator{rng: rng, host: addr, id: id, secret: secret, token: tok}
			for i := w; i < n; i += workers {
				raw, path := g.request()
				sendMalformed(t, addr, raw, path, secrets, tally)
			}
		}(w)
	}
	wg.Wait()
	t.Logf("%d requests (seed %d): %d answered by handlers, %d refused by net/http before any handler, %d closed without an answer; statuses %v; slowest answer %s (%.80q)",
		tally.sent, seed, tally.byHandler, tally.byNetHTTP, tally.noAns, tally.status, tally.slowest.Round(time.Millisecond), tally.slowestReq)
	for _, f := range tally.failures {
		t.Error(f)
	}
	for code, count := range tally.status {
		if code >= 500 {
			t.Errorf("%d answers with status %d", count, code)
		}
	}
	log := logs.String()
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the log holds a client secret or token")
		}
	}
	if m := clientAddress.FindString(strings.ReplaceAll(log, addr, "SERVER")); m != "" {
		t.Errorf("the log holds a client address (%s)", m)
	}
	if strings.Contains(log, "level=ERROR") {
		i := strings.Index(log, "level=ERROR")
		t.Errorf("a malformed request was logged as an error: %.300s", log[i:])
	}
}

// cutShort marks (as a header) a request whose body is cut short.
const cutShort = "X-Fuzz-Cut-Short"

// clientAddress is a loopback socket address: a client's, once the
// server's own is taken out.
var clientAddress = regexp.MustCompile(`127\.0\.0\.1:\d+|\[::1\]:\d+`)

func sendMalformed(t *testing.T, addr string, raw []byte, path string, secrets []string, tally *fuzzTally) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Errorf("dial: %v", err)
		return
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	conn.Write(raw)
	// Every request is announced whole, so the server waits for nothing
	// more; ending the client's side too would read as a client gone.
	// A body announced longer than sent is ended, so the server sees it
	// cut short.
	if cutShortBody(raw) {
		conn.(*net.TCPConn).CloseWrite()
	}
	started := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: methodOf(raw)})
	tally.mu.Lock()
	tally.sent++
	if d := time.Since(started); d > tally.slowest {
		tally.slowest, tally.slowestReq = d, strings.SplitN(string(raw), "\r\n", 2)[0]
	}
	tally.mu.Unlock()
	if err != nil {
		tally.mu.Lock()
		tally.noAns++
		tally.mu.Unlock()
		return
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	resp.Body.Close()
	tally.mu.Lock()
	tally.status[resp.StatusCode]++
	fromHandler := resp.Header.Get("X-Request-Id") != ""
	if fromHandler {
		tally.byHandler++
	} else {
		tally.byNetHTTP++
	}
	tally.mu.Unlock()
	first := strings.SplitN(string(raw), "\r\n", 2)[0]
	if resp.StatusCode >= 500 {
		tally.fail("%s -> %d: %.300s", first, resp.StatusCode, body)
	}
	if resp.StatusCode == 499 && cutShortBody(raw) {
		return // the client ended its side: recorded as gone, not answered
	}
	if !fromHandler {
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge && resp.StatusCode != http.StatusNotImplemented && resp.StatusCode != http.StatusHTTPVersionNotSupported {
			tally.fail("%s -> %d without a request id: %.200s", first, resp.StatusCode, body)
		}
		return
	}
	checked := bytes.ReplaceAll(body, []byte("http://"+addr), []byte("https://entrycheck.example"))
	if m := clientAddress.Find(checked); m != nil {
		tally.fail("%s -> %d: the body names an address (%s): %.300s", first, resp.StatusCode, m, body)
	}
	for _, s := range secrets {
		if bytes.Contains(body, []byte(s)) {
			tally.fail("%s -> %d: the body holds a secret", first, resp.StatusCode)
		}
	}
	// A compressed body is read for internals by the tests that ask for it plain.
	if loc := internals(path, checked); loc != "" && resp.Header.Get("Content-Encoding") == "" {
		tally.fail("%s -> %d: the body tells internals (%s): %.300s", first, resp.StatusCode, loc, body)
	}
	if resp.StatusCode >= 400 && apiPathForTest(path) && resp.Request.Method != http.MethodHead {
		if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
			tally.fail("%s -> %d with %q: %.200s", first, resp.StatusCode, ct, body)
		}
	}
}

// cutShortBody tells a request whose body ends before it said it would:
// marked so by the generator, or chunked without its last chunk. Its
// sender ends its side, as a client that gave up does, rather than leave
// the server waiting for the rest.
func cutShortBody(raw []byte) bool {
	head, body, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	chunked := bytes.Contains(bytes.ToLower(head), []byte("transfer-encoding: chunked"))
	return bytes.Contains(head, []byte(cutShort)) || chunked && !bytes.HasSuffix(body, []byte("0\r\n\r\n"))
}

func methodOf(raw []byte) string {
	m, _, _ := strings.Cut(string(raw), " ")
	return m
}

// apiPathForTest mirrors the server's split between the API (JSON errors)
// and the site (HTML for browsers).
func apiPathForTest(p string) bool {
	p, _, _ = strings.Cut(p, "?")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	for _, prefix := range []string{"/free/", "/v1/", "/oauth/", "/mcp", "/.well-known/", "/openapi.json", "/stats.json", "/healthz", "/metrics"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// generator makes one malformed request at a time.
type generator struct {
	rng                     *rand.Rand
	host, id, secret, token string
}

func (g generator) pick(list ...string) string { return list[g.rng.IntN(len(list))] }

func (g generator) chance(p float64) bool { return g.rng.Float64() < p }

// junk is bytes of every kind: control bytes, NUL, invalid UTF-8, quotes.
func (g generator) junk(n int) string {
	alphabet := []string{"\x00", "\x01", "\xff", "\xfe", "\xc3", "é", "'", "\"", "<", ">", "&", "%", "%00", "%ff", "%zz", ",", ";", "=", " ", "\t", "A", "z", "9", "..", "/", "\\", "{", "}", "[", "]", "\u202e", "\U0001F600"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(alphabet[g.rng.IntN(len(alphabet))])
	}
	return b.String()
}

func (g generator) value() string {
	switch g.rng.IntN(12) {
	case 0:
		return ""
	case 1:
		return g.junk(1 + g.rng.IntN(12))
	case 2:
		return strings.Repeat("A", 90+g.rng.IntN(400))
	case 3:
		return url.QueryEscape(g.junk(1 + g.rng.IntN(6)))
	}
	return g.pick("DEU", "deu", "GER", "Germany", "de", "THA", "XX", "D3U", "SCHENGEN", "USA,,FRA", "USA,SCHENGEN", "Côte d'Ivoire", "tourism", "business", "study", "<script>", "'; DROP TABLE quotas; --", "%00", "%ff%fe")
}

func (g generator) path() string {
	base := g.pick("/free/check", "/free/check", "/v1/check", "/v1/passport/"+g.value(), "/v1/passport/DEU", "/v1/trips/evaluate", "/v1/trips/evaluate",
		"/oauth/register", "/oauth/token", "/oauth/token", "/mcp", "/mcp", "/stats.json", "/healthz", "/openapi.json", "/metrics",
		"/.well-known/oauth-authorization-server", "/.well-known/mcp/server-card.json", "/.well-known/nope", "/v1/", "/v1/nope", "/free/", "/oauth/",
		"/go", "/passports/deu/tha/", "/passports/"+g.value()+"/", "//free/check", "/free/../v1/check", "/%2e%2e/etc/passwd", "/"+g.junk(4), "/mcp/x")
	if g.chance(0.6) {
		var q []string
		for i := g.rng.IntN(6); i >= 0; i-- {
			k := g.pick("passport", "destination", "transit", "purpose", "visas_of", "residence_permits_of", "residence_permits", "visas_held", "x", g.junk(2), "passport")
			q = append(q, k+"="+g.value())
		}
		base += "?" + strings.Join(q, "&")
	}
	return strings.ReplaceAll(strings.ReplaceAll(base, " ", "%20"), "\r\n", "")
}

var tripExample = `{"traveler":{"passports":["DEU",{"country":"IND","expires":"2031-01-01"}],"visas_of":["USA"]},"trip":{"legs":[{"country":"FRA","arrival":"2027-04-01","departure":"2027-04-10"},{"country":"THA","arrival":"2027-04-11","transit":true}]}}`

func (g generator) body(path string) (contentType, body string) {
	switch {
	case strings.HasPrefix(path, "/oauth/token"):
		forms := []string{"grant_type=client_credentials", "grant_type=client_credentials&client_id=" + g.id + "&client_secret=" + g.junk(8),
			"grant_type=" + g.junk(5), "client_id=" + g.junk(40), "grant_type=client_credentials&client_id=%00&client_secret=%ff", g.junk(30),
			"grant_type=client_credentials&client_id=" + g.id + "&client_secret=" + g.secret + "&scope=" + g.junk(3)}
		return g.pick("application/x-www-form-urlencoded", "application/json", "text/plain", "", "multipart/form-data; boundary=x"), g.pick(forms...)
	case strings.HasPrefix(path, "/oauth/register"):
		bodies := []string{`{"client_name":"` + g.junk(5) + `"}`, `{"client_name":5}`, `{"client_name":"a","redirect_uris":["` + g.junk(6) + `"]}`, `[]`, `null`, `{`, g.junk(20),
			`{"client_name":"` + strings.Repeat("x", 5000) + `"}`, `{"grant_types":["authorization_code"]}`, `{"client_name":"\u0000"}`}
		return g.pick("application/json", "application/json; charset=utf-8", "text/plain", ""), g.pick(bodies...)
	case strings.HasPrefix(path, "/mcp"):
		bodies := []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_entry_requirements","arguments":{"passport":"` + g.value() + `","destination":"` + g.value() + `"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + g.junk(3) + `","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":"x","method":"` + g.junk(6) + `"}`, `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"evaluate_trip","arguments":` + mutate(g, tripExample) + `}}`,
			`[` + g.junk(5) + `]`, `{"jsonrpc":"1.0"}`, g.junk(40), ``, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_dataset_info","_meta":{"x402/payment":"` + g.junk(10) + `"}}}`}
		return g.pick("application/json", "text/plain", "", "application/json-seq"), g.pick(bodies...)
	default:
		return g.pick("application/json", "application/json", "text/plain", "", "application/x-www-form-urlencoded"), g.pick(mutate(g, tripExample), tripExample, `{}`, `[]`, `null`, g.junk(50), `{"traveler":`, strings.Repeat(`{"a":`, 2000), `"\ud800"`)
	}
}

// mutate flips, drops or repeats a few bytes of s, or cuts it short.
func mutate(g generator, s string) string {
	b := []byte(s)
	for i := g.rng.IntN(4); i >= 0 && len(b) > 0; i-- {
		at := g.rng.IntN(len(b))
		switch g.rng.IntN(4) {
		case 0:
			b[at] = byte(g.rng.IntN(256))
		case 1:
			b = append(b[:at], b[at+1:]...)
		case 2:
			b = b[:at]
		default:
			b = append(b[:at], append([]byte(g.junk(2)), b[at:]...)...)
		}
	}
	return string(b)
}

// request is one raw HTTP/1.1 request and its path.
func (g generator) request() ([]byte, string) {
	method := g.pick("GET", "GET", "GET", "POST", "POST", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "BREW")
	path := g.path()
	var h strings.Builder
	fmt.Fprintf(&h, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, g.pick(g.host, g.host, g.host, "evil.example", g.junk(3)))
	header := func(k, v string) {
		fmt.Fprintf(&h, "%s: %s\r\n", k, strings.NewReplacer("\r", "", "\n", "").Replace(v))
	}
	if g.chance(0.3) {
		header("Authorization", g.pick("Bearer "+g.token, "Bearer "+g.junk(20), "Bearer", "Basic "+base64.StdEncoding.EncodeToString([]byte(g.id+":"+g.secret)), "Basic "+g.junk(6), g.junk(10), "Bearer \x00\xff"))
	}
	if g.chance(0.2) {
		header("PAYMENT-SIGNATURE", g.pick(base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2,"payload":`+g.junk(8)+`}`)), g.junk(30), base64.StdEncoding.EncodeToString([]byte(mutate(g, `{"x402Version":2,"resource":{"url":"http://x/v1/check"},"accepted":{"scheme":"exact","network":"eip155:8453","amount":"30000"},"payload":{"signature":"0x00","authorization":{"from":"0x0","to":"0x0","value":"30000","validAfter":"0","validBefore":"9999999999","nonce":"0x00"}}}`)))))
	}
	if g.chance(0.15) {
		header("Range", g.pick("bytes=0-10", "bytes=-5", "bytes=99999-", "bytes=5-1", "bytes="+g.junk(4), "lines=1-2", "bytes=0-1,2-3,4-5"))
	}
	if g.chance(0.2) {
		header("Accept", g.pick("application/json", "text/markdown", "text/html", "*/*", "application/json, text/event-stream", g.junk(6)))
	}
	if g.chance(0.2) {
		header("Accept-Encoding", g.pick("gzip", "br", "identity;q=0", "*;q=0", g.junk(5)))
	}
	if g.chance(0.15) {
		header(g.pick("X-Forwarded-For", "Forwarded"), g.pick("203.0.113.9", "203.0.113.9:4711", "for=_hidden", "for=\"[2001:db8::1]:80\"", g.junk(8), "unknown"))
	}
	if g.chance(0.1) {
		header(g.pick("Mcp-Session-Id", "Mcp-Protocol-Version", "Origin", "If-None-Match", "If-Modified-Since", "X-Request-Id"), g.junk(10))
	}
	var body string
	ct := ""
	if method != "GET" && method != "HEAD" || g.chance(0.05) {
		ct, body = g.body(path)
	}
	if ct != "" {
		header("Content-Type", ct)
	}
	switch {
	case body != "" && g.chance(0.1):
		// A body cut short: announced longer than sent.
		header("Content-Length", strconv.Itoa(len(body)+10+g.rng.IntN(100)))
		header(cutShort, "1")
		h.WriteString("\r\n" + body)
	case body != "" && g.chance(0.1):
		// Chunked, sometimes badly.
		header("Transfer-Encoding", "chunked")
		h.WriteString("\r\n")
		fmt.Fprintf(&h, "%x\r\n%s\r\n", len(body), body)
		h.WriteString(g.pick("0\r\n\r\n", "zz\r\n", "5\r\nab", ""))
	default:
		header("Content-Length", strconv.Itoa(len(body)))
		h.WriteString("\r\n" + body)
	}
	return []byte(h.String()), path
}
