package quota

import (
	"net/http"
	"strconv"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/store"
)

// RateLimited is the body of a 429 answer.
type RateLimited struct {
	response.ErrorBody
	Scope             string    `json:"scope" jsonschema:"Which cap was hit: ip_daily (anonymous checks per IP address), network_daily (anonymous checks per IPv4 /24 or IPv6 /56), client_daily (checks per registered client), network_clients_daily (checks of all registered clients calling from one IPv4 /24 or IPv6 /56, so that registering many clients cannot multiply a network's share), global_daily (worldwide ceiling shared by the site, the API, the MCP server and widgets), registrations_ip_daily, registrations_network_daily and registrations_global_daily (client registrations per IP address, per network and worldwide), tokens_client_daily (access tokens issued to one client), unknown_client_daily (anonymous checks of every client whose address a trusted proxy withholds, with Forwarded: for=unknown or an obfuscated identifier, counted together as one address)."`
	Limit             int       `json:"limit"`
	ResetAt           time.Time `json:"reset_at"`
	RetryAfterSeconds int       `json:"retry_after_seconds"`
	Alternatives      []string  `json:"alternatives"`
	// ErrorDescription repeats the message on the OAuth endpoints, whose
	// errors take RFC 6749's and RFC 7591's shape (error, error_description).
	ErrorDescription string `json:"error_description,omitempty" jsonschema:"On POST /oauth/register and POST /oauth/token only: the message again, as RFC 6749 and RFC 7591 error responses carry it."`
}

var scopeMessages = map[string]string{
	ScopeIP:                   "the daily free checks of this IP address are used up",
	ScopeNetwork:              "the daily free checks of this network are used up",
	ScopeClient:               "the daily free checks of this registered client are used up",
	ScopeGlobal:               "the service's worldwide daily free checks are used up",
	ScopeRegistrations:        "the daily client registrations of this IP address are used up",
	ScopeNetworkClients:       "the daily free checks of registered clients calling from this network are used up",
	ScopeRegistrationsNetwork: "the daily client registrations of this network are used up",
	ScopeRegistrationsGlobal:  "the service's worldwide daily client registrations are used up",
	ScopeTokens:               "this client's daily access tokens are used up; keep using a token until it expires (expires_in) instead of requesting one per call",
	ScopeUnknownClient:        "the daily free checks shared by all clients whose address the proxy in front of this service withholds (Forwarded: for=unknown or an obfuscated identifier) are used up",
}

// quotaAlternatives says, for each exhausted bucket, what still works:
// registering helps an address or network, not a registered client or the
// worldwide ceiling; paying always does.
var quotaAlternatives = map[string][]string{
	ScopeIP:                   {altRegister, AltPay},
	ScopeNetwork:              {altRegister, AltPay},
	ScopeClient:               {AltPay},
	ScopeGlobal:               {AltPay},
	ScopeRegistrations:        {altReuseClient},
	ScopeNetworkClients:       {AltPay},
	ScopeRegistrationsNetwork: {altReuseClient},
	ScopeRegistrationsGlobal:  {altReuseClient, AltPay},
	ScopeTokens:               {"reuse the access token you have until it expires", AltPay},
	ScopeUnknownClient:        {altRegister, AltPay},
}

// oauthScopes are the caps of the OAuth endpoints, whose errors take RFC
// 6749's and RFC 7591's shape (error, error_description).
var oauthScopes = map[string]bool{
	ScopeRegistrations: true, ScopeRegistrationsNetwork: true, ScopeRegistrationsGlobal: true, ScopeTokens: true,
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
	retry := int(time.Until(reset).Seconds())
	if now := l.Clock.Now(); now.Before(reset) {
		retry = int(reset.Sub(now).Seconds()) + 1
	}
	body := RateLimited{
		ErrorBody:         response.ErrorBody{Error: response.CodeRateLimited, Message: scopeMessages[b.Scope] + "; they reset at midnight UTC", RequestID: requestID},
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

// LimitHeaders sets the X-RateLimit headers of the caller's own bucket.
func LimitHeaders(w http.ResponseWriter, u Use) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(u.Own.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, u.Own.Limit-u.Used)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(u.Reset.Unix(), 10))
}
