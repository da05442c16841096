package api

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/store"
)

// Lifetimes of spec section 5.
const (
	tokenLifetime        = time.Hour
	registrationLifetime = 90 * 24 * time.Hour
	maxClientNameLength  = 100
	// maxLiveTokens bounds the tokens a client holds at once: a new token
	// revokes the client's oldest beyond it, so that the tokens table stays
	// bounded by the number of clients whatever a client requests.
	maxLiveTokens = 5
)

// Credential prefixes make leaked secrets easy to recognise and scan for.
const (
	clientIDPrefix = "ecc_"
	secretPrefix   = "ecs_"
	tokenPrefix    = "ect_"
)

type registrationRequest struct {
	ClientName              *string  `json:"client_name"`
	GrantTypes              []string `json:"grant_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

type registrationResponse struct {
	ClientID                string   `json:"client_id"`
	ClientSecret            string   `json:"client_secret"`
	ClientName              string   `json:"client_name"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientSecretExpiresAt   int64    `json:"client_secret_expires_at"`
	GrantTypes              []string `json:"grant_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	TokenEndpoint           string   `json:"token_endpoint"`
	Note                    string   `json:"note"`
}

// register is open, anonymous dynamic client registration (RFC 7591),
// limited per IP address and day. The secret is returned once; only its hash is kept.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if !request.IsMediaType(r, "application/json") {
		response.OAuthFail(w, r, http.StatusUnsupportedMediaType, "invalid_client_metadata", "send the registration as Content-Type: application/json, e.g. {\"client_name\": \"my agent\"}")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOAuthBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		response.OAuthFail(w, r, http.StatusRequestEntityTooLarge, "invalid_client_metadata", "the registration body is larger than 4 KiB")
		return
	case err != nil:
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", "the registration body could not be read to its end: send it again whole")
		return
	}
	var req registrationRequest
	if err := json.Unmarshal(body, &req); err != nil {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", registrationJSONProblem(err))
		return
	}
	if msg := req.problem(); msg != "" {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", msg)
		return
	}
	now := s.clock.Now().UTC()
	dayKey, reset := quota.Day(now)
	ip, network, _, err := s.quotas.CallerKeys(r.Context(), r, dayKey)
	if err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	q := s.cfg.Quotas
	buckets := []store.Bucket{
		{Scope: quota.ScopeRegistrations, Key: ip, Limit: q.Registrations},
		{Scope: quota.ScopeRegistrationsNetwork, Key: network, Limit: q.RegistrationsNetwork},
		{Scope: quota.ScopeRegistrationsGlobal, Key: quota.GlobalKey, Limit: q.RegistrationsGlobal},
	}
	c, err := s.quotas.Take(r.Context(), dayKey, buckets)
	if err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	if c.Exhausted >= 0 {
		s.quotas.TooMany(w, r, buckets[c.Exhausted], reset)
		return
	}
	id, secret := clientIDPrefix+randomHex(idBytes), secretPrefix+randomToken(32)
	client := store.Client{ID: id, SecretHash: hashSecret(secret), Name: *req.ClientName, CreatedAt: now, ExpiresAt: now.Add(registrationLifetime)}
	if err := s.store.CreateClient(r.Context(), client); err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	response.JSON(w, http.StatusCreated, registrationResponse{
		ClientID: id, ClientSecret: secret, ClientName: client.Name,
		ClientIDIssuedAt: now.Unix(), ClientSecretExpiresAt: client.ExpiresAt.Unix(),
		GrantTypes: []string{"client_credentials"}, TokenEndpointAuthMethod: "client_secret_basic",
		TokenEndpoint: s.cfg.BaseURL + "/oauth/token",
		Note:          "Store client_secret now: it is shown only once. The registration expires after 90 days; register again then.",
	}, response.CacheNone)
}

func (q registrationRequest) problem() string {
	if q.ClientName == nil {
		return "client_name is required: a short name for your agent or application"
	}
	name := strings.TrimSpace(*q.ClientName)
	if !utf8.ValidString(name) {
		return "client_name must be valid UTF-8"
	}
	if name == "" || utf8.RuneCountInString(name) > maxClientNameLength {
		return "client_name must be 1 to 100 characters"
	}
	for _, c := range name {
		if !unicode.IsPrint(c) {
			return "client_name must contain printable characters only"
		}
	}
	*q.ClientName = name
	for _, g := range q.GrantTypes {
		if g != "client_credentials" {
			return "grant_types may only contain client_credentials"
		}
	}
	switch q.TokenEndpointAuthMethod {
	case "", "client_secret_basic", "client_secret_post":
	default:
		return "token_endpoint_auth_method must be client_secret_basic or client_secret_post"
	}
	return ""
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

// token exchanges client credentials for an opaque access token (RFC 6749 4.4).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
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
		s.invalidClient(w, r, basic, "client authentication is required: HTTP Basic with client_id and client_secret, or both in the form")
		return
	}
	now := s.clock.Now().UTC()
	if !wellFormedID(id, clientIDPrefix) {
		s.invalidClient(w, r, basic, "unknown client or wrong secret")
		return
	}
	client, err := s.store.Client(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !secretMatches(secret, client.SecretHash) {
		s.invalidClient(w, r, basic, "unknown client or wrong secret")
		return
	}
	if err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	if !now.Before(client.ExpiresAt) {
		s.invalidClient(w, r, basic, "the registration expired after 90 days: register a new client at /oauth/register")
		return
	}
	dayKey, reset := quota.Day(now)
	bucket := store.Bucket{Scope: quota.ScopeTokens, Key: client.ID, Limit: s.cfg.Quotas.Tokens}
	c, err := s.quotas.Take(r.Context(), dayKey, []store.Bucket{bucket})
	if err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	if c.Exhausted >= 0 {
		s.quotas.TooMany(w, r, bucket, reset)
		return
	}
	tokenID, tokenSecret := randomHex(idBytes), randomToken(32)
	t := store.Token{ID: tokenID, ClientID: client.ID, SecretHash: hashSecret(tokenSecret), ExpiresAt: now.Add(tokenLifetime)}
	if t.ExpiresAt.After(client.ExpiresAt) {
		t.ExpiresAt = client.ExpiresAt
	}
	if err := s.store.CreateToken(r.Context(), t, maxLiveTokens, now); err != nil {
		response.OAuthErr(s.log, w, r, err)
		return
	}
	w.Header().Set("Pragma", "no-cache") // RFC 6749 section 5.1, for HTTP/1.0 caches
	response.JSON(w, http.StatusOK, tokenResponse{AccessToken: tokenPrefix + tokenID + "_" + tokenSecret, TokenType: "Bearer", ExpiresIn: int(t.ExpiresAt.Sub(now).Seconds())}, response.CacheNone)
}

func (s *Server) invalidClient(w http.ResponseWriter, r *http.Request, basic bool, description string) {
	if basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="entrycheck"`)
	}
	response.OAuthFail(w, r, http.StatusUnauthorized, "invalid_client", description)
}

// authenticate reads an optional bearer token. No Authorization header means
// an anonymous caller; a bad or expired token is refused with 401 and a
// WWW-Authenticate that points to the protected-resource metadata (RFC 9728).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (quota.Principal, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return quota.Principal{}, true
	}
	scheme, value, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		s.unauthorized(w, r, "invalid_request", "use Authorization: Bearer <access_token> from /oauth/token, or no Authorization header for the anonymous quota")
		return quota.Principal{}, false
	}
	id, secret, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(value), tokenPrefix), "_")
	if !ok || !strings.HasPrefix(strings.TrimSpace(value), tokenPrefix) {
		s.unauthorized(w, r, "invalid_token", "the access token is malformed")
		return quota.Principal{}, false
	}
	if !wellFormedID(id, "") {
		s.unauthorized(w, r, "invalid_token", "the access token is unknown")
		return quota.Principal{}, false
	}
	t, err := s.store.Token(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !secretMatches(secret, t.SecretHash) {
		s.unauthorized(w, r, "invalid_token", "the access token is unknown")
		return quota.Principal{}, false
	}
	if err != nil {
		response.Error(s.log, w, r, err)
		return quota.Principal{}, false
	}
	if !s.clock.Now().Before(t.ExpiresAt) {
		s.unauthorized(w, r, "invalid_token", "the access token expired: request a new one at /oauth/token")
		return quota.Principal{}, false
	}
	return quota.Principal{ClientID: t.ClientID}, true
}

// unauthorized answers 401 with the same RFC 6750 error code in the
// WWW-Authenticate header and in the body.
func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request, code, description string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="entrycheck", error="`+code+`", error_description="`+description+`", resource_metadata="`+discovery.ProtectedResourceURL(s.site())+`"`)
	response.Fail(w, r, http.StatusUnauthorized, code, description)
}

// registrationJSONProblem says what is wrong with a registration body in
// the client's terms: where the JSON breaks, or which member has the wrong
// kind of value, never the server's own types.
func registrationJSONProblem(err error) string {
	const example = ` such as {"client_name": "my agent"}`
	var syntax *json.SyntaxError
	var kind *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return "the body is not valid JSON (at byte " + strconv.FormatInt(syntax.Offset, 10) + "): send a JSON object" + example
	case errors.As(err, &kind) && kind.Field != "":
		return kind.Field + " has the wrong kind of value (" + kind.Value + "): see RFC 7591 section 2 for each member"
	}
	return "the body must be a JSON object" + example
}

// hashSecret hashes a high-entropy secret. Secrets are 256 random bits, so a
// plain SHA-256 cannot be brute-forced and needs no slow KDF.
func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

func secretMatches(secret, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(hash)) == 1
}

// The random part of client and token ids: idBytes random bytes, written
// as idHexLength hex digits.
const (
	idBytes     = 12
	idHexLength = 2 * idBytes
)

// wellFormedID tells an id the service could have issued: prefix, then
// lower-case hex of the issued length. Anything else is unknown without
// asking the database, which refuses some bytes (NUL, invalid UTF-8) with
// an error instead of "no such row".
func wellFormedID(id, prefix string) bool {
	hexPart, ok := strings.CutPrefix(id, prefix)
	if !ok || len(hexPart) != idHexLength {
		return false
	}
	for _, c := range []byte(hexPart) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
