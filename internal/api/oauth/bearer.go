package oauth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/store"
)

// Authenticate reads an optional bearer token. No Authorization header means
// an anonymous caller; a bad or expired token is refused with 401 and a
// WWW-Authenticate that points to the protected-resource metadata (RFC 9728).
func (e *Endpoints) Authenticate(w http.ResponseWriter, r *http.Request) (quota.Principal, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return quota.Principal{}, true
	}
	scheme, value, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		e.unauthorized(w, r, response.CodeInvalidRequest, "use Authorization: Bearer <access_token> from /oauth/token, or no Authorization header for the anonymous quota")
		return quota.Principal{}, false
	}
	id, secret, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(value), tokenPrefix), "_")
	if !ok || !strings.HasPrefix(strings.TrimSpace(value), tokenPrefix) {
		e.unauthorized(w, r, response.CodeInvalidToken, "the access token is malformed")
		return quota.Principal{}, false
	}
	if !wellFormedID(id, "") {
		e.unauthorized(w, r, response.CodeInvalidToken, "the access token is unknown")
		return quota.Principal{}, false
	}
	t, err := e.Store.Token(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !secretMatches(secret, t.SecretHash) {
		e.unauthorized(w, r, response.CodeInvalidToken, "the access token is unknown")
		return quota.Principal{}, false
	}
	if err != nil {
		response.Error(e.Log, w, r, err)
		return quota.Principal{}, false
	}
	if !e.Clock.Now().Before(t.ExpiresAt) {
		e.unauthorized(w, r, response.CodeInvalidToken, "the access token expired: request a new one at /oauth/token")
		return quota.Principal{}, false
	}
	return quota.Principal{ClientID: t.ClientID}, true
}

// unauthorized answers 401 with the same RFC 6750 error code in the
// WWW-Authenticate header and in the body.
func (e *Endpoints) unauthorized(w http.ResponseWriter, r *http.Request, code, description string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="entrycheck", error="`+code+`", error_description="`+description+`", resource_metadata="`+discovery.ProtectedResourceURL(e.Site())+`"`)
	response.Fail(w, r, http.StatusUnauthorized, code, description)
}
