package pagefetch

import "time"

// Request is one page to fetch.
type Request struct {
	URL string
	// ETag and LastModified are the validators of the previous successful
	// fetch. When set, the request is a conditional GET (If-None-Match,
	// If-Modified-Since) and an unchanged page answers 304.
	ETag         string
	LastModified string
}

// Status is the outcome of one fetch.
type Status string

const (
	// StatusOK: the page answered 2xx, its text was extracted and
	// fingerprinted.
	StatusOK Status = "ok"
	// StatusNotModified: the page answered 304 to a conditional GET; it is
	// unchanged since the fetch whose validators the request carried.
	StatusNotModified Status = "not_modified"
	// StatusFailed: see Result.Reason and Result.Problem.
	StatusFailed Status = "failed"
)

// Reason codes of a failed fetch (Result.Reason).
const (
	// ReasonHTTPStatus: a 4xx or 5xx answer (after retries for 429/5xx), or
	// a 304 to an unconditional request, or an unfollowable 3xx.
	ReasonHTTPStatus = "http_status"
	// ReasonTimeout: an attempt exceeded Config.Timeout, or the caller's
	// context deadline passed.
	ReasonTimeout = "timeout"
	// ReasonNetwork: DNS, refused connection, TLS, reset..., or the caller
	// cancelled the context.
	ReasonNetwork = "network"
	// ReasonRedirectLoop: more than Config.MaxRedirects redirects, or a
	// redirect back to a URL already visited.
	ReasonRedirectLoop = "redirect_loop"
	// ReasonTooLarge: the body is larger than Config.MaxBody.
	ReasonTooLarge = "too_large"
	// ReasonRobotsDisallowed: robots.txt forbids our user agent the page,
	// which was therefore never requested.
	ReasonRobotsDisallowed = "robots_disallowed"
	// ReasonInvalidURL: the URL is not an absolute http(s) URL, or a
	// redirect led to one that is not.
	ReasonInvalidURL = "invalid_url"
	// ReasonUnsupported: the answer has nothing to compare, e.g. an HTML
	// page without main text or an empty body.
	ReasonUnsupported = "unsupported_content"
)

// Result is the outcome of fetching one Request.
type Result struct {
	URL      string // as requested
	FinalURL string // after redirects; empty when no response was received
	Status   Status
	// HTTPStatus is the last HTTP status seen for the page, 0 if none.
	HTTPStatus int
	// ETag and LastModified are the validators to send next time. On a 304
	// they are the request's own unless the server sent new ones.
	ETag         string
	LastModified string
	ContentType  string // as sent by the server
	// Text is the normalised main text (StatusOK only), one line per block,
	// at most MaxText bytes. Empty for PDFs and other binary bodies.
	Text string
	// Fingerprint is "sha256:<hex>" (StatusOK only): of the whole main text
	// with churn neutralised (see Fingerprint), or of the raw body for
	// binary types.
	Fingerprint string
	Reason      string // StatusFailed only: one of the Reason codes
	Problem     string // StatusFailed only: one line for people
	// Attempts is the number of HTTP requests made for the page itself
	// (robots.txt not counted); 0 when it was never requested.
	Attempts  int
	FetchedAt time.Time // UTC, when the last attempt finished (or the outcome was decided)
}

// MaxText caps Result.Text in bytes. The fingerprint covers the whole
// extracted text even when Text is cut.
const MaxText = 256 << 10
