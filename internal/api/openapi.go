package api

import (
	"bytes"

	_ "embed"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
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

// SiteOf describes the deployment configured by cfg serving ev's dataset
// to the discovery package; the build and the server both use it, so a
// document is the same bytes whichever wrote it.
func SiteOf(cfg config.Config, ev *evaluation.Evaluator) discovery.Site {
	snap := ev.Snapshot()
	return discovery.NewSite(cfg, discovery.Dataset{
		Version:             snap.Version(),
		Routes:              snap.Matrix.Routes(),
		CuratedDestinations: len(snap.Curated.CitedCodes()),
	})
}
