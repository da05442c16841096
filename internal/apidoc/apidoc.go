// Package apidoc is the formal description of the API (OpenAPI 3.1): the
// document the server serves at /openapi.json and the build writes into the
// static tree. It is generated: the schemas from the Go types the answers
// are written from and the requests read into (components.go), each
// field's description beside it (its jsonschema tag) and what a type cannot
// say in refinements.go; the operations from the route table
// (discovery.Routes), whose prices, quotas, body bounds and in-flight bound
// decide the refusals each declares (responsesOf), with the words of each
// operation in operations.go. The build and the server both take it from
// here, so that the server package is not needed to describe it.
package apidoc

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// For returns the document of a deployment: its base URL, quotas and
// prices.
func For(site discovery.Site) []byte {
	b, err := json.MarshalIndent(describe(site), "", "  ")
	if err != nil {
		panic("apidoc: " + err.Error()) // every value of the document marshals: a failure is a programming error
	}
	return site.FillJSON(append(b, '\n'))
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

// describe is the document of site, with {placeholders} for its quotas and
// prices (discovery.Site.FillJSON).
func describe(site discovery.Site) document {
	return document{
		OpenAPI: "3.1.0",
		Info:    infoOf(site),
		Servers: []server{{URL: site.BaseURL}},
		Tags:    tags,
		Paths:   paths(),
		Components: componentsObject{
			Schemas:         schemas(),
			Responses:       responseObjects(),
			Headers:         headerObjects(),
			Parameters:      parameterObjects(),
			SecuritySchemes: securitySchemes,
		},
	}
}

// paths are the operations of endpoints, each with the answers its row in
// discovery.Routes implies.
func paths() map[string]map[string]*operation {
	out := map[string]map[string]*operation{}
	for _, e := range endpoints {
		rt := routeOf(e)
		op := &operation{
			OperationID: e.ID,
			Summary:     e.Summary,
			Description: e.Description,
			Tags:        []string{e.Tag},
			Parameters:  e.Parameters,
			RequestBody: e.Body,
			Responses:   responsesOf(e, rt),
			Security:    []map[string][]string{}, // none: the operation is open to anyone
		}
		if e.Bearer {
			op.Security = []map[string][]string{{}, {"bearerAuth": {}}}
		}
		if rt.Tier == discovery.TierPaid {
			paid(op, rt)
		}
		if rt.Quota != "" {
			op.Quota = quotaOf(rt.Quota)
		}
		if out[e.Path] == nil {
			out[e.Path] = map[string]*operation{}
		}
		out[e.Path][strings.ToLower(e.Method)] = op
	}
	return out
}

// paid adds to op what every paid operation says: its price, how it is
// paid, and that a HEAD pays nothing.
func paid(op *operation, rt discovery.Route) {
	op.Security = []map[string][]string{{"x402": {}}}
	op.Price = &price{Amount: "{price_" + rt.Price + "}", Currency: "USD", Asset: "USDC", Network: x402.NetworkBase}
	op.Description = strings.TrimSpace(op.Description + " Price: {price_" + rt.Price + "} USD per request, paid with x402 (no account, key or token). Never rate limited; does not use free quota. Invalid requests get 400 before any payment.")
	if rt.Method == http.MethodGet {
		op.Description += " HEAD gets the 402 offer headers (PAYMENT-REQUIRED) without a body and settles no payment, even a valid one."
	}
	op.Parameters = slices.Concat(op.Parameters, []*parameter{{Ref: parameterRef("AP2-Checkout-Mandate")}, {Ref: parameterRef("AP2-Payment-Mandate")}})
}

// quotaOf is the x-quota of the routes counted in scope: each of its
// caps (config.QuotaSettings), as configured.
func quotaOf(scope config.QuotaScope) *quotaExtension {
	q := &quotaExtension{PerDay: map[string]string{}, Reset: "midnight UTC"}
	for _, s := range config.QuotaSettings {
		if s.Counts == scope {
			q.PerDay[s.Name] = "{quota_" + s.Name + "}"
		}
	}
	return q
}

// routeOf is the row of e in discovery.Routes; the discovery documents
// and the AP2 key set, which are not in it, are free, count against no
// quota and take no body.
func routeOf(e endpoint) discovery.Route {
	for _, r := range discovery.Routes {
		if r.Method == e.Method && r.Path == e.Path {
			return r
		}
	}
	return discovery.Route{Method: e.Method, Path: e.Path, Tier: discovery.TierFree}
}
