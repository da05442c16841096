package oauth

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/store"
)

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

// Token exchanges client credentials for an opaque access token (RFC 6749 4.4).
func (e *Endpoints) Token(w http.ResponseWriter, r *http.Request) {
	if !request.IsMediaType(r, "application/x-www-form-urlencoded") {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_request", "send the token request as Content-Type: application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxOAuthBody)
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			response.OAuthFail(w, r, http.StatusBadRequest, "invalid_request", fmt.Sprintf("the token request is larger than %d bytes: send grant_type and the client credentials only", maxOAuthBody))
			return
		}
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_request", "the form could not be read: send it whole, URL-encoded (grant_type=client_credentials&client_id=...&client_secret=...)")
		return
	}
	form := r.PostForm
	switch form.Get("grant_type") {
	case "client_credentials":
	case "":
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_request", "grant_type is required: use grant_type=client_credentials")
		return
	default:
		response.OAuthFail(w, r, http.StatusBadRequest, "unsupported_grant_type", "only grant_type=client_credentials is supported")
		return
	}
	if form.Get("scope") != "" {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_scope", "this server defines no scopes: omit scope")
		return
	}
	id, secret, basic := r.BasicAuth()
	if basic && (form.Get("client_id") != "" && form.Get("client_id") != id || form.Get("client_secret") != "") {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_request", "authenticate with HTTP Basic or with client_id and client_secret in the form, not both")
		return
	}
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if id == "" || secret == "" {
		e.invalidClient(w, r, basic, "client authentication is required: HTTP Basic with client_id and client_secret, or both in the form")
		return
	}
	now := e.Clock.Now().UTC()
	if !wellFormedID(id, clientIDPrefix) {
		e.invalidClient(w, r, basic, "unknown client or wrong secret")
		return
	}
	client, err := e.Store.Client(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !secretMatches(secret, client.SecretHash) {
		e.invalidClient(w, r, basic, "unknown client or wrong secret")
		return
	}
	if err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	if !now.Before(client.ExpiresAt) {
		e.invalidClient(w, r, basic, "the registration expired after 90 days: register a new client at /oauth/register")
		return
	}
	dayKey, reset := quota.Day(now)
	bucket := store.Bucket{Scope: quota.ScopeTokens, Key: client.ID, Limit: e.Quotas.Limits.Tokens}
	c, err := e.Quotas.Take(r.Context(), dayKey, []store.Bucket{bucket})
	if err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	if c.Exhausted >= 0 {
		e.Quotas.TooMany(w, r, bucket, reset)
		return
	}
	tokenID, tokenSecret := randomHex(idBytes), randomToken(32)
	t := store.Token{ID: tokenID, ClientID: client.ID, SecretHash: hashSecret(tokenSecret), ExpiresAt: now.Add(tokenLifetime)}
	if t.ExpiresAt.After(client.ExpiresAt) {
		t.ExpiresAt = client.ExpiresAt
	}
	if err := e.Store.CreateToken(r.Context(), t, maxLiveTokens, now); err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	w.Header().Set("Pragma", "no-cache") // RFC 6749 section 5.1, for HTTP/1.0 caches
	response.JSON(w, http.StatusOK, tokenResponse{AccessToken: tokenPrefix + tokenID + "_" + tokenSecret, TokenType: "Bearer", ExpiresIn: int(t.ExpiresAt.Sub(now).Seconds())}, response.CacheNone)
}

func (e *Endpoints) invalidClient(w http.ResponseWriter, r *http.Request, basic bool, description string) {
	if basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="entrycheck"`)
	}
	response.OAuthFail(w, r, http.StatusUnauthorized, "invalid_client", description)
}
