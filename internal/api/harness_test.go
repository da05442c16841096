package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	validatorerrors "github.com/pb33f/libopenapi-validator/errors"

	"github.com/entrycheck/entrycheck/internal/api"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/store"
)

// testClock is a clock the tests move.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

const payTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"

// env is a running service over real HTTP with a real database.
type env struct {
	t       *testing.T
	srv     *httptest.Server
	url     string
	clock   *testClock
	store   *store.Store
	dsn     string
	cfg     config.Config
	openapi validator.Validator
	service *api.Server
}

type option func(*config.Config)

// withPrevious serves the previous snapshot, whose data shows what the
// current one does not (a route conflicting with an official statement).
func withPrevious(c *config.Config) {
	c.MatrixDir = filepath.Join(filepath.Dir(c.MatrixDir), datatest.Previous)
}

// evaluatorFor is the evaluator of the shared snapshot the configuration
// names (see withPrevious), else of the current one.
func evaluatorFor(tb testing.TB, cfg config.Config) *evaluation.Evaluator {
	if filepath.Base(cfg.MatrixDir) == datatest.Previous {
		return datatest.EvaluatorOf(tb, datatest.Previous)
	}
	return datatest.Evaluator(tb)
}

// start runs the service on a fresh SQLite file, or on dsn when given (a
// PostgreSQL URL, or a file to reopen after a restart).
func start(t *testing.T, dsn string, opts ...option) *env {
	t.Helper()
	return startTB(t, t, dsn, opts...)
}

// startBench starts the service for a benchmark, on a fresh SQLite file.
func startBench(b *testing.B, opts ...option) *env {
	return startTB(b, nil, "", opts...)
}

func startTB(tb testing.TB, t *testing.T, dsn string, opts ...option) *env {
	tb.Helper()
	return startGate(tb, t, dsn, nil, opts...)
}

// startGate starts the service with a payment gate; nil means the gate
// serve would make from the configuration.
func startGate(tb testing.TB, t *testing.T, dsn string, gate payment.Gate, opts ...option) *env {
	tb.Helper()
	var logs io.Writer = io.Discard
	if os.Getenv("ENTRYCHECK_TEST_LOG") != "" {
		logs = os.Stderr
	}
	return startLogged(tb, t, dsn, gate, logs, opts...)
}

// startLogged starts the service writing its log to logs.
func startLogged(tb testing.TB, t *testing.T, dsn string, gate payment.Gate, logs io.Writer, opts ...option) *env {
	tb.Helper()
	if dsn == "" {
		dsn = filepath.Join(tb.TempDir(), "entrycheck.db")
	}
	e := &env{t: t, dsn: dsn, clock: &testClock{now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}}
	e.srv = httptest.NewUnstartedServer(nil)
	e.url = "http://" + e.srv.Listener.Addr().String()
	e.cfg = config.Default()
	e.cfg.BaseURL = e.url
	e.cfg.PayTo = payTo
	e.cfg.PublicDir = tb.TempDir()
	// The tests send up to 200 requests at once from one address, where
	// serve would see as many clients; slowclients_test.go holds the
	// bound per address itself.
	e.cfg.MaxInFlightPerAddr = 1 << 10
	for _, o := range opts {
		o(&e.cfg)
	}
	st, err := store.Open(context.Background(), dsn, store.WithTimeout(e.cfg.DBTimeout))
	if err != nil {
		e.srv.Close()
		tb.Fatal(err)
	}
	e.store = st
	log := slog.New(slog.NewTextHandler(logs, nil))
	if gate == nil {
		gate, err = payment.NewGate(e.cfg, st, e.clock) // nil (challenge only) unless an option sets Facilitator
		if err != nil {
			tb.Fatal(err)
		}
	}
	e.service = api.NewServer(api.Deps{
		Evaluator: evaluatorFor(tb, e.cfg), Store: st, Config: e.cfg, Clock: e.clock, Logger: log,
		IPHashKey: []byte("test-key-test-key-test-key-test-key"), Payments: gate,
	})
	e.srv.Config.Handler = e.service.Handler()
	e.srv.Start()
	tb.Cleanup(func() {
		e.srv.Close()
		st.Close()
	})
	doc, err := libopenapi.NewDocument(apidoc.For(apidoc.SiteOf(e.cfg, evaluatorFor(tb, e.cfg))))
	if err != nil {
		tb.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		tb.Fatalf("openapi.json: %v", errs)
	}
	e.openapi = v
	return e
}

// restart stops the service and starts a new one on the same database.
func (e *env) restart(opts ...option) *env {
	e.srv.Close()
	e.store.Close()
	n := start(e.t, e.dsn, opts...)
	n.clock.now = e.clock.Now()
	return n
}

// response is a finished exchange whose body has been read.
type response struct {
	*http.Response
	body []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// do sends a request and checks the response against openapi.json.
func (e *env) do(req *http.Request) response {
	e.t.Helper()
	return e.doWith(http.DefaultClient, req)
}

func (e *env) doWith(c *http.Client, req *http.Request) response {
	e.t.Helper()
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		e.t.Fatal(err)
	}
	e.validate(req, reqBody, resp, body)
	return response{resp, body}
}

var validateMu sync.Mutex

// validate checks one exchange against the OpenAPI document.
func (e *env) validate(req *http.Request, reqBody []byte, resp *http.Response, body []byte) {
	e.t.Helper()
	validateMu.Lock() // the validator keeps caches that are not safe for concurrent use
	defer validateMu.Unlock()
	vreq := req.Clone(context.Background())
	if reqBody != nil {
		vreq.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	vresp := *resp
	vresp.Body = io.NopCloser(bytes.NewReader(body))
	ok, errs := e.openapi.ValidateHttpResponse(vreq, &vresp)
	if !ok && resp.StatusCode == http.StatusMethodNotAllowed && outsideTheAPI(errs) {
		// A method the path does not take: OpenAPI lists a path's
		// operations only, and each declares the 405 every other method
		// gets; validate the answer as that of the path's operation.
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			vreq.Method = m
			vresp.Body = io.NopCloser(bytes.NewReader(body))
			if ok, errs = e.openapi.ValidateHttpResponse(vreq, &vresp); ok || !outsideTheAPI(errs) {
				break
			}
		}
	}
	if !ok {
		if (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed) && outsideTheAPI(errs) {
			return // a path outside the API (a page, an unknown path), answered with the documented error shape
		}
		for _, err := range errs {
			e.t.Errorf("%s %s -> %d does not match openapi.json: %s %s %v", req.Method, req.URL.Path, resp.StatusCode, err.Message, err.Reason, err.SchemaValidationErrors)
		}
		e.t.Logf("body: %.2000s", body)
	}
}

// outsideTheAPI tells whether the validator found no operation for an
// exchange.
func outsideTheAPI(errs []*validatorerrors.ValidationError) bool {
	return len(errs) == 1 && errs[0].ValidationType == "path"
}

func (e *env) get(path string, header ...string) response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.url+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return e.do(req)
}

func (e *env) post(path, contentType string, body []byte, header ...string) response {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return e.do(req)
}

// parallel runs fn n times at once and returns the status codes and bodies.
func parallel(n int, fn func(i int) response) []response {
	out := make([]response, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = fn(i)
		}(i)
	}
	wg.Wait()
	return out
}

func countStatus(rs []response) map[int]int {
	m := map[int]int{}
	for _, r := range rs {
		m[r.StatusCode]++
	}
	return m
}
