// Package oauth is the service's OAuth 2.0 authorization server and the
// resource side of its bearer tokens: open dynamic client registration
// (RFC 7591), the client-credentials token endpoint (RFC 6749 section
// 4.4), and the reading of a bearer token on the free endpoints, which
// makes the caller a registered client with its larger quota.
//
// It depends on the store, the quota, request and response packages and
// the discovery documents; only the API assembly imports it, and hands
// its Authenticate to the REST and MCP handlers.
package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/store"
)

// Endpoints answer registration and token requests, and read the bearer
// tokens they issue.
type Endpoints struct {
	Store  Store
	Quotas *quota.Ledger
	// BaseURL is the configured public address (config.Config.BaseURL).
	BaseURL string
	// Site describes the deployment, for the protected-resource metadata
	// a 401 points to.
	Site  func() discovery.Site
	Clock entrycheck.Clock
	Log   *slog.Logger
}

// Store is what the endpoints need of the database: clients and tokens.
type Store interface {
	CreateClient(ctx context.Context, c store.Client) error
	Client(ctx context.Context, id string) (store.Client, error)
	CreateToken(ctx context.Context, t store.Token, keep int, now time.Time) error
	Token(ctx context.Context, id string) (store.Token, error)
}

// Lifetimes of spec section 5.
const (
	tokenLifetime        = time.Hour
	registrationLifetime = 90 * 24 * time.Hour
	MaxClientNameLength  = 100
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

// RegistrationRequest is the body of a client registration (RFC 7591).
type RegistrationRequest struct {
	ClientName              *string  `json:"client_name"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
}

// Registration is the answer to a registration: the client's credentials.
type Registration struct {
	ClientID                string   `json:"client_id"`
	ClientSecret            string   `json:"client_secret" jsonschema:"Shown once; only a hash is kept."`
	ClientName              string   `json:"client_name"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at"`
	ClientSecretExpiresAt   int64    `json:"client_secret_expires_at" jsonschema:"Unix time; the registration expires after 90 days."`
	GrantTypes              []string `json:"grant_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	TokenEndpoint           string   `json:"token_endpoint"`
	Note                    string   `json:"note"`
}

// RefuseBody answers, in RFC 6749's shape, a request whose body the
// server refused before the endpoint read it (too large, too slow, cut
// short); the registration endpoint names its error as RFC 7591 section
// 3.2.2 does.
func RefuseBody(w http.ResponseWriter, r *http.Request, status int, message string) {
	code := "invalid_request"
	if r.URL.Path == discovery.PathRegister {
		code = "invalid_client_metadata"
	}
	response.OAuthFail(w, r, status, code, message)
}

// Register is open, anonymous dynamic client registration (RFC 7591),
// limited per IP address and day. The secret is returned once; only its hash is kept.
func (e *Endpoints) Register(w http.ResponseWriter, r *http.Request) {
	if !request.IsMediaType(r, "application/json") {
		response.OAuthFail(w, r, http.StatusUnsupportedMediaType, "invalid_client_metadata", "send the registration as Content-Type: application/json, e.g. {\"client_name\": \"my agent\"}")
		return
	}
	limit := discovery.MaxBody(discovery.PathRegister)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		response.OAuthFail(w, r, http.StatusRequestEntityTooLarge, "invalid_client_metadata", fmt.Sprintf("the registration body is larger than %d bytes", limit))
		return
	case err != nil:
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", "the registration body could not be read to its end: send it again whole")
		return
	}
	if name := repeatedMember(body); name != "" {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", name+" is sent more than once: send each member once")
		return
	}
	var req RegistrationRequest
	if err := json.Unmarshal(body, &req); err != nil {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", registrationJSONProblem(err))
		return
	}
	if msg := req.problem(); msg != "" {
		response.OAuthFail(w, r, http.StatusBadRequest, "invalid_client_metadata", msg)
		return
	}
	now := e.Clock.Now().UTC()
	dayKey, reset := quota.Day(now)
	buckets, err := e.Quotas.Buckets(r.Context(), r, config.CountsRegistrations, quota.Principal{}, dayKey)
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
	id, secret := clientIDPrefix+randomHex(idBytes), secretPrefix+randomToken(32)
	client := store.Client{ID: id, SecretHash: hashSecret(secret), Name: *req.ClientName, CreatedAt: now, ExpiresAt: now.Add(registrationLifetime)}
	if err := e.Store.CreateClient(r.Context(), client); err != nil {
		response.OAuthErr(e.Log, w, r, err)
		return
	}
	response.JSON(w, http.StatusCreated, Registration{
		ClientID: id, ClientSecret: secret, ClientName: client.Name,
		ClientIDIssuedAt: now.Unix(), ClientSecretExpiresAt: client.ExpiresAt.Unix(),
		GrantTypes: []string{"client_credentials"}, TokenEndpointAuthMethod: "client_secret_basic",
		TokenEndpoint: e.BaseURL + "/oauth/token",
		Note:          "Store client_secret now: it is shown only once. The registration expires after 90 days; register again then.",
	}, response.CacheNone)
}

func (q RegistrationRequest) problem() string {
	if q.ClientName == nil {
		return "client_name is required: a short name for your agent or application"
	}
	name := strings.TrimSpace(*q.ClientName)
	if !utf8.ValidString(name) {
		return "client_name must be valid UTF-8"
	}
	if name == "" || utf8.RuneCountInString(name) > MaxClientNameLength {
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

// repeatedMember returns a member that a JSON object body names twice, or
// "": the decoder would keep the last silently, and which of two values
// counts would be the server's guess (as RFC 6749 section 3.1 says of
// repeated parameters). A body that is not an object is the decoder's to
// refuse.
func repeatedMember(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		name, ok := t.(string)
		if err != nil || !ok {
			return ""
		}
		if seen[name] {
			return name
		}
		seen[name] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
