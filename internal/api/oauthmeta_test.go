package api_test

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
)

// The OAuth metadata as served, checked against the MUST clauses of RFC
// 8414 (authorization server metadata) and RFC 9728 (protected resource
// metadata), as a strict client library would.
func TestOAuthMetadataFollowsRFCs(t *testing.T) {
	const base = "https://example.test"
	e := start(t, "", func(c *config.Config) { c.BaseURL = base })

	asm := e.metadata(t, "/.well-known/oauth-authorization-server")
	for _, problem := range rfc8414Problems(asm, base) {
		t.Errorf("authorization server metadata (RFC 8414): %s", problem)
	}
	prm := e.metadata(t, "/.well-known/oauth-protected-resource")
	for _, problem := range rfc9728Problems(prm, base) {
		t.Errorf("protected resource metadata (RFC 9728): %s", problem)
	}
	// Every authorization server it names publishes metadata at the
	// well-known URL formed from its issuer (RFC 8414 section 3).
	for _, issuer := range stringsOf(prm["authorization_servers"]) {
		if issuer != base {
			t.Errorf("authorization server %s is not this service (%s)", issuer, base)
		}
	}
}

// metadata fetches a metadata document: 200, application/json, an object
// (RFC 8414 section 3.2, RFC 9728 section 3.2).
func (e *env) metadata(t *testing.T, path string) map[string]any {
	t.Helper()
	r := e.get(path)
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var m map[string]any
	if r.StatusCode != http.StatusOK || mt != "application/json" || json.Unmarshal(r.body, &m) != nil {
		t.Fatalf("%s: %d %s, want 200 with a JSON object: %.200s", path, r.StatusCode, r.Header.Get("Content-Type"), r.body)
	}
	return m
}

// rfc8414Problems lists what in m breaks a MUST of RFC 8414 for an
// authorization server whose issuer identifier is issuer.
func rfc8414Problems(m map[string]any, issuer string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	out = append(out, commonMetadataProblems(m)...)
	// Section 2: issuer is REQUIRED, an https URL without query or
	// fragment; section 3.3: identical to the issuer the client used.
	if got, _ := m["issuer"].(string); got != issuer {
		add("issuer %q is not the issuer identifier %q the document was fetched for", m["issuer"], issuer)
	}
	if u, err := url.Parse(issuer); err != nil || u.Scheme != "https" || u.RawQuery != "" || u.Fragment != "" {
		add("issuer %q is not an https URL without query and fragment", issuer)
	}
	grants := stringsOf(m["grant_types_supported"])
	if m["grant_types_supported"] == nil {
		grants = []string{"authorization_code", "implicit"} // the default when omitted
	}
	// authorization_endpoint is REQUIRED unless no grant type uses it.
	if slices.Contains(grants, "authorization_code") || slices.Contains(grants, "implicit") {
		if !isHTTPSURL(m["authorization_endpoint"]) {
			add("authorization_endpoint missing although grant types %v use it", grants)
		}
	}
	// token_endpoint is REQUIRED unless only the implicit grant is supported.
	if !slices.Equal(grants, []string{"implicit"}) && !isHTTPSURL(m["token_endpoint"]) {
		add("token_endpoint %v is not an https URL", m["token_endpoint"])
	}
	// response_types_supported is REQUIRED (and, as an array, not empty).
	if types, ok := m["response_types_supported"].([]any); !ok || len(types) == 0 {
		add("response_types_supported %v is missing or empty", m["response_types_supported"])
	}
	for _, name := range []string{"registration_endpoint", "jwks_uri", "service_documentation", "op_policy_uri", "op_tos_uri", "revocation_endpoint", "introspection_endpoint"} {
		if v, ok := m[name]; ok && !isHTTPSURL(v) {
			add("%s %v is not an https URL", name, v)
		}
	}
	// Section 2: the signing algorithms are REQUIRED with the JWT
	// authentication methods, and "none" MUST NOT be among them.
	methods := stringsOf(m["token_endpoint_auth_methods_supported"])
	if slices.Contains(methods, "private_key_jwt") || slices.Contains(methods, "client_secret_jwt") {
		if m["token_endpoint_auth_signing_alg_values_supported"] == nil {
			add("token_endpoint_auth_signing_alg_values_supported missing although JWT authentication is supported")
		}
	}
	for _, name := range []string{"token_endpoint_auth_signing_alg_values_supported", "revocation_endpoint_auth_signing_alg_values_supported", "introspection_endpoint_auth_signing_alg_values_supported"} {
		if slices.Contains(stringsOf(m[name]), "none") {
			add("%s includes \"none\"", name)
		}
	}
	return out
}

// rfc9728Problems lists what in m breaks a MUST of RFC 9728 for the
// protected resource whose identifier is resource.
func rfc9728Problems(m map[string]any, resource string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	out = append(out, commonMetadataProblems(m)...)
	// Section 2: resource is REQUIRED; section 3.3: identical to the
	// resource identifier the well-known URL was formed from; RFC 8707:
	// an absolute URI without fragment.
	if got, _ := m["resource"].(string); got != resource {
		add("resource %q is not the resource identifier %q the document was fetched for", m["resource"], resource)
	}
	if u, err := url.Parse(resource); err != nil || !u.IsAbs() || u.Fragment != "" {
		add("resource %q is not an absolute URI without fragment", resource)
	}
	for _, as := range stringsOf(m["authorization_servers"]) {
		if !isHTTPSURL(as) {
			add("authorization server %q is not an https issuer identifier", as)
		}
	}
	for _, method := range stringsOf(m["bearer_methods_supported"]) {
		if method != "header" && method != "body" && method != "query" {
			add("bearer method %q is not header, body or query", method)
		}
	}
	for _, name := range []string{"jwks_uri", "resource_documentation", "resource_policy_uri", "resource_tos_uri"} {
		if v, ok := m[name]; ok && !isHTTPSURL(v) {
			add("%s %v is not an https URL", name, v)
		}
	}
	if slices.Contains(stringsOf(m["resource_signing_alg_values_supported"]), "none") {
		add("resource_signing_alg_values_supported includes \"none\"")
	}
	return out
}

// commonMetadataProblems are the rules both RFCs share (section 3.2 of
// each): claims with zero elements MUST be omitted, and signed_metadata,
// when present, is a JWT.
func commonMetadataProblems(m map[string]any) []string {
	var out []string
	for name, v := range m {
		if a, ok := v.([]any); ok && len(a) == 0 {
			out = append(out, fmt.Sprintf("%s is an empty array (claims with zero elements MUST be omitted)", name))
		}
	}
	if v, ok := m["signed_metadata"]; ok {
		if s, _ := v.(string); strings.Count(s, ".") != 2 {
			out = append(out, "signed_metadata is not a JWT")
		}
	}
	return out
}

func stringsOf(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, x := range a {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func isHTTPSURL(v any) bool {
	s, _ := v.(string)
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Fragment == ""
}
