package quota

import (
	"net/http"
	"strconv"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/store"
)

// RateLimited is the body of a 429 answer.
type RateLimited struct {
	response.ErrorBody
	Scope             string    `json:"scope"`
	Limit             int       `json:"limit"`
	ResetAt           time.Time `json:"reset_at"`
	RetryAfterSeconds int       `json:"retry_after_seconds"`
	Alternatives      []string  `json:"alternatives"`
	// ErrorDescription repeats the message on the OAuth endpoints, whose
	// errors take RFC 6749's and RFC 7591's shape (error, error_description).
	ErrorDescription string `json:"error_description,omitempty" jsonschema:"On POST /oauth/register and POST /oauth/token only: the message again, as RFC 6749 and RFC 7591 error responses carry it."`
}

// AltPay is the alternative that always works: paying per request.
const AltPay = "pay per request at GET /v1/check with x402 (no account needed, never rate limited)"

const (
	altRegister    = "register a client at POST /oauth/register for a larger free quota (see /auth.md)"
	altReuseClient = "reuse a client you registered earlier: registrations last 90 days"
)

// TooMany answers 429 naming the exhausted bucket and when it resets.
func (l *Ledger) TooMany(w http.ResponseWriter, r *http.Request, b store.Bucket, reset time.Time) {
	body := l.Refusal(request.ID(r), b, reset)
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(body.RetryAfterSeconds))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	response.Write(w, http.StatusTooManyRequests, body)
}

// Refusal describes a refusal by bucket b: which cap, its limit, when it
// resets and what the caller can do instead.
func (l *Ledger) Refusal(requestID string, b store.Bucket, reset time.Time) RateLimited {
	k := capOf(b.Scope)
	retry := int(time.Until(reset).Seconds())
	if now := l.Clock.Now(); now.Before(reset) {
		retry = int(reset.Sub(now).Seconds()) + 1
	}
	body := RateLimited{
		ErrorBody:         response.ErrorBody{Error: response.CodeRateLimited, Message: k.Message + "; they reset at midnight UTC", RequestID: requestID},
		Scope:             b.Scope,
		Limit:             b.Limit,
		ResetAt:           reset,
		RetryAfterSeconds: retry,
		Alternatives:      k.Alternatives,
	}
	if settingOf(k.Quota).Counts != config.CountsChecks {
		// The OAuth endpoints' errors take RFC 6749's and RFC 7591's shape.
		body.ErrorDescription = body.Message
	}
	return body
}

// LimitHeaders sets the X-RateLimit headers of the caller's own bucket.
func LimitHeaders(w http.ResponseWriter, u Use) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(u.Own.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, u.Own.Limit-u.Used)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(u.Reset.Unix(), 10))
}
