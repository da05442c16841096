package pagefetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

// testUA is the User-Agent of the fetchers under test.
const testUA = "entrycheck-verifier/1 (+https://example.org/transparency/)"

// testConfig is a Config fast enough for tests: tiny backoff and pacing.
func testConfig() pagefetch.Config {
	return pagefetch.Config{
		UserAgent:    testUA,
		Timeout:      2 * time.Second,
		Retries:      2,
		Backoff:      time.Millisecond,
		MaxBackoff:   5 * time.Millisecond,
		HostInterval: time.Millisecond,
	}
}

func newFetcher(t *testing.T, cfg pagefetch.Config) *pagefetch.Fetcher {
	t.Helper()
	f, err := pagefetch.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

// fetchOne fetches one request and returns its result.
func fetchOne(t *testing.T, f *pagefetch.Fetcher, req pagefetch.Request) pagefetch.Result {
	t.Helper()
	results := f.FetchAll(context.Background(), []pagefetch.Request{req}, nil)
	if len(results) != 1 {
		t.Fatalf("FetchAll returned %d results for 1 request", len(results))
	}
	return results[0]
}

// wantStatus fails the test unless r has the status (and, for a failure,
// the reason) wanted.
func wantStatus(t *testing.T, r pagefetch.Result, status pagefetch.Status, reason string) {
	t.Helper()
	if r.Status != status || r.Reason != reason {
		t.Fatalf("%s: got status %q reason %q (problem %q), want %q %q", r.URL, r.Status, r.Reason, r.Problem, status, reason)
	}
}

// hit is one request a site received.
type hit struct {
	path   string
	at     time.Time
	header http.Header
}

// site is a local official site: it answers the paths given to handle,
// 404 to everything else (robots.txt included unless handled), and logs
// every request.
type site struct {
	srv *httptest.Server

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc
	hits     []hit
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{handlers: map[string]http.HandlerFunc{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, hit{path: r.URL.Path, at: time.Now(), header: r.Header.Clone()})
		h := s.handlers[r.URL.Path]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[path] = h
}

func (s *site) url(path string) string { return s.srv.URL + path }

// host is the site's host:port, as robots.txt problems name it.
func (s *site) host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

// requests returns the requests received for path.
func (s *site) requests(path string) []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []hit
	for _, h := range s.hits {
		if h.path == path {
			out = append(out, h)
		}
	}
	return out
}

// all returns every request received, in order.
func (s *site) all() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]hit(nil), s.hits...)
}

// serveHTML answers with an HTML body.
func serveHTML(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
}

// serveText answers with a body of the given type.
func serveText(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}
}

// mutablePage serves whatever HTML was last set.
type mutablePage struct {
	mu   sync.Mutex
	body string
}

func (p *mutablePage) set(body string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.body = body
}

func (p *mutablePage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	body := p.body
	p.mu.Unlock()
	serveHTML(body)(w, r)
}

// govPage is the variable part of a realistic travel-advice page: the
// entry rule (Validity) and everything around it that changes without the
// rules changing.
type govPage struct {
	Validity    string
	CookieText  string
	NavLinks    []string
	Alert       string
	Related     string
	CurrentAt   string
	Updated     string
	Generated   string
	Views       string
	LastUpdated string
	Footer      string
}

func defaultGovPage() govPage {
	return govPage{
		Validity:    "six months",
		CookieText:  "We use some essential cookies to make this service work.",
		NavLinks:    []string{"Topics", "Government activity"},
		Alert:       "Coronavirus: check what you need to do before travelling.",
		Related:     "Foreign travel checklist",
		CurrentAt:   "22 November 2026",
		Updated:     "3 March 2026",
		Generated:   "22 November 2026 14:05",
		Views:       "1,234",
		LastUpdated: "3 March 2026",
		Footer:      "All content is available under the Open Government Licence v3.0, except where otherwise stated. © Crown copyright 2026",
	}
}

func (p govPage) render(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("testdata/govpage.html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("page").Parse(string(src)))
	var b strings.Builder
	if err := tmpl.Execute(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
