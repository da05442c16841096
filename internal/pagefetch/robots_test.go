package pagefetch_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

func TestRobotsDisallowed(t *testing.T) {
	tests := []struct {
		name   string
		robots string
	}{
		{"our group", "User-agent: *\nAllow: /\n\nUser-agent: entrycheck-verifier\nDisallow: /private/\n"},
		{"our group, other case", "User-agent: EntryCheck-Verifier\nDisallow: /private\n"},
		{"everyone", "User-agent: *\nDisallow: /private/\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			s.handle("/robots.txt", serveText("text/plain", tt.robots))
			s.handle("/private/visa-policy", serveHTML("<p>secret</p>"))
			s.handle("/public", serveHTML("<p>public rules</p>"))
			results := newFetcher(t, testConfig()).FetchAll(context.Background(), []pagefetch.Request{
				{URL: s.url("/private/visa-policy")}, {URL: s.url("/public")},
			}, nil)

			r := results[0]
			wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonRobotsDisallowed)
			want := "robots.txt of " + s.host() + " disallows /private/visa-policy for entrycheck-verifier"
			if r.Problem != want || r.Attempts != 0 || r.HTTPStatus != 0 {
				t.Errorf("problem %q after %d attempts, want %q", r.Problem, r.Attempts, want)
			}
			if n := len(s.requests("/private/visa-policy")); n != 0 {
				t.Errorf("disallowed page requested %d times", n)
			}
			wantStatus(t, results[1], pagefetch.StatusOK, "")
		})
	}
}

func TestRobotsAllowOtherAgentsOnly(t *testing.T) {
	s := newSite(t)
	s.handle("/robots.txt", serveText("text/plain", "User-agent: otherbot\nDisallow: /\n"))
	s.handle("/page", serveHTML("<p>rules</p>"))
	r := fetchOne(t, newFetcher(t, testConfig()), pagefetch.Request{URL: s.url("/page")})
	wantStatus(t, r, pagefetch.StatusOK, "")
}

func TestRobotsFetchedOncePerHost(t *testing.T) {
	s := newSite(t) // no robots.txt: 404 allows everything
	var reqs []pagefetch.Request
	for _, p := range []string{"/a", "/b", "/c"} {
		s.handle(p, serveHTML("<p>rule "+p+"</p>"))
		reqs = append(reqs, pagefetch.Request{URL: s.url(p)})
	}
	f := newFetcher(t, testConfig())
	for _, r := range f.FetchAll(context.Background(), reqs, nil) {
		wantStatus(t, r, pagefetch.StatusOK, "")
	}
	if n := len(s.requests("/robots.txt")); n != 1 {
		t.Errorf("robots.txt fetched %d times in one run", n)
	}
	// A new run reads it again: it may have changed since.
	f.FetchAll(context.Background(), reqs[:1], nil)
	if n := len(s.requests("/robots.txt")); n != 2 {
		t.Errorf("robots.txt fetched %d times in two runs", n)
	}
}

func TestRobotsStatuses(t *testing.T) {
	tests := []struct {
		name     string
		robots   http.HandlerFunc
		status   pagefetch.Status
		reason   string
		pageHits int
	}{
		{"404 allows", http.NotFound, pagefetch.StatusOK, "", 1},
		{"410 allows", statusSequence(http.StatusGone), pagefetch.StatusOK, "", 1},
		{"401 allows", statusSequence(http.StatusUnauthorized), pagefetch.StatusOK, "", 1},
		{"403 allows", statusSequence(http.StatusForbidden), pagefetch.StatusOK, "", 1},
		{"unparseable allows", serveText("text/plain", "Disallow: /\n<html>oops</html>"), pagefetch.StatusOK, "", 1},
		{"503 then 200 retried", statusSequence(http.StatusServiceUnavailable, http.StatusOK), pagefetch.StatusOK, "", 1},
		{"503 blocks the host", statusSequence(http.StatusServiceUnavailable), pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 0},
		{"500 blocks the host", statusSequence(http.StatusInternalServerError), pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			s.handle("/robots.txt", tt.robots)
			s.handle("/page", serveHTML("<p>rules</p>"))
			r := fetchOne(t, newFetcher(t, testConfig()), pagefetch.Request{URL: s.url("/page")})
			wantStatus(t, r, tt.status, tt.reason)
			if n := len(s.requests("/page")); n != tt.pageHits {
				t.Errorf("page requested %d times, want %d", n, tt.pageHits)
			}
			if tt.status == pagefetch.StatusFailed {
				prefix := "robots.txt of " + s.host() + " unavailable: HTTP 5"
				if !strings.HasPrefix(r.Problem, prefix) || !strings.HasSuffix(r.Problem, "after 3 attempts; page not fetched") {
					t.Errorf("problem %q", r.Problem)
				}
			}
		})
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	s := newSite(t)
	s.handle("/robots.txt", serveText("text/plain", "User-agent: *\nCrawl-delay: 0.06\n"))
	s.handle("/1", serveHTML("<p>one</p>"))
	s.handle("/2", serveHTML("<p>two</p>"))
	cfg := testConfig()
	cfg.MaxBackoff = time.Second // the cap of a Crawl-delay
	newFetcher(t, cfg).FetchAll(context.Background(), []pagefetch.Request{{URL: s.url("/1")}, {URL: s.url("/2")}}, nil)
	hits := s.all()
	if len(hits) != 3 {
		t.Fatalf("%d requests", len(hits))
	}
	if gap := hits[2].at.Sub(hits[1].at); gap < 58*time.Millisecond {
		t.Errorf("pages %v apart despite a Crawl-delay of 60ms", gap)
	}
}
