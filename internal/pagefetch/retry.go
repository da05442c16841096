package pagefetch

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// pacer spaces the requests to one origin. It belongs to the one goroutine
// that fetches that origin, so it needs no lock.
type pacer struct {
	interval time.Duration // minimum gap between two requests
	last     time.Time     // when the previous request finished; zero before the first
}

// wait blocks until max(interval, delay) has passed since the previous
// request finished, or ctx ends. The gap runs from the end of a request, not
// its start, so a slow server also gets a slower crawler.
func (p *pacer) wait(ctx context.Context, delay time.Duration) error {
	if p.last.IsZero() {
		return ctx.Err()
	}
	d := time.Until(p.last.Add(max(p.interval, delay)))
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (p *pacer) finished() { p.last = time.Now() }

// exchange GETs target on the origin paced by p, retrying failures that may
// pass (network, timeout, 429, 5xx) up to Config.Retries times. It returns
// the last response, the last transport failure (nil when an HTTP answer
// came back, whatever its status) and the number of attempts made. When the
// last attempt got no answer, the response still carries the status of the
// last one that did (a 503 before a timeout), for the record.
func (f *Fetcher) exchange(ctx context.Context, p *pacer, target string, header http.Header, limit int64, truncate bool) (response, *failure, int) {
	var (
		resp     response
		fail     *failure
		attempts int
		delay    time.Duration
	)
	for {
		if p.wait(ctx, delay) != nil {
			return resp, cancelled(ctx), attempts
		}
		seen := resp.status
		resp, fail = f.attempt(ctx, target, header, limit, truncate)
		attempts++
		p.finished()
		if resp.status == 0 {
			resp.status = seen
		}
		switch {
		case fail != nil && !fail.retryable:
			return resp, fail, attempts
		case fail == nil && !retryableStatus(resp.status):
			return resp, nil, attempts
		case attempts > f.cfg.Retries:
			return resp, fail, attempts
		}
		delay = f.retryDelay(attempts, resp.header)
	}
}

// retryDelay is the wait before the retry that follows attempt number n:
// the server's Retry-After when it sent one, otherwise Backoff doubled for
// each earlier retry plus up to 10% jitter (so that retries of many pages
// do not fall into step); MaxBackoff at most either way.
func (f *Fetcher) retryDelay(n int, header http.Header) time.Duration {
	if d, ok := retryAfter(header, time.Now()); ok {
		return min(d, f.cfg.MaxBackoff)
	}
	d := f.cfg.Backoff
	for i := 1; i < n && d < f.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d += rand.N(d/10 + 1)
	return min(d, f.cfg.MaxBackoff)
}

// retryAfter reads a Retry-After header, in seconds or as an HTTP date
// (RFC 9110, section 10.2.3). A date in the past means no wait.
func retryAfter(header http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Beyond a day the value is nonsense for us; cap before the
		// conversion can overflow.
		return time.Duration(min(secs, 86400)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
