package api

import (
	"bytes"

	_ "embed"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// OpenAPIDocument is the formal description of the API (OpenAPI 3.1) as
// written: its servers entry names a placeholder base URL, and the quotas
// and prices it states are {placeholders} (see discovery.Site.Fill), so
// that the served document says what the configuration decides.
//
//go:embed openapi.json
var OpenAPIDocument []byte

const openAPIBaseURLPlaceholder = "https://entrycheck.example"

// OpenAPIFor returns the document of a deployment: its base URL, quotas
// and prices.
func OpenAPIFor(site discovery.Site) []byte {
	return site.FillJSON(bytes.ReplaceAll(OpenAPIDocument, []byte(openAPIBaseURLPlaceholder), []byte(site.BaseURL)))
}

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", response.CacheDocument)
	w.Write(s.openapi)
}
