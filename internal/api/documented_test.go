package api_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// documented is one answer openapi.json declares: a status of an
// operation, whose route is its row of discovery.Routes (zero for the
// documents outside the table).
type documented struct {
	method, path string
	route        discovery.Route
	status       int
}

func (d documented) operation() string { return d.method + " " + d.path }

// kinds are what decides how d's answers are had, most particular first:
// the operation itself, then the kinds of route it is of.
func (d documented) kinds() []string {
	out := []string{d.operation()}
	if d.route.Tier == discovery.TierPaid {
		out = append(out, "paid")
	}
	if d.route.Quota != "" {
		out = append(out, "counted")
	}
	if d.route.MaxBody > 0 {
		out = append(out, "body")
	}
	return append(out, "any")
}

// documentedAnswers reads every (operation, status) of the document the
// server serves.
func documentedAnswers(t *testing.T, e *env) []documented {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(apidoc.For(apidoc.SiteOf(e.cfg, evaluatorFor(t, e.cfg))), &doc); err != nil {
		t.Fatal(err)
	}
	var out []documented
	for path, ops := range doc.Paths {
		rt := routeOf(path)
		for method, op := range ops {
			for code := range op.Responses {
				status, err := strconv.Atoi(code)
				if err != nil {
					t.Errorf("%s %s declares the answer %q, not a status a server can be recorded giving", method, path, code)
					continue
				}
				out = append(out, documented{strings.ToUpper(method), path, rt, status})
			}
		}
	}
	slices.SortFunc(out, func(a, b documented) int {
		return cmp.Or(strings.Compare(a.operation(), b.operation()), cmp.Compare(a.status, b.status))
	})
	return out
}

// routeOf is the row of discovery.Routes of path.
func routeOf(path string) discovery.Route {
	i := slices.IndexFunc(discovery.Routes, func(r discovery.Route) bool { return r.Path == path })
	if i < 0 {
		return discovery.Route{}
	}
	return discovery.Routes[i]
}

// exemplar is a request to an operation that the service serves, and one
// it refuses as invalid (400), by the operation's parameters or body.
type exemplar struct {
	target, invalidTarget          string
	contentType, body, invalidBody string
}

// exemplars are those of the operations that take parameters or a body;
// any other operation is a GET of its path.
func exemplars() map[string]exemplar {
	form := "application/x-www-form-urlencoded"
	return map[string]exemplar{
		"GET " + discovery.PathFreeCheck: {target: discovery.PathFreeCheck + "?passport=DEU&destination=THA", invalidTarget: discovery.PathFreeCheck + "?passport=GER&destination=THA"},
		"GET " + discovery.PathCheck:     {target: checkPath, invalidTarget: discovery.PathCheck + "?passport=GER&destination=THA"},
		"GET " + discovery.PathPassport:  {target: "/v1/passport/DEU", invalidTarget: "/v1/passport/GER"},
		"POST " + discovery.PathTrips: {target: discovery.PathTrips, contentType: "application/json",
			body: tripExample, invalidBody: `{"traveler":{"passports":["GER"]},"trip":{"legs":[]}}`},
		"POST " + discovery.PathRegister: {target: discovery.PathRegister, contentType: "application/json",
			body: `{"client_name":"documented answers"}`, invalidBody: `{"client_name":5}`},
		// The valid body needs a client: see served and lost.
		"POST " + discovery.PathToken: {target: discovery.PathToken, contentType: form, invalidBody: "grant_type=password&client_id=a&client_secret=b"},
	}
}

func exemplarOf(d documented) exemplar {
	if x, ok := exemplars()[d.operation()]; ok {
		return x
	}
	return exemplar{target: d.path}
}

// send sends the exemplar to e, with the headers given.
func (x exemplar) send(e *env, header ...string) response {
	if x.contentType == "" {
		return e.get(x.target, header...)
	}
	return e.post(x.target, x.contentType, []byte(x.body), header...)
}

// invalid is the request of x the service refuses as invalid.
func (x exemplar) invalid() exemplar {
	if x.invalidTarget != "" {
		x.target = x.invalidTarget
	}
	x.body = x.invalidBody
	return x
}

// servers are the servers the answers are recorded from, each set up so
// that some answers can be had.
type servers struct {
	// main takes payments with the local facilitator.
	main *env
	// unpaid has no payment address; down has lost its database; noAP2
	// could not read its AP2 key, and runs without AP2.
	unpaid, down, noAP2 *env
	// lost is a client down registered before it lost its database.
	lost quotaCaller
	// counted allows one call a day of each quota scope per address, its
	// clients forwarded by a proxy on 127.0.0.1.
	counted *env
	// crowded serves one request at a time per address, and 127.0.0.1
	// always has one in progress.
	crowded *env
}

func startServers(t *testing.T) servers {
	many := func(c *config.Config) {
		for _, q := range config.QuotaSettings {
			*q.Of(&c.Quotas) = 1 << 20
		}
	}
	s := servers{
		main:   start(t, "", withLocalFacilitator, many),
		unpaid: start(t, "", func(c *config.Config) { c.PayTo = "" }),
		down:   start(t, ""),
		noAP2:  start(t, "", func(c *config.Config) { c.AP2Key = filepath.Join(t.TempDir(), "missing.pem") }),
		counted: start(t, "", many, func(c *config.Config) {
			c.TrustedProxies, _ = config.ParsePrefixes("127.0.0.1")
			c.Quotas.Anonymous, c.Quotas.Registrations, c.Quotas.Tokens = 1, 1, 1
		}),
		crowded: start(t, "", func(c *config.Config) { c.MaxInFlightPerAddr = 1 }),
	}
	s.lost.id, s.lost.secret = s.down.register("lost")
	s.down.store.Close()
	hold(t, s.crowded)
	return s
}

// hold keeps a request from 127.0.0.1 in progress on e until the test
// ends: a body that comes slowly, sent again when it is cut.
func hold(t *testing.T, e *env) {
	addr := strings.TrimPrefix(e.url, "http://")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Go(func() {
		for ctx.Err() == nil {
			slowBody(ctx, &net.Dialer{}, addr, slowHead(discovery.PathTrips, 100), 10*time.Second)
		}
	})
}

// to is e reporting to t, the sub-test that records with it.
func (e *env) to(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// recording is how one documented answer is had: exempt says why it is
// not, where it cannot be without a fault.
type recording struct {
	record func(t *testing.T, s servers, d documented) response
	exempt string
}

// recordings are how each answer is had, by status, then by the kind of
// operation (documented.kinds): a status or kind of route the document
// gains must add its way of being recorded here.
func recordings() map[int]map[string]recording {
	valid := func(of func(servers) *env, header ...string) recording {
		return recording{record: func(t *testing.T, s servers, d documented) response {
			return exemplarOf(d).send(of(s).to(t), header...)
		}}
	}
	main := func(s servers) *env { return s.main }
	return map[int]map[string]recording{
		http.StatusOK: {
			"any":     valid(main),
			"paid":    {record: paid},
			"counted": {record: served},
		},
		http.StatusCreated: {"counted": {record: served}},
		http.StatusBadRequest: {"any": {record: func(t *testing.T, s servers, d documented) response {
			return exemplarOf(d).invalid().send(s.main.to(t))
		}}},
		http.StatusUnauthorized: {
			"GET " + discovery.PathFreeCheck: valid(main, "Authorization", "Bearer nope"),
			"POST " + discovery.PathToken:    {record: wrongSecret},
		},
		http.StatusPaymentRequired:  {"paid": valid(main)},
		http.StatusNotFound:         {"GET " + discovery.PathAP2JWKS: valid(func(s servers) *env { return s.noAP2 })},
		http.StatusMethodNotAllowed: {"any": {record: otherMethod}},
		http.StatusRequestTimeout:   {"body": {record: bodyNeverCame}},
		http.StatusRequestEntityTooLarge: {"body": {record: func(t *testing.T, s servers, d documented) response {
			// Refused on its declared length: with Expect, no byte of it is sent.
			x := exemplarOf(d)
			return s.main.to(t).post(x.target, x.contentType, make([]byte, d.route.MaxBody+1), "Expect", "100-continue")
		}}},
		http.StatusUnsupportedMediaType: {"body": {record: func(t *testing.T, s servers, d documented) response {
			x := exemplarOf(d)
			x.contentType = "text/plain"
			return x.send(s.main.to(t))
		}}},
		http.StatusPartialContent:               {"any": valid(main, "Range", "bytes=0-9")},
		http.StatusNotModified:                  {"any": {record: unchanged}},
		http.StatusRequestedRangeNotSatisfiable: {"any": valid(main, "Range", "bytes=999999999-")},
		http.StatusTooManyRequests: {
			"counted": {record: exhausted},
			"any":     {record: crowded},
		},
		http.StatusInternalServerError: {"any": {exempt: "no route fails without a fault; TestPanicIsTheDocumentedInternalError holds the recoverer's 500 to openapi.json"}},
		http.StatusServiceUnavailable: {
			"paid": valid(func(s servers) *env { return s.unpaid }),
			"POST " + discovery.PathToken: {record: func(t *testing.T, s servers, d documented) response {
				return s.down.to(t).post(d.path, "application/x-www-form-urlencoded", s.lost.tokenForm())
			}},
			"any": valid(func(s servers) *env { return s.down }),
		},
	}
}

// recordingOf is the recording of d: that of its most particular kind.
func recordingOf(all map[int]map[string]recording, d documented) (recording, bool) {
	for _, k := range d.kinds() {
		if r, ok := all[d.status][k]; ok {
			return r, true
		}
	}
	return recording{}, false
}

// unchanged asks again for a document with the ETag of its first answer.
func unchanged(t *testing.T, s servers, d documented) response {
	e, x := s.main.to(t), exemplarOf(d)
	return x.send(e, "If-None-Match", x.send(e).Header.Get("ETag"))
}

// paid pays for d's exemplar with the offer of its 402.
func paid(t *testing.T, s servers, d documented) response {
	e, x := s.main.to(t), exemplarOf(d)
	refusal := x.send(e)
	var offer x402.PaymentRequired
	if err := x402.Decode(refusal.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil {
		t.Fatalf("the offer of %s: %d %v", d.operation(), refusal.StatusCode, err)
	}
	key := mustKey(t)
	return x.send(e, x402.HeaderPaymentSignature, header(t, newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key)))
}

// served makes a valid call of a route that counts against a quota.
func served(t *testing.T, s servers, d documented) response {
	return callOf(t, d)(s.main.to(t), quotaCaller{})
}

func callOf(t *testing.T, d documented) func(*env, quotaCaller) response {
	call, ok := routeCalls()[d.operation()]
	if !ok {
		t.Fatalf("%s counts against a quota: give it a valid call in routeCalls", d.operation())
	}
	return call
}

// wrongSecret asks for a token with a registered client's id and another
// secret.
func wrongSecret(t *testing.T, s servers, d documented) response {
	e := s.main.to(t)
	var c quotaCaller
	c.id, _ = e.register("wrong secret")
	c.secret = "ecs_wrong"
	return e.post(d.path, "application/x-www-form-urlencoded", c.tokenForm())
}

// otherMethod sends DELETE, which no path takes.
func otherMethod(t *testing.T, s servers, d documented) response {
	e := s.main.to(t)
	req, err := http.NewRequest(http.MethodDelete, e.url+exemplarOf(d).target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return e.do(req)
}

// bodyNeverCame sends d's request with a body of 100 bytes that never
// comes: the server cuts it after its deadline.
func bodyNeverCame(t *testing.T, s servers, d documented) response {
	e, x := s.main.to(t), exemplarOf(d)
	req, err := http.NewRequest(d.method, e.url+x.target, strings.NewReader(strings.Repeat(" ", 100)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", x.contentType)
	return e.doWith(&http.Client{Transport: stalledBody{}}, req)
}

// stalledBody sends a request's header and none of its body until the
// answer has been read.
type stalledBody struct{}

func (stalledBody) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	req = req.Clone(req.Context())
	req.Body = pr
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		pw.Close()
		return nil, err
	}
	resp.Body = closing{resp.Body, pw}
	return resp, nil
}

// closing closes a second closer with its body.
type closing struct {
	io.ReadCloser
	also io.Closer
}

func (c closing) Close() error {
	c.also.Close()
	return c.ReadCloser.Close()
}

// exhausted calls d from an address of its own until its quota of one
// call a day refuses it.
func exhausted(t *testing.T, s servers, d documented) response {
	e, call := s.counted.to(t), callOf(t, d)
	c := quotaCaller{header: []string{"X-Forwarded-For", fmt.Sprintf("192.0.2.%d", 1+slices.Index(discovery.Routes, d.route))}}
	if d.path == discovery.PathToken {
		c.id, c.secret = e.register("exhausted")
	}
	var r response
	for range 3 {
		if r = call(e, c); r.StatusCode != http.StatusOK && r.StatusCode != http.StatusCreated {
			break
		}
	}
	return r
}

// crowded sends d's exemplar from 127.0.0.1, which has a request in
// progress, until it is refused for it (the held request is sent again
// when its body is cut).
func crowded(t *testing.T, s servers, d documented) response {
	e, x := s.crowded.to(t), exemplarOf(d)
	r := x.send(e)
	for deadline := time.Now().Add(5 * time.Second); r.StatusCode != http.StatusTooManyRequests && time.Now().Before(deadline); r = x.send(e) {
		time.Sleep(10 * time.Millisecond)
	}
	return r
}

// TestEveryDocumentedAnswerIsRecorded: every answer openapi.json declares,
// each status of each operation, is had from a real server, through the
// harness that holds it to the document (body, status and headers), and
// has the status declared. A status or a kind of route that recordings
// cannot produce fails here, naming the answer.
func TestEveryDocumentedAnswerIsRecorded(t *testing.T) {
	s := startServers(t)
	all := recordings()
	for _, d := range documentedAnswers(t, s.main) {
		t.Run(fmt.Sprintf("%s %d", d.operation(), d.status), func(t *testing.T) {
			t.Parallel()
			rec, ok := recordingOf(all, d)
			switch {
			case !ok:
				t.Fatalf("openapi.json declares %d on %s, which no recording produces: add how to record it to recordings", d.status, d.operation())
			case rec.exempt != "":
				t.Skipf("%d on %s is not recorded: %s", d.status, d.operation(), rec.exempt)
			}
			if r := rec.record(t, s, d); r.StatusCode != d.status {
				t.Errorf("%s recorded %d, want the declared %d: %.500s", d.operation(), r.StatusCode, d.status, r.body)
			}
		})
	}
}
