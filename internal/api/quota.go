package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// Quota scopes, named in the scope field of a 429 answer.
const (
	scopeIP      = "ip_daily"
	scopeNetwork = "network_daily"
	scopeClient  = "client_daily"
	scopeGlobal  = "global_daily"
	// scopeNetworkClients counts the checks of registered clients by the
	// network they call from, whichever clients they are.
	scopeNetworkClients       = "network_clients_daily"
	scopeRegistrations        = "registrations_ip_daily"
	scopeRegistrationsNetwork = "registrations_network_daily"
	scopeRegistrationsGlobal  = "registrations_global_daily"
	scopeTokens               = "tokens_client_daily"
	// scopeUnknownClient counts, all together, the anonymous checks of
	// clients whose trusted proxy does not give their address (see
	// clientIP).
	scopeUnknownClient = "unknown_client_daily"
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

// callerKeys are the bucket keys of the caller's address and network
// (IPv4 /24, IPv6 /56) on day. known is false for a client a trusted
// proxy does not name: both keys are then unknownClient, one bucket for
// all such clients.
func (s *Server) callerKeys(ctx context.Context, r *http.Request, day string) (ip, network string, known bool, err error) {
	addr, known := s.clientIP(r)
	if !known {
		return unknownClient, unknownClient, false, nil
	}
	if ip, err = s.ips.hash(ctx, day, "ip", addr.String()); err != nil {
		return "", "", true, err
	}
	network, err = s.ips.hash(ctx, day, "net", networkOf(addr).String())
	return ip, network, true, err
}

// freeBuckets lists the buckets a free check consumes, the caller's own
// first (its limit goes in the X-RateLimit headers) and the shared ceiling
// last, so that the hottest row is locked for the shortest time. A
// registered client's checks also count against the network it calls
// from, so that registering many clients cannot multiply what one network
// takes from the worldwide ceiling.
func (s *Server) freeBuckets(ctx context.Context, r *http.Request, dayKey string, p principal) ([]store.Bucket, error) {
	q := s.cfg.Quotas
	ip, network, known, err := s.callerKeys(ctx, r, dayKey)
	if err != nil {
		return nil, err
	}
	global := store.Bucket{Scope: scopeGlobal, Key: "all", Limit: q.Global}
	if p.clientID != "" {
		return []store.Bucket{
			{Scope: scopeClient, Key: p.clientID, Limit: q.Client},
			{Scope: scopeNetworkClients, Key: network, Limit: q.NetworkClients},
			global,
		}, nil
	}
	if !known {
		return []store.Bucket{{Scope: scopeUnknownClient, Key: unknownClient, Limit: q.Anonymous}, global}, nil
	}
	return []store.Bucket{
		{Scope: scopeIP, Key: ip, Limit: q.Anonymous},
		{Scope: scopeNetwork, Key: network, Limit: q.Network},
		global,
	}, nil
}

// rateLimited is the body of a 429 answer.
type rateLimited struct {
	errorBody
	Scope             string    `json:"scope"`
	Limit             int       `json:"limit"`
	ResetAt           time.Time `json:"reset_at"`
	RetryAfterSeconds int       `json:"retry_after_seconds"`
	Alternatives      []string  `json:"alternatives"`
	// ErrorDescription repeats the message on the OAuth endpoints, whose
	// errors take RFC 6749's and RFC 7591's shape (error, error_description).
	ErrorDescription string `json:"error_description,omitempty"`
}

var scopeMessages = map[string]string{
	scopeIP:                   "the daily free checks of this IP address are used up",
	scopeNetwork:              "the daily free checks of this network are used up",
	scopeClient:               "the daily free checks of this registered client are used up",
	scopeGlobal:               "the service's worldwide daily free checks are used up",
	scopeRegistrations:        "the daily client registrations of this IP address are used up",
	scopeNetworkClients:       "the daily free checks of registered clients calling from this network are used up",
	scopeRegistrationsNetwork: "the daily client registrations of this network are used up",
	scopeRegistrationsGlobal:  "the service's worldwide daily client registrations are used up",
	scopeTokens:               "this client's daily access tokens are used up; keep using a token until it expires (expires_in) instead of requesting one per call",
	scopeUnknownClient:        "the daily free checks shared by all clients whose address the proxy in front of this service withholds (Forwarded: for=unknown or an obfuscated identifier) are used up",
}

// quotaAlternatives says, for each exhausted bucket, what still works:
// registering helps an address or network, not a registered client or the
// worldwide ceiling; paying always does.
var quotaAlternatives = map[string][]string{
	scopeIP:                   {altRegister, altPay},
	scopeNetwork:              {altRegister, altPay},
	scopeClient:               {altPay},
	scopeGlobal:               {altPay},
	scopeRegistrations:        {altReuseClient},
	scopeNetworkClients:       {altPay},
	scopeRegistrationsNetwork: {altReuseClient},
	scopeRegistrationsGlobal:  {altReuseClient, altPay},
	scopeTokens:               {"reuse the access token you have until it expires", altPay},
	scopeUnknownClient:        {altRegister, altPay},
}

// oauthScopes are the caps of the OAuth endpoints, whose errors take RFC
// 6749's and RFC 7591's shape (error, error_description).
var oauthScopes = map[string]bool{
	scopeRegistrations: true, scopeRegistrationsNetwork: true, scopeRegistrationsGlobal: true, scopeTokens: true,
}

const (
	altRegister    = "register a client at POST /oauth/register for a larger free quota (see /auth.md)"
	altPay         = "pay per request at GET /v1/check with x402 (no account needed, never rate limited)"
	altReuseClient = "reuse a client you registered earlier: registrations last 90 days"
)

// tooMany answers 429 naming the exhausted bucket and when it resets. A
// HEAD was refused nothing, so it is not counted as a refusal.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, b store.Bucket, reset time.Time) {
	body := s.quotaRefusal(requestIDOf(r), b, reset)
	if r.Method != http.MethodHead {
		s.metrics.quotaRejections.WithLabelValues(b.Scope).Inc()
	}
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(body.RetryAfterSeconds))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	writeJSON(w, http.StatusTooManyRequests, body)
}

// quotaRefusal describes a refusal by bucket b: which cap, its limit, when
// it resets and what the caller can do instead.
func (s *Server) quotaRefusal(requestID string, b store.Bucket, reset time.Time) rateLimited {
	retry := int(time.Until(reset).Seconds())
	if now := s.clock.Now(); now.Before(reset) {
		retry = int(reset.Sub(now).Seconds()) + 1
	}
	body := rateLimited{
		errorBody:         errorBody{Error: codeRateLimited, Message: scopeMessages[b.Scope] + "; they reset at midnight UTC", RequestID: requestID},
		Scope:             b.Scope,
		Limit:             b.Limit,
		ResetAt:           reset,
		RetryAfterSeconds: retry,
		Alternatives:      quotaAlternatives[b.Scope],
	}
	if oauthScopes[b.Scope] {
		body.ErrorDescription = body.Message
	}
	return body
}

// freeUse is the outcome of counting one free check.
type freeUse struct {
	// own is the caller's own bucket (the client's, or the address's) and
	// used its count after this check.
	own   store.Bucket
	used  int
	reset time.Time
	// exhausted is the bucket that refused the check, nil when it was served.
	exhausted *store.Bucket
}

// consumeFree counts one free check of the caller of r (principal p, or
// the client address for anonymous callers) evaluated at t, in every bucket
// it consumes, atomically and durably. The site, /free/check and the MCP
// tool share the buckets.
func (s *Server) consumeFree(ctx context.Context, r *http.Request, p principal, t time.Time) (freeUse, error) {
	dayKey, reset := day(t)
	buckets, err := s.freeBuckets(ctx, r, dayKey, p)
	if err != nil {
		return freeUse{}, err
	}
	c, err := s.store.Consume(ctx, dayKey, buckets)
	if err != nil {
		return freeUse{}, err
	}
	u := freeUse{own: buckets[0], used: c.Used[0], reset: reset}
	if c.Exhausted >= 0 {
		// Whichever bucket ran out, the caller has no check left today.
		u.used = buckets[0].Limit
		u.exhausted = &buckets[c.Exhausted]
		return u, nil
	}
	s.metrics.freeChecks.Inc()
	return u, nil
}

// peekFree is what consumeFree would find now, counting nothing: the
// caller's own bucket and its use so far, or the bucket that would refuse
// the check. The counts are the durable ones, which every answered check
// has reached.
func (s *Server) peekFree(ctx context.Context, r *http.Request, p principal, t time.Time) (freeUse, error) {
	dayKey, reset := day(t)
	buckets, err := s.freeBuckets(ctx, r, dayKey, p)
	if err != nil {
		return freeUse{}, err
	}
	u := freeUse{own: buckets[0], reset: reset}
	for i, b := range buckets {
		used, err := s.store.QuotaUsed(ctx, dayKey, b.Scope, b.Key)
		if err != nil {
			return freeUse{}, fmt.Errorf("reading the %s quota: %w", b.Scope, err)
		}
		if i == 0 {
			u.used = used
		}
		if used >= b.Limit {
			u.used = buckets[0].Limit
			u.exhausted = &buckets[i]
			break
		}
	}
	return u, nil
}

// limitHeaders sets the X-RateLimit headers for the caller's own bucket.
func limitHeaders(w http.ResponseWriter, b store.Bucket, used int, reset time.Time) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, b.Limit-used)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
}
