package api

import (
	"net/http"
	"strconv"

	"github.com/entrycheck/entrycheck/internal/discovery"
)

// site describes this deployment to the discovery package: the configured
// base URL and quotas and the revision date of the loaded matrix.
func (s *Server) site() discovery.Site {
	return discovery.NewSite(s.cfg, s.evaluator().Snapshot().Version())
}

// protectedResourceMetadata is RFC 9728 metadata of the free API, the same
// bytes as the generated /.well-known/oauth-protected-resource.
func (s *Server) protectedResourceMetadata(w http.ResponseWriter, r *http.Request) {
	writeDiscovery(w, discovery.MediaTypeJSON, discovery.Encode(discovery.ProtectedResource(s.site())))
}

// authorizationServerMetadata is RFC 8414 metadata of the token issuer, the
// same bytes as the generated /.well-known/oauth-authorization-server.
func (s *Server) authorizationServerMetadata(w http.ResponseWriter, r *http.Request) {
	writeDiscovery(w, discovery.MediaTypeJSON, discovery.Encode(discovery.AuthorizationServer(s.site())))
}

// writeDiscovery sends a discovery document: public, cacheable for an hour,
// readable from any origin (browser-based OAuth and MCP clients fetch it).
func writeDiscovery(w http.ResponseWriter, mediaType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", mediaType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}
