package api

import (
	"net/http"
)

// protectedResourceMetadata is RFC 9728 metadata of the free API.
func (s *Server) protectedResourceMetadata(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 s.cfg.BaseURL,
		"authorization_servers":    []string{s.cfg.BaseURL},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "entrycheck free API",
		"resource_documentation":   s.cfg.BaseURL + "/auth.md",
	})
}

// authorizationServerMetadata is RFC 8414 metadata of the token issuer.
func (s *Server) authorizationServerMetadata(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                s.cfg.BaseURL,
		"token_endpoint":                        s.cfg.BaseURL + "/oauth/token",
		"registration_endpoint":                 s.cfg.BaseURL + "/oauth/register",
		"grant_types_supported":                 []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
		"response_types_supported":              []string{},
		"service_documentation":                 s.cfg.BaseURL + "/auth.md",
	})
}
