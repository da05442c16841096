package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// SiteOf describes the deployment configured by cfg serving ev's dataset
// to the discovery package; the build and the server both use it, so a
// document is the same bytes whichever wrote it.
func SiteOf(cfg config.Config, ev *evaluation.Evaluator) discovery.Site {
	snap := ev.Snapshot()
	return discovery.NewSite(cfg, discovery.Dataset{
		Version:             snap.Version(),
		Routes:              snap.Matrix.Routes(),
		CuratedDestinations: len(snap.Curated.Destinations),
	})
}

// site describes this deployment: the configured base URL, quotas and
// prices and the loaded dataset.
func (s *Server) site() discovery.Site { return SiteOf(s.cfg, s.evaluator()) }

// routeDocuments serves every discovery document as this server's
// configuration renders it, ahead of the generated tree: a server started
// with another base URL than the build's publishes its own in every
// document and Link header, without a rebuild. The documents depend on the
// configuration and the dataset only, neither of which changes while the
// server runs, so they are rendered once.
func (s *Server) routeDocuments(r chi.Router) {
	var c compression.Compressor
	for _, d := range discovery.Documents(s.site()) {
		getAndHead(r, d.Path, s.documentHandler(d, &c))
	}
}

// documentHandler sends a discovery document: public, revalidated like the
// pages, readable from any origin (browser-based OAuth and MCP clients
// fetch them), with conditional requests on a strong ETag of its bytes,
// and compressed like the static files (each variant made once, here).
func (s *Server) documentHandler(d discovery.Document, c *compression.Compressor) http.HandlerFunc {
	sum := sha256.Sum256(d.Body)
	etag := hex.EncodeToString(sum[:16])
	variants := map[string][]byte{}
	for _, enc := range compression.Encodings() {
		if b, err := c.Compress(enc, d.Body); err == nil && len(b) < len(d.Body) {
			variants[enc] = b
		}
	}
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", d.MediaType)
		h.Set("Cache-Control", cacheDocument)
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Vary", "Accept-Encoding")
		if d.Link != "" {
			h.Set("Link", d.Link)
		}
		body, tag := d.Body, etag
		if enc := compression.Negotiate(r.Header.Get("Accept-Encoding")); variants[enc] != nil {
			body, tag = variants[enc], etag+"-"+enc
			h.Set("Content-Encoding", enc)
		}
		h.Set("ETag", `"`+tag+`"`)
		s.serveContent(w, r, time.Time{}, bytes.NewReader(body))
	}
}
