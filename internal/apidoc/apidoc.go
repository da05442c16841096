// Package apidoc is the formal description of the API (OpenAPI 3.1): the
// document the server serves at /openapi.json and the build writes into the
// static tree, filled in for a deployment. Both take it from here, so that
// the server package is not needed to describe it.
package apidoc

import (
	"bytes"
	_ "embed"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// Document is the description as written: its servers entry names a
// placeholder base URL, and the quotas and prices it states are
// {placeholders} (see discovery.Site.Fill), so that the served document
// says what the configuration decides.
//
//go:embed openapi.json
var Document []byte

const baseURLPlaceholder = "https://entrycheck.example"

// For returns the document of a deployment: its base URL, quotas and
// prices.
func For(site discovery.Site) []byte {
	return site.FillJSON(bytes.ReplaceAll(Document, []byte(baseURLPlaceholder), []byte(site.BaseURL)))
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
