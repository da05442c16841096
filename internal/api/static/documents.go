package static

import (
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// Document is a discovery document and its handler.
type Document struct {
	Path    string
	Handler http.Handler
}

// Documents serves every discovery document as site renders it, ahead of
// the generated tree: a server started with another base URL than the
// build's publishes its own in every document and Link header, without a
// rebuild. The documents depend on the configuration and the dataset
// only, neither of which changes while the server runs, so they are
// rendered and compressed once; they are readable from any origin
// (browser-based OAuth and MCP clients fetch them).
func Documents(site discovery.Site) []Document {
	var c compression.Compressor
	var out []Document
	for _, d := range discovery.Documents(site) {
		out = append(out, Document{Path: d.Path, Handler: response.NewDocument(d.MediaType, d.Link, d.Body, &c)})
	}
	return out
}

// OpenAPI serves the API's formal description as this deployment
// publishes it (apidoc.For), as a document: compressed once, with its
// ETag.
func OpenAPI(doc []byte) http.Handler {
	var c compression.Compressor
	return response.NewDocument("application/json", "", doc, &c)
}
