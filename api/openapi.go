package api

import (
	"bytes"
	_ "embed"
	"net/http"
)

// OpenAPIDocument is the formal description of the API (OpenAPI 3.1). Its
// servers entry names the placeholder base URL replaced when served.
//
//go:embed openapi.json
var OpenAPIDocument []byte

const openAPIBaseURLPlaceholder = "https://entrycheck.example"

// OpenAPIFor returns the document with the configured base URL.
func OpenAPIFor(baseURL string) []byte {
	return bytes.ReplaceAll(OpenAPIDocument, []byte(openAPIBaseURLPlaceholder), []byte(baseURL))
}

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(OpenAPIFor(s.cfg.BaseURL))
}
