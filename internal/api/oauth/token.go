package oauth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/store"
)

// TokenResponse is the answer of the token endpoint (RFC 6749 section 5.1).
type TokenResponse struct {
	AccessToken string `json:"access_token" jsonschema:"Opaque, not a JWT."`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in" jsonschema:"Seconds; 3600 (less when the registration expires sooner)."`
}

// Token exchanges client credentials for an opaque access token (RFC 6749 4.4).
func (e *Endpoints) Token(w http.ResponseWriter, r *http.Request) {
	form, refusal := tokenForm(w, r)
	if refusal != nil {
		refusal.send(w, r)
		return
	}
	now := e.Clock.Now().UTC()
	client, refusal, err := e.authenticate(r, form, now)
	if err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	if refusal != nil {
		refusal.send(w, r)
		return
	}
	dayKey, reset := quota.Day(now)
	buckets, err := e.Quotas.Buckets(r.Context(), r, config.CountsTokens, quota.Principal{ClientID: client.ID}, dayKey)
	if err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	c, err := e.Quotas.Take(r.Context(), dayKey, buckets)
	if err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	if c.Exhausted >= 0 {
		e.Quotas.TooMany(w, r, buckets[c.Exhausted], reset)
		return
	}
	tokenID, tokenSecret := randomHex(idBytes), randomToken(32)
	// A token outlives neither its hour nor its client's registration.
	t := store.Token{ID: tokenID, ClientID: client.ID, SecretHash: hashSecret(tokenSecret), ExpiresAt: now.Add(tokenLifetime)}
	if t.ExpiresAt.After(client.ExpiresAt) {
		t.ExpiresAt = client.ExpiresAt
	}
	if err := e.Store.CreateToken(r.Context(), t, maxLiveTokens, now); err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	w.Header().Set("Pragma", "no-cache") // RFC 6749 section 5.1, for HTTP/1.0 caches
	response.JSON(w, http.StatusOK, TokenResponse{AccessToken: tokenPrefix + tokenID + "_" + tokenSecret, TokenType: "Bearer", ExpiresIn: int(t.ExpiresAt.Sub(now).Seconds())}, response.CacheNone)
}

// refusal is an OAuth error answer (RFC 6749 section 5.2).
type refusal struct {
	status      int
	code        string
	description string
	// basic asks for HTTP Basic again (WWW-Authenticate), to a client
	// that authenticated with it.
	basic bool
}

func (f *refusal) send(w http.ResponseWriter, r *http.Request) {
	if f.basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="entrycheck"`)
	}
	response.OAuthFail(w, r, f.status, f.code, f.description)
}

func badRequest(code, description string) *refusal {
	return &refusal{status: http.StatusBadRequest, code: code, description: description}
}

// tokenForm reads a token request's form: URL-encoded, bounded, for the
// client_credentials grant and no scope.
func tokenForm(w http.ResponseWriter, r *http.Request) (url.Values, *refusal) {
	if !request.IsMediaType(r, "application/x-www-form-urlencoded") {
		return nil, badRequest("invalid_request", "send the token request as Content-Type: application/x-www-form-urlencoded")
	}
	limit := discovery.MaxBody(discovery.PathToken)
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, badRequest("invalid_request", fmt.Sprintf("the token request is larger than %d bytes: send grant_type and the client credentials only", limit))
		}
		return nil, badRequest("invalid_request", "the form could not be read: send it whole, URL-encoded (grant_type=client_credentials&client_id=...&client_secret=...)")
	}
	// RFC 6749 section 3.1: parameters must not be included more than
	// once; which of two values counts would be the server's guess. The
	// query counts too, as ParseForm merges it into the form.
	for name, values := range r.Form {
		if len(values) > 1 {
			return nil, badRequest("invalid_request", fmt.Sprintf("%s is sent %d times: send each parameter once (RFC 6749 section 3.1)", name, len(values)))
		}
	}
	form := r.PostForm
	switch form.Get("grant_type") {
	case "client_credentials":
	case "":
		return nil, badRequest("invalid_request", "grant_type is required: use grant_type=client_credentials")
	default:
		return nil, badRequest("unsupported_grant_type", "only grant_type=client_credentials is supported")
	}
	if form.Get("scope") != "" {
		return nil, badRequest("invalid_scope", "this server defines no scopes: omit scope")
	}
	return form, nil
}

// authenticate finds the client whose credentials the request carries,
// with HTTP Basic or in the form (not both), and refuses an unknown
// client, a wrong secret and an expired registration alike as
// invalid_client; err is the store's failure.
func (e *Endpoints) authenticate(r *http.Request, form url.Values, now time.Time) (store.Client, *refusal, error) {
	id, secret, basic := r.BasicAuth()
	if basic && (form.Get("client_id") != "" && form.Get("client_id") != id || form.Get("client_secret") != "") {
		return store.Client{}, badRequest("invalid_request", "authenticate with HTTP Basic or with client_id and client_secret in the form, not both"), nil
	}
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	invalidClient := func(description string) *refusal {
		return &refusal{status: http.StatusUnauthorized, code: "invalid_client", description: description, basic: basic}
	}
	if id == "" || secret == "" {
		return store.Client{}, invalidClient("client authentication is required: HTTP Basic with client_id and client_secret, or both in the form"), nil
	}
	if !wellFormedID(id, clientIDPrefix) {
		return store.Client{}, invalidClient("unknown client or wrong secret"), nil
	}
	client, err := e.Store.Client(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !secretMatches(secret, client.SecretHash) {
		return store.Client{}, invalidClient("unknown client or wrong secret"), nil
	}
	if err != nil {
		return store.Client{}, nil, err
	}
	if !now.Before(client.ExpiresAt) {
		return store.Client{}, invalidClient("the registration expired after 90 days: register a new client at /oauth/register"), nil
	}
	return client, nil, nil
}
