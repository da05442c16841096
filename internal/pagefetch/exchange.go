package pagefetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
)

// response is what one HTTP exchange returned. The body is read only for a
// 2xx answer.
type response struct {
	status   int
	header   http.Header
	finalURL string
	body     []byte
}

// failure is why an attempt, or a whole fetch, did not succeed.
type failure struct {
	reason    string // a Reason code
	problem   string // one line for people, without the attempt count
	retryable bool   // the same request may succeed later in this run
	cancelled bool   // the caller's context ended
}

// redirectError is returned by checkRedirect; it comes back from
// http.Client.Do wrapped in a *url.Error.
type redirectError struct {
	reason, problem string
}

func (e *redirectError) Error() string { return e.problem }

// attempt makes one GET of target, following redirects, within
// Config.Timeout. A 2xx body longer than limit is a ReasonTooLarge failure,
// or is cut to limit when truncate is set. Non-2xx answers are returned
// without failure: what they mean is the caller's business.
func (f *Fetcher) attempt(ctx context.Context, target string, header http.Header, limit int64, truncate bool) (response, *failure) {
	actx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, target, nil)
	if err != nil {
		return response{}, &failure{reason: ReasonInvalidURL, problem: oneLine(fmt.Sprintf("cannot request %s: %v", target, err))}
	}
	req.Header = header.Clone()
	resp, err := f.client.Do(req)
	if err != nil {
		var r response
		if resp != nil {
			// A refused redirect returns the last response, body closed.
			r = response{status: resp.StatusCode, header: resp.Header, finalURL: responseURL(resp, target)}
		}
		return r, f.transportFailure(ctx, err)
	}
	defer resp.Body.Close()
	r := response{status: resp.StatusCode, header: resp.Header, finalURL: responseURL(resp, target)}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Nothing in an error page is needed; read a little so the
		// connection can be reused, no more.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		return r, nil
	}
	if resp.ContentLength > limit && !truncate {
		return r, tooLarge(limit)
	}
	// One byte more than allowed tells a body of exactly limit bytes from a
	// larger one without reading the rest.
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return r, f.transportFailure(ctx, fmt.Errorf("reading body: %w", err))
	}
	if int64(len(body)) > limit {
		if !truncate {
			return r, tooLarge(limit)
		}
		body = body[:limit]
	}
	r.body = body
	return r, nil
}

func tooLarge(limit int64) *failure {
	return &failure{reason: ReasonTooLarge, problem: fmt.Sprintf("body larger than %d bytes", limit)}
}

// responseURL is the URL that produced resp, after redirects.
func responseURL(resp *http.Response, target string) string {
	if resp.Request != nil && resp.Request.URL != nil {
		return resp.Request.URL.String()
	}
	return target
}

// transportFailure classifies an error of http.Client.Do or of reading the
// body. ctx is the caller's context: when it has ended, the failure is a
// cancellation whatever the error says.
func (f *Fetcher) transportFailure(ctx context.Context, err error) *failure {
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	var re *redirectError
	if errors.As(err, &re) {
		return &failure{reason: re.reason, problem: re.problem}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &failure{reason: ReasonTimeout, problem: "timed out after " + f.cfg.Timeout.String(), retryable: true}
	}
	// The *url.Error wrapper repeats the method and URL, which the result
	// already holds.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &failure{reason: ReasonNetwork, problem: oneLine(err.Error()), retryable: true}
}

// cancelled is the failure of a request the caller's context stopped.
func cancelled(ctx context.Context) *failure {
	reason := ReasonNetwork
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		reason = ReasonTimeout
	}
	return &failure{reason: reason, problem: "cancelled", cancelled: true}
}

// checkRedirect is the http.Client's redirect policy: at most MaxRedirects,
// never back to a URL already visited in the same attempt, and only to
// http(s).
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return &redirectError{reason: ReasonInvalidURL, problem: oneLine("redirect to unsupported URL " + req.URL.Redacted())}
	}
	if len(via) > f.cfg.MaxRedirects {
		return &redirectError{reason: ReasonRedirectLoop, problem: fmt.Sprintf("more than %d redirects", f.cfg.MaxRedirects)}
	}
	next := withoutFragment(req.URL)
	for _, prev := range via {
		if withoutFragment(prev.URL) == next {
			return &redirectError{reason: ReasonRedirectLoop, problem: oneLine("redirect loop back to " + req.URL.Redacted())}
		}
	}
	return nil
}

func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// pageHeader is the header of a page request.
func (f *Fetcher) pageHeader(req Request) http.Header {
	h := http.Header{}
	h.Set("User-Agent", f.cfg.UserAgent)
	h.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	h.Set("Accept-Language", "en")
	if v := oneLine(req.ETag); v != "" {
		h.Set("If-None-Match", v)
	}
	if v := oneLine(req.LastModified); v != "" {
		h.Set("If-Modified-Since", v)
	}
	return h
}

// robotsHeader is the header of a robots.txt request.
func (f *Fetcher) robotsHeader() http.Header {
	h := http.Header{}
	h.Set("User-Agent", f.cfg.UserAgent)
	h.Set("Accept", "text/plain,*/*;q=0.5")
	return h
}

// oneLine collapses every run of whitespace, line breaks included, to one
// space, so a problem or a header value is always a single line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// describe is the Problem of a failure after attempts requests.
func describe(fl *failure, attempts int) string {
	if fl.retryable && attempts > 0 {
		return fmt.Sprintf("%s (%s)", fl.problem, entrycheck.Plural(attempts, "attempt"))
	}
	return fl.problem
}

// statusProblem describes a final HTTP status, e.g. "HTTP 404 Not Found
// after 1 attempt".
func statusProblem(status, attempts int) string {
	text := http.StatusText(status)
	if text == "" {
		return fmt.Sprintf("HTTP %d after %s", status, entrycheck.Plural(attempts, "attempt"))
	}
	return fmt.Sprintf("HTTP %d %s after %s", status, text, entrycheck.Plural(attempts, "attempt"))
}

// retryableStatus says whether an HTTP status may go away by itself: the
// server asked us to slow down, or had a problem of its own.
func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// now is the time an outcome is recorded.
func now() time.Time { return time.Now().UTC() }
