package pagefetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

func TestNewRequiresUserAgent(t *testing.T) {
	for _, ua := range []string{"", "   ", "bad\r\nX-Injected: 1", "/1.0"} {
		if _, err := pagefetch.New(pagefetch.Config{UserAgent: ua}); err == nil {
			t.Errorf("New accepted User-Agent %q", ua)
		}
	}
	if _, err := pagefetch.New(pagefetch.Config{UserAgent: testUA}); err != nil {
		t.Errorf("New: %v", err)
	}
}

// statusSequence answers the statuses in turn, the last one from then on;
// 200 serves a small page.
func statusSequence(statuses ...int) http.HandlerFunc {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		i := min(int(n.Add(1))-1, len(statuses)-1)
		switch status := statuses[i]; status {
		case http.StatusOK:
			serveHTML("<main><p>Visa on arrival for 30 days.</p></main>")(w, r)
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(status)
		default:
			w.WriteHeader(status)
		}
	}
}

func TestHTTPStatusesAndRetries(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int
		status   pagefetch.Status
		reason   string
		attempts int
		problem  string
	}{
		{"404 is final", []int{404}, pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 1, "HTTP 404 Not Found after 1 attempt"},
		{"410 is final", []int{410}, pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 1, "HTTP 410 Gone after 1 attempt"},
		{"403 is final", []int{403}, pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 1, "HTTP 403 Forbidden after 1 attempt"},
		{"500 is retried", []int{500}, pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 3, "HTTP 500 Internal Server Error after 3 attempts"},
		{"503 then 200", []int{503, 200}, pagefetch.StatusOK, "", 2, ""},
		{"429 with Retry-After 0", []int{429, 200}, pagefetch.StatusOK, "", 2, ""},
		{"502 twice then 200", []int{502, 502, 200}, pagefetch.StatusOK, "", 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			s.handle("/page", statusSequence(tt.statuses...))
			r := fetchOne(t, newFetcher(t, testConfig()), pagefetch.Request{URL: s.url("/page")})
			wantStatus(t, r, tt.status, tt.reason)
			if r.Attempts != tt.attempts || len(s.requests("/page")) != tt.attempts {
				t.Errorf("%d attempts, server saw %d, want %d", r.Attempts, len(s.requests("/page")), tt.attempts)
			}
			if r.Problem != tt.problem {
				t.Errorf("problem %q, want %q", r.Problem, tt.problem)
			}
			if r.HTTPStatus != tt.statuses[len(tt.statuses)-1] {
				t.Errorf("HTTP status %d", r.HTTPStatus)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	s := newSite(t)
	s.handle("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done(): // the client gave up: end now
		case <-time.After(10 * time.Second):
		}
	})
	cfg := testConfig()
	cfg.Timeout = 100 * time.Millisecond
	start := time.Now()
	r := fetchOne(t, newFetcher(t, cfg), pagefetch.Request{URL: s.url("/slow")})
	wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonTimeout)
	if r.Problem != "timed out after 100ms (3 attempts)" || r.Attempts != 3 {
		t.Errorf("problem %q, %d attempts", r.Problem, r.Attempts)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestRedirects(t *testing.T) {
	s := newSite(t)
	redirect := func(to string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) }
	}
	s.handle("/a", redirect("/b"))
	s.handle("/b", redirect("/a"))
	for i := range 10 {
		s.handle(fmt.Sprintf("/chain/%d", i), redirect(fmt.Sprintf("/chain/%d", i+1)))
	}
	s.handle("/chain/10", serveHTML("<p>end of the chain</p>"))
	s.handle("/old", redirect("/new"))
	s.handle("/new", serveHTML("<p>Moved rules</p>"))
	s.handle("/mailto", redirect("mailto:consulate@example.org"))
	f := newFetcher(t, testConfig())

	t.Run("loop", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/a")})
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonRedirectLoop)
		if !strings.HasPrefix(r.Problem, "redirect loop back to ") || r.Attempts != 1 {
			t.Errorf("problem %q after %d attempts", r.Problem, r.Attempts)
		}
	})
	t.Run("long chain", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/chain/0")})
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonRedirectLoop)
		if r.Problem != "more than 5 redirects" {
			t.Errorf("problem %q", r.Problem)
		}
		if n := len(s.requests("/chain/5")); n != 1 || len(s.requests("/chain/6")) != 0 {
			t.Errorf("followed beyond the limit")
		}
	})
	t.Run("followed", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/old")})
		wantStatus(t, r, pagefetch.StatusOK, "")
		if r.FinalURL != s.url("/new") || r.Text != "Moved rules" {
			t.Errorf("final URL %q, text %q", r.FinalURL, r.Text)
		}
	})
	t.Run("to another scheme", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/mailto")})
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonInvalidURL)
	})
}

func TestTooLarge(t *testing.T) {
	big := "<p>" + strings.Repeat("x", 10<<10) + "</p>"
	s := newSite(t)
	s.handle("/sized", serveHTML(big)) // Content-Length set by the server
	s.handle("/chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.(http.Flusher).Flush() // headers out before the body: no Content-Length
		for range 10 {
			_, _ = w.Write([]byte(big[:1<<10]))
		}
	})
	cfg := testConfig()
	cfg.MaxBody = 1 << 10
	f := newFetcher(t, cfg)
	for _, path := range []string{"/sized", "/chunked"} {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url(path)})
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonTooLarge)
		if r.Problem != "body larger than 1024 bytes" || r.Attempts != 1 {
			t.Errorf("%s: problem %q after %d attempts", path, r.Problem, r.Attempts)
		}
	}
}

func TestHostPacing(t *testing.T) {
	s := newSite(t)
	for _, p := range []string{"/1", "/2", "/3"} {
		s.handle(p, serveHTML("<p>rule "+p+"</p>"))
	}
	cfg := testConfig()
	cfg.HostInterval = 50 * time.Millisecond
	results := newFetcher(t, cfg).FetchAll(context.Background(), []pagefetch.Request{
		{URL: s.url("/1")}, {URL: s.url("/2")}, {URL: s.url("/3")},
	}, nil)
	for _, r := range results {
		wantStatus(t, r, pagefetch.StatusOK, "")
	}
	hits := s.all() // robots.txt and the three pages
	if len(hits) != 4 {
		t.Fatalf("server saw %d requests, want 4", len(hits))
	}
	for i := 1; i < len(hits); i++ {
		if gap := hits[i].at.Sub(hits[i-1].at); gap < 48*time.Millisecond {
			t.Errorf("%s came %v after %s", hits[i].path, gap, hits[i-1].path)
		}
	}
}

func TestRetriesArePaced(t *testing.T) {
	s := newSite(t)
	s.handle("/flaky", statusSequence(503, 503, 200))
	cfg := testConfig()
	cfg.HostInterval = 40 * time.Millisecond // larger than the backoff
	r := fetchOne(t, newFetcher(t, cfg), pagefetch.Request{URL: s.url("/flaky")})
	wantStatus(t, r, pagefetch.StatusOK, "")
	hits := s.requests("/flaky")
	for i := 1; i < len(hits); i++ {
		if gap := hits[i].at.Sub(hits[i-1].at); gap < 38*time.Millisecond {
			t.Errorf("retry %d came after %v", i, gap)
		}
	}
}

func TestHostsAreFetchedConcurrently(t *testing.T) {
	// Each site's page waits for the other's to be requested: the run only
	// succeeds quickly if both are in flight at once.
	a, b := newSite(t), newSite(t)
	aIn, bIn := make(chan struct{}), make(chan struct{})
	meet := func(mine, other chan struct{}) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			close(mine)
			select {
			case <-other:
				serveHTML("<p>met</p>")(w, r)
			case <-time.After(3 * time.Second):
				w.WriteHeader(http.StatusConflict)
			}
		}
	}
	a.handle("/page", meet(aIn, bIn))
	b.handle("/page", meet(bIn, aIn))
	cfg := testConfig()
	cfg.Retries = -1
	results := newFetcher(t, cfg).FetchAll(context.Background(), []pagefetch.Request{
		{URL: a.url("/page")}, {URL: b.url("/page")},
	}, nil)
	for _, r := range results {
		wantStatus(t, r, pagefetch.StatusOK, "")
	}
}

func TestHeadersSent(t *testing.T) {
	s := newSite(t)
	s.handle("/robots.txt", serveText("text/plain", "User-agent: *\nAllow: /\n"))
	s.handle("/page", serveHTML("<p>rule</p>"))
	r := fetchOne(t, newFetcher(t, testConfig()), pagefetch.Request{URL: s.url("/page")})
	wantStatus(t, r, pagefetch.StatusOK, "")
	for _, path := range []string{"/robots.txt", "/page"} {
		hits := s.requests(path)
		if len(hits) != 1 {
			t.Fatalf("%s requested %d times", path, len(hits))
		}
		if ua := hits[0].header.Get("User-Agent"); ua != testUA {
			t.Errorf("%s: User-Agent %q", path, ua)
		}
	}
	h := s.requests("/page")[0].header
	if h.Get("Accept") != "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5" || h.Get("Accept-Language") != "en" {
		t.Errorf("page headers: %v", h)
	}
	if h.Get("If-None-Match") != "" || h.Get("If-Modified-Since") != "" {
		t.Errorf("conditional headers without validators: %v", h)
	}
}

func TestCancel(t *testing.T) {
	a, b := newSite(t), newSite(t)
	hang := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	a.handle("/1", hang)
	a.handle("/2", hang)
	a.handle("/3", hang)
	b.handle("/1", hang)
	reqs := []pagefetch.Request{{URL: a.url("/1")}, {URL: a.url("/2")}, {URL: a.url("/3")}, {URL: b.url("/1")}}
	cfg := testConfig()
	cfg.Timeout = 10 * time.Second

	for _, tt := range []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		reason string
	}{
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}, pagefetch.ReasonNetwork},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, pagefetch.ReasonTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			start := time.Now()
			results := newFetcher(t, cfg).FetchAll(ctx, reqs, nil)
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("FetchAll took %v after cancellation", elapsed)
			}
			for _, r := range results {
				wantStatus(t, r, pagefetch.StatusFailed, tt.reason)
				if r.Problem != "cancelled" {
					t.Errorf("%s: problem %q", r.URL, r.Problem)
				}
			}
		})
	}
}

func TestOffline(t *testing.T) {
	refuse := &net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		return errors.New("offline")
	}}
	transports := map[string]http.RoundTripper{
		"dialer": &http.Transport{DialContext: refuse.DialContext},
		"round tripper": roundTripFunc(func(*http.Request) (*http.Response, error) {
			return nil, errors.New("no route to host")
		}),
	}
	reqs := []pagefetch.Request{
		{URL: "https://gov.example/entry"},
		{URL: "https://gov.example/visas"},
		{URL: "http://immigration.example/rules"},
		{URL: "https://consulate.example:8443/a?b=c"},
	}
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Transport = transport
			start := time.Now()
			results := newFetcher(t, cfg).FetchAll(context.Background(), reqs, nil)
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("took %v", elapsed)
			}
			for i, r := range results {
				wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonNetwork)
				if r.URL != reqs[i].URL || !strings.Contains(r.Problem, "robots.txt of") || !strings.Contains(r.Problem, "(3 attempts)") {
					t.Errorf("%s: problem %q", r.URL, r.Problem)
				}
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestDuplicatesOrderAndProgress(t *testing.T) {
	a, b := newSite(t), newSite(t)
	a.handle("/entry", serveHTML("<p>entry rules</p>"))
	a.handle("/visa", serveHTML("<p>visa rules</p>"))
	b.handle("/transit", serveHTML("<p>transit rules</p>"))
	reqs := []pagefetch.Request{
		{URL: a.url("/entry")},
		{URL: b.url("/transit")},
		{URL: a.url("/entry#passports")},
		{URL: "ftp://gov.example/rules"},
		{URL: a.url("/visa")},
		{URL: a.url("/entry")},
	}
	var (
		mu    sync.Mutex
		calls [][2]int
	)
	results := newFetcher(t, testConfig()).FetchAll(context.Background(), reqs, func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, [2]int{done, total})
	})

	if len(results) != len(reqs) {
		t.Fatalf("%d results for %d requests", len(results), len(reqs))
	}
	wantText := []string{"entry rules", "transit rules", "entry rules", "", "visa rules", "entry rules"}
	for i, r := range results {
		if r.URL != reqs[i].URL || r.Text != wantText[i] {
			t.Errorf("result %d: URL %q text %q, want %q %q", i, r.URL, r.Text, reqs[i].URL, wantText[i])
		}
	}
	wantStatus(t, results[3], pagefetch.StatusFailed, pagefetch.ReasonInvalidURL)
	if n := len(a.requests("/entry")); n != 1 {
		t.Errorf("duplicate URL fetched %d times", n)
	}
	wantCalls := [][2]int{{1, 6}, {2, 6}, {3, 6}, {4, 6}, {5, 6}, {6, 6}}
	if !slices.Equal(calls, wantCalls) {
		t.Errorf("progress calls %v, want %v", calls, wantCalls)
	}
}

func TestInvalidURLs(t *testing.T) {
	reqs := []pagefetch.Request{{URL: ""}, {URL: "not a url"}, {URL: "ftp://gov.example/x"}, {URL: "http:///no-host"}, {URL: "://bad"}, {URL: "http://bad host/"}}
	results := newFetcher(t, testConfig()).FetchAll(context.Background(), reqs, nil)
	for _, r := range results {
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonInvalidURL)
		if r.Attempts != 0 || r.Problem == "" || strings.Contains(r.Problem, "\n") {
			t.Errorf("%q: %d attempts, problem %q", r.URL, r.Attempts, r.Problem)
		}
	}
	if got := newFetcher(t, testConfig()).FetchAll(context.Background(), nil, nil); len(got) != 0 {
		t.Errorf("%d results for no requests", len(got))
	}
}
