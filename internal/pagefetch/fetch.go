package pagefetch

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// FetchAll fetches every request and returns one result per request, in
// the order given. Duplicate URLs (equal once the fragment, which is never
// sent, is dropped) are fetched once, with the validators of their first
// occurrence.
//
// Requests are grouped by origin; up to Config.Concurrency origins are
// fetched at once, each by one goroutine, one request at a time and
// Config.HostInterval apart, after its robots.txt (read once per origin per
// call).
//
// Cancelling ctx stops the run promptly: requests in flight or not yet made
// fail with Problem "cancelled" and Reason ReasonTimeout when ctx's deadline
// passed, ReasonNetwork otherwise.
//
// progress, when not nil, is called after each result is settled with the
// number settled so far and len(reqs); calls come from several goroutines
// but never overlap.
func (f *Fetcher) FetchAll(ctx context.Context, reqs []Request, progress func(done, total int)) []Result {
	rep := &reporter{reqs: reqs, results: make([]Result, len(reqs)), progress: progress}
	origins := plan(reqs, rep)

	work := make(chan *originJobs)
	var wg sync.WaitGroup
	for range min(f.cfg.Concurrency, len(origins)) {
		wg.Go(func() {
			for o := range work {
				f.fetchOrigin(ctx, o, rep)
			}
		})
	}
	for _, o := range origins {
		work <- o
	}
	close(work)
	wg.Wait()
	if f.ownTransport {
		// The next run is a day away: do not hold connections to ~100
		// government servers until then.
		f.client.CloseIdleConnections()
	}
	return rep.results
}

// job is one distinct URL to fetch, for one or more requests.
type job struct {
	req     Request  // its first occurrence
	url     *url.URL // parsed and normalised
	indexes []int    // positions in the requests
}

// originJobs are the jobs of one origin, in request order.
type originJobs struct {
	base *url.URL // scheme and host only
	jobs []*job
}

// plan parses and groups the requests. Invalid URLs are settled at once.
func plan(reqs []Request, rep *reporter) []*originJobs {
	var (
		origins []*originJobs
		byKey   = map[string]*originJobs{}
		byURL   = map[string]*job{}
	)
	for i, req := range reqs {
		u, err := parseTarget(req.URL)
		if err != nil {
			rep.settle(&job{req: req, indexes: []int{i}}, Result{
				Status:    StatusFailed,
				Reason:    ReasonInvalidURL,
				Problem:   oneLine(err.Error()),
				FetchedAt: now(),
			})
			continue
		}
		target := u.String()
		if j := byURL[target]; j != nil {
			j.indexes = append(j.indexes, i)
			continue
		}
		j := &job{req: req, url: u, indexes: []int{i}}
		byURL[target] = j
		key := originKey(u)
		o := byKey[key]
		if o == nil {
			o = &originJobs{base: &url.URL{Scheme: u.Scheme, Host: u.Host}}
			byKey[key] = o
			origins = append(origins, o)
		}
		o.jobs = append(o.jobs, j)
	}
	return origins
}

// parseTarget accepts absolute http(s) URLs only, and normalises what does
// not change the resource: surrounding space, host case, the fragment.
func parseTarget(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("invalid URL %q: not http or https", raw)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("invalid URL %q: no host", raw)
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// originKey identifies the server a URL is paced on: scheme, host and port
// (explicit or default), so that two servers on one address but different
// ports are two origins, and "gov.example" and "gov.example:443" are one.
func originKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)
}

// fetchOrigin fetches the jobs of one origin in order, after its robots.txt.
func (f *Fetcher) fetchOrigin(ctx context.Context, o *originJobs, rep *reporter) {
	p := &pacer{interval: f.cfg.HostInterval}
	policy := f.loadRobots(ctx, p, o.base)
	for _, j := range o.jobs {
		rep.settle(j, f.fetchPage(ctx, p, policy, j))
	}
}

// fetchPage fetches one page and reads its outcome.
func (f *Fetcher) fetchPage(ctx context.Context, p *pacer, policy robotsPolicy, j *job) Result {
	switch {
	case ctx.Err() != nil:
		return failed(Result{}, cancelled(ctx), 0)
	case policy.unavailable != nil:
		return failed(Result{}, policy.unavailable, 0)
	case !policy.allows(j.url):
		return failed(Result{}, policy.disallowed(j.url), 0)
	}

	resp, fail, attempts := f.exchange(ctx, p, j.url.String(), f.pageHeader(j.req), f.cfg.MaxBody, false)
	res := Result{FinalURL: resp.finalURL, HTTPStatus: resp.status, Attempts: attempts}
	if fail != nil {
		return failed(res, fail, attempts)
	}
	conditional := j.req.ETag != "" || j.req.LastModified != ""
	switch {
	case resp.status == http.StatusNotModified && conditional:
		res.Status = StatusNotModified
		res.ETag = cmp.Or(resp.header.Get("ETag"), j.req.ETag)
		res.LastModified = cmp.Or(resp.header.Get("Last-Modified"), j.req.LastModified)
		res.FetchedAt = now()
		return res
	case resp.status < http.StatusOK || resp.status >= http.StatusMultipleChoices:
		return failed(res, &failure{reason: ReasonHTTPStatus, problem: statusProblem(resp.status, attempts)}, attempts)
	}

	res.ContentType = resp.header.Get("Content-Type")
	text, fingerprint, fail := readContent(res.ContentType, resp.body)
	if fail != nil {
		return failed(res, fail, attempts)
	}
	res.Status = StatusOK
	res.Text = capText(text, MaxText)
	res.Fingerprint = fingerprint
	res.ETag = resp.header.Get("ETag")
	res.LastModified = resp.header.Get("Last-Modified")
	res.FetchedAt = now()
	return res
}

// failed completes res as a failure.
func failed(res Result, fl *failure, attempts int) Result {
	res.Status = StatusFailed
	res.Reason = fl.reason
	res.Problem = describe(fl, attempts)
	res.FetchedAt = now()
	return res
}

// reporter settles results into their positions and reports progress.
type reporter struct {
	reqs     []Request
	progress func(done, total int)

	mu      sync.Mutex
	results []Result
	done    int
}

// settle records res for every request of j and reports progress for
// each, under one lock so progress calls never overlap.
func (r *reporter) settle(j *job, res Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, i := range j.indexes {
		res.URL = r.reqs[i].URL
		r.results[i] = res
		r.done++
		if r.progress != nil {
			r.progress(r.done, len(r.reqs))
		}
	}
}
