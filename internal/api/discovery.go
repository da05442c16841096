package api

import (
	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/response"
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
// server runs, so they are rendered and compressed once; they are
// readable from any origin (browser-based OAuth and MCP clients fetch
// them).
func (s *Server) routeDocuments(r chi.Router) {
	var c compression.Compressor
	for _, d := range discovery.Documents(s.site()) {
		getAndHead(r, d.Path, response.NewDocument(d.MediaType, d.Link, d.Body, &c).ServeHTTP)
	}
}
