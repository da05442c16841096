package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// Quota scopes, named in the scope field of a 429 answer.
const (
	scopeIP            = "ip_daily"
	scopeNetwork       = "network_daily"
	scopeClient        = "client_daily"
	scopeGlobal        = "global_daily"
	scopeRegistrations = "registrations_ip_daily"
)

// principal is who a free check counts against: an address or a client.
type principal struct {
	clientID string // empty for anonymous callers
}

// day is the quota day (UTC) of t and the instant its buckets reset.
func day(t time.Time) (string, time.Time) {
	t = t.UTC()
	y, m, d := t.Date()
	return t.Format(time.DateOnly), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// freeBuckets lists the buckets a free check consumes, the caller's own
// first (its limit goes in the X-RateLimit headers) and the shared ceiling
// last, so that the hottest row is locked for the shortest time.
func (s *Server) freeBuckets(r *http.Request, dayKey string, p principal) []store.Bucket {
	q := s.cfg.Quotas
	global := store.Bucket{Scope: scopeGlobal, Key: "all", Limit: q.Global}
	if p.clientID != "" {
		return []store.Bucket{{Scope: scopeClient, Key: p.clientID, Limit: q.Client}, global}
	}
	ip := s.clientIP(r)
	return []store.Bucket{
		{Scope: scopeIP, Key: s.ips.hash(dayKey, "ip", ip.String()), Limit: q.Anonymous},
		{Scope: scopeNetwork, Key: s.ips.hash(dayKey, "net", networkOf(ip).String()), Limit: q.Network},
		global,
	}
}

// rateLimited is the body of a 429 answer.
type rateLimited struct {
	errorBody
	Scope             string    `json:"scope"`
	Limit             int       `json:"limit"`
	ResetAt           time.Time `json:"reset_at"`
	RetryAfterSeconds int       `json:"retry_after_seconds"`
	Alternatives      []string  `json:"alternatives"`
}

var scopeMessages = map[string]string{
	scopeIP:            "the daily free checks of this IP address are used up",
	scopeNetwork:       "the daily free checks of this network are used up",
	scopeClient:        "the daily free checks of this registered client are used up",
	scopeGlobal:        "the service's worldwide daily free checks are used up",
	scopeRegistrations: "the daily client registrations of this IP address are used up",
}

// tooMany answers 429 naming the exhausted bucket and when it resets.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, b store.Bucket, reset time.Time) {
	retry := int(time.Until(reset).Seconds())
	if now := s.clock.Now(); now.Before(reset) {
		retry = int(reset.Sub(now).Seconds()) + 1
	}
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(retry))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	s.metrics.quotaRejections.WithLabelValues(b.Scope).Inc()
	body := rateLimited{
		errorBody:         errorBody{Error: codeRateLimited, Message: scopeMessages[b.Scope] + "; they reset at midnight UTC", RequestID: requestIDOf(r)},
		Scope:             b.Scope,
		Limit:             b.Limit,
		ResetAt:           reset,
		RetryAfterSeconds: retry,
		Alternatives: []string{
			"register a client at POST /oauth/register for a larger free quota (see /auth.md)",
			"pay per request at GET /v1/check with x402 (no account needed, never rate limited)",
		},
	}
	if b.Scope == scopeRegistrations {
		body.Alternatives = []string{"reuse a client you registered earlier: registrations last 90 days"}
	}
	writeJSON(w, http.StatusTooManyRequests, body)
}

// limitHeaders sets the X-RateLimit headers for the caller's own bucket.
func limitHeaders(w http.ResponseWriter, b store.Bucket, used int, reset time.Time) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, b.Limit-used)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
}
