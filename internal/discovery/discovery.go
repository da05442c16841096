// Package discovery holds the service's machine-readable discovery
// documents: OAuth authorization server and protected resource metadata
// (RFC 8414, RFC 9728), the API catalog (RFC 9727), the A2A agent card, the
// MCP server card, the agent skills index with its SKILL.md files, the
// agent authentication guide, llms.txt and robots.txt. The generator
// writes them into the public tree and the API serves them, both from
// Documents, so that a document is the same bytes wherever it is read.
//
// Every document is computed from a Site: the base URL comes from the
// configuration, never from a constant, and the matrix revision date
// (dataset_version) is published in each JSON document.
//
// It depends on the configuration, the domain's bounds and the x402 and AP2
// constants only; it must not import the API, the store, the generator or
// the evaluation core.
package discovery

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The paths of the discovery documents, all under /.well-known/ (RFC 8615).
const (
	PathAuthorizationServer = "/.well-known/oauth-authorization-server"
	PathProtectedResource   = "/.well-known/oauth-protected-resource"
	PathAPICatalog          = "/.well-known/api-catalog"
	PathAgentCard           = "/.well-known/agent-card.json"
	PathServerCard          = "/.well-known/mcp/server-card.json"
	PathSkillsIndex         = "/.well-known/agent-skills/index.json"
	// PathAP2JWKS is the JWKS of the key that signs the service's AP2
	// Checkout JWTs and receipts. The server serves it from its key, so it
	// is not one of the Documents.
	PathAP2JWKS = "/.well-known/ap2/jwks.json"
	// skillsDir holds one directory per skill, each with its SKILL.md.
	skillsDir = "/.well-known/agent-skills/"
)

// The paths of the service that the documents point to.
const (
	PathOpenAPI      = "/openapi.json"
	PathAuthGuide    = "/auth.md"
	PathHealth       = "/healthz"
	PathMetrics      = "/metrics"
	PathStats        = "/stats.json"
	PathTransparency = "/transparency"
	PathMCP          = "/mcp"
	PathA2A          = "/a2a"
	PathToken        = "/oauth/token"
	PathRegister     = "/oauth/register"
	PathFreeCheck    = "/free/check"
	PathCheck        = "/v1/check"
	PathPassport     = "/v1/passport/{iso3}"
	PathTrips        = "/v1/trips/evaluate"
)

// The defaults of a Site.
const (
	// APIVersion is the version of the API and of its formal description.
	APIVersion = "0.1.0"
	// FeedPath is the subscribable Atom feed of rule changes.
	FeedPath = "/feeds/changes.atom"
	// ChangesPath is the verification activity feed.
	ChangesPath = "/changes.json"
)

// The media types of the documents.
const (
	// MediaTypeJSON is the type of the OAuth metadata (RFC 8414, RFC 9728),
	// the agent card and the skills index.
	MediaTypeJSON = "application/json"
	// MediaTypeAPICatalog is a JSON linkset (RFC 9264) with the profile
	// that marks it as an API catalog (RFC 9727).
	MediaTypeAPICatalog = `application/linkset+json; profile="` + APICatalogProfile + `"`
	// MediaTypeServerCard is the type the MCP server card proposal names.
	MediaTypeServerCard = "application/mcp-server-card+json"
	// MediaTypeMarkdown is the type of the SKILL.md files and the
	// authentication guide.
	MediaTypeMarkdown = "text/markdown; charset=utf-8"
	// MediaTypeText is the type of llms.txt and robots.txt.
	MediaTypeText = "text/plain; charset=utf-8"
	// MediaTypeJWKS is the type of the AP2 merchant key set (RFC 7517).
	MediaTypeJWKS = "application/jwk-set+json"
)

// APICatalogProfile is the profile URI of RFC 9727 for linksets that are
// API catalogs.
const APICatalogProfile = "https://www.rfc-editor.org/info/rfc9727"

// Site describes one deployment of the service: everything the discovery
// documents say that is not fixed by the code. Build it with NewSite; the
// documents assume it passes Validate.
type Site struct {
	// BaseURL is the public address of the service, without a trailing
	// slash (config.Config.BaseURL). Every absolute URL in the documents
	// starts with it. The well-known documents are meant for the root of
	// the host (RFC 8615): a base URL with a path puts them below it.
	BaseURL string
	// DatasetVersion is the matrix revision date, served as dataset_version
	// (e.g. "2025-01-12").
	DatasetVersion string
	// Routes and CuratedDestinations are the sizes of the dataset that
	// llms.txt announces.
	Routes, CuratedDestinations int
	// Version is the version of the API and of its formal description.
	Version string
	// Quotas are the daily caps of the free tier.
	Quotas config.Quotas
	// Prices are the paid endpoints and what each costs.
	Prices []Price
	// FeedPath is the path of the Atom feed of rule changes.
	FeedPath string
	// ChangesPath is the path of the verification activity feed.
	ChangesPath string
}

// Price is what one paid endpoint costs, in US dollars paid in USDC on Base
// with x402 version 2.
type Price struct {
	// Method and Path name the endpoint as routed ("GET", "/v1/check");
	// Name is the price's name in config.Prices ("check").
	Method, Path, Name string
	// USD is the decimal price in dollars ("0.03").
	USD string
	// Description says what the payment buys.
	Description string
}

// PricesOf lists the paid routes with their prices, configured or
// default: the one table the offers, the documents and the tool
// descriptions read.
func PricesOf(p config.Prices) []Price {
	var out []Price
	for _, r := range Routes {
		if r.Tier == TierPaid {
			usd := cmp.Or(p[r.Price], r.USD)
			out = append(out, Price{Method: r.Method, Path: r.Path, Name: r.Price, USD: usd, Description: r.Description})
		}
	}
	return out
}

// UnknownPrices lists the configured prices no route names, which are
// certainly mistakes (ENTRYCHECK_PRICE_CHEK).
func UnknownPrices(p config.Prices) []string {
	var out []string
	for name := range p {
		if !slices.ContainsFunc(Routes, func(r Route) bool { return r.Price == name }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Dataset is what the documents say of the loaded data.
type Dataset struct {
	// Version is the matrix revision date.
	Version string
	// Routes is the number of passport-destination pairs of the matrix;
	// CuratedDestinations the number of destinations with cited entry rules.
	Routes, CuratedDestinations int
}

// NewSite describes the deployment configured by cfg, serving the dataset
// d, with the default feed paths.
func NewSite(cfg config.Config, d Dataset) Site {
	return Site{
		BaseURL:             strings.TrimRight(cfg.BaseURL, "/"),
		DatasetVersion:      d.Version,
		Routes:              d.Routes,
		CuratedDestinations: d.CuratedDestinations,
		Version:             APIVersion,
		Quotas:              cfg.Quotas,
		Prices:              PricesOf(cfg.Prices),
		FeedPath:            FeedPath,
		ChangesPath:         ChangesPath,
	}
}

// URL is the absolute URL of a path of the service.
func (s Site) URL(path string) string { return s.BaseURL + path }

// price returns the price of a paid endpoint.
func (s Site) price(method, path string) (Price, bool) {
	for _, p := range s.Prices {
		if p.Method == method && p.Path == path {
			return p, true
		}
	}
	return Price{}, false
}

// Document is one discovery document as published: where, as what, and the
// exact bytes.
type Document struct {
	// Path is the URL path under the base URL, e.g. "/.well-known/api-catalog".
	Path string
	// MediaType is the Content-Type to serve it with.
	MediaType string
	// Link is a Link header field value to send with it (GET and HEAD),
	// empty when none is asked for. RFC 9727 asks for rel="api-catalog" on
	// the catalog.
	Link string
	// Body is the document: indented JSON with a trailing newline, or
	// Markdown for SKILL.md files. The same Site gives the same bytes.
	Body []byte
}

// Documents returns every discovery document of the site, in a fixed order,
// for the generator to write and the server to serve: the server renders
// them for its own configuration, so that a server started with another
// base URL than the build's publishes its own.
func Documents(s Site) []Document {
	docs := []Document{
		{Path: PathAuthorizationServer, MediaType: MediaTypeJSON, Body: Encode(AuthorizationServer(s))},
		{Path: PathProtectedResource, MediaType: MediaTypeJSON, Body: Encode(ProtectedResource(s))},
		{
			Path: PathAPICatalog, MediaType: MediaTypeAPICatalog, Body: Encode(APICatalog(s)),
			Link: `<` + s.URL(PathAPICatalog) + `>; rel="api-catalog"; type="application/linkset+json"; profile="` + APICatalogProfile + `"`,
		},
		{Path: PathAgentCard, MediaType: MediaTypeJSON, Body: Encode(A2ACard(s))},
		{Path: PathServerCard, MediaType: MediaTypeServerCard, Body: Encode(MCPServerCard(s))},
		{Path: PathSkillsIndex, MediaType: MediaTypeJSON, Body: Encode(AgentSkills(s))},
	}
	for _, sk := range skills {
		docs = append(docs, Document{Path: sk.skillPath(), MediaType: MediaTypeMarkdown, Body: skillMarkdown(s, sk)})
	}
	return append(docs,
		Document{Path: PathAuthGuide, MediaType: MediaTypeMarkdown, Body: AuthGuide(s)},
		Document{Path: PathLLMsTxt, MediaType: MediaTypeText, Body: LLMsTxt(s)},
		Document{Path: PathRobots, MediaType: MediaTypeText, Body: Robots(s)},
	)
}

// Encode is the published form of a document: JSON indented by two spaces,
// HTML characters left as they are, and a trailing newline.
func Encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// The documents are plain structs of strings, numbers and slices.
		panic("discovery: encoding a document: " + err.Error())
	}
	return buf.Bytes()
}

// FreeQuota is the free tier as the documents publish it: daily caps, reset
// at midnight UTC.
type FreeQuota struct {
	AnonymousPerIP      int    `json:"anonymous_per_ip_per_day"`
	RegisteredPerClient int    `json:"registered_per_client_per_day"`
	AnonymousPerNetwork int    `json:"anonymous_per_network_per_day"`
	Global              int    `json:"global_per_day"`
	Reset               string `json:"reset"`
}

func (s Site) freeQuota() *FreeQuota {
	return &FreeQuota{
		AnonymousPerIP:      s.Quotas.Anonymous,
		RegisteredPerClient: s.Quotas.Client,
		AnonymousPerNetwork: s.Quotas.Network,
		Global:              s.Quotas.Global,
		Reset:               "daily at 00:00 UTC",
	}
}

// PriceTag is the price of a paid call as the documents publish it.
type PriceTag struct {
	USD         string `json:"usd"`
	Asset       string `json:"asset"`
	Network     string `json:"network"`
	Protocol    string `json:"protocol"`
	X402Version int    `json:"x402_version"`
}

func priceTag(p Price) *PriceTag {
	return &PriceTag{USD: p.USD, Asset: "USDC", Network: x402.NetworkBase, Protocol: "x402", X402Version: x402.Version}
}
