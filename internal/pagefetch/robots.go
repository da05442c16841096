package pagefetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/temoto/robotstxt"
)

// maxRobots caps the robots.txt read; like Google, we obey what fits and
// ignore the rest.
const maxRobots = 500 << 10

// robotsPolicy is what an origin's robots.txt lets us fetch in this run.
type robotsPolicy struct {
	host  string
	agent string
	data  *robotstxt.RobotsData // nil: everything is allowed
	// unavailable, when set, is why the origin is not crawled at all in this
	// run (robots.txt could not be read, or the run was cancelled).
	unavailable *failure
}

// loadRobots reads the robots.txt of origin (scheme and host), paced by p
// like any other request, and applies its Crawl-delay for our agent to p.
// See the package documentation for how each outcome is read.
func (f *Fetcher) loadRobots(ctx context.Context, p *pacer, origin *url.URL) robotsPolicy {
	policy := robotsPolicy{host: origin.Host, agent: f.agent}
	target := (&url.URL{Scheme: origin.Scheme, Host: origin.Host, Path: "/robots.txt"}).String()
	resp, fail, attempts := f.exchange(ctx, p, target, f.robotsHeader(), maxRobots, true)
	switch {
	case fail != nil && fail.cancelled:
		policy.unavailable = fail
		return policy
	case fail != nil && (fail.reason == ReasonRedirectLoop || fail.reason == ReasonInvalidURL):
		// Google reads a robots.txt it cannot reach by redirects as absent.
		return policy
	case fail != nil:
		policy.unavailable = &failure{
			reason:  fail.reason,
			problem: fmt.Sprintf("robots.txt of %s unavailable: %s; page not fetched", origin.Host, describe(fail, attempts)),
		}
		return policy
	case retryableStatus(resp.status):
		policy.unavailable = &failure{
			reason:  ReasonHTTPStatus,
			problem: fmt.Sprintf("robots.txt of %s unavailable: %s; page not fetched", origin.Host, statusProblem(resp.status, attempts)),
		}
		return policy
	case resp.status < http.StatusOK || resp.status >= http.StatusMultipleChoices:
		// 4xx (401 and 403 included) and unfollowed 3xx: no robots.txt.
		return policy
	}
	data, err := robotstxt.FromBytes(resp.body)
	if err != nil {
		// A file we cannot parse expresses no rule we could obey.
		return policy
	}
	policy.data = data
	if delay := data.FindGroup(f.agent).CrawlDelay; delay > 0 {
		p.interval = max(p.interval, min(delay, f.cfg.MaxBackoff))
	}
	return policy
}

// allows says whether robots.txt lets us fetch u. Rules match the path and
// query, as robots.txt rules are written.
func (r robotsPolicy) allows(u *url.URL) bool {
	return r.data == nil || r.data.TestAgent(u.RequestURI(), r.agent)
}

// disallowed is the failure of a page robots.txt forbids us.
func (r robotsPolicy) disallowed(u *url.URL) *failure {
	return &failure{
		reason:  ReasonRobotsDisallowed,
		problem: oneLine(fmt.Sprintf("robots.txt of %s disallows %s for %s", r.host, u.RequestURI(), r.agent)),
	}
}
