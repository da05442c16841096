package discovery

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// The paths of the plain-text documents for crawlers and agents.
const (
	PathLLMsTxt = "/llms.txt"
	PathRobots  = "/robots.txt"
)

// authGuideSource is the agent authentication guide with its deployment's
// values left as {placeholders}; AuthGuide fills them in.
//
//go:embed authguide.md
var authGuideSource string

// AuthGuide is the agent authentication guide (/auth.md) of the site, with
// its base URL, quotas and prices.
func AuthGuide(s Site) []byte {
	return []byte(s.Fill(authGuideSource))
}

// LLMsTxt is the short orientation for language models (llmstxt.org
// format): one link per list item, since parsers take an item's first.
func LLMsTxt(s Site) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# entrycheck\n\n> Visa and entry requirements by passport and destination: the requirement (visa_free with allowed stay, %s; unknown when there is no data, needs_review when official sources conflict), and the destination's entry rules, each with the official source it was read from. Matrix snapshot %s; %d routes; %d destinations with cited entry rules. Advisory only, not a boarding decision.\n\n",
		entrycheck.Names(entrycheck.MatrixRequirements()[1:]), s.DatasetVersion, s.Routes, s.CuratedDestinations)
	b.WriteString("Every page has a markdown variant: request it with `Accept: text/markdown`, or append `index.md` to a page's directory URL.\n\n")
	var others []string
	for _, l := range locale.Languages()[1:] {
		others = append(others, l.Code+" ("+l.Name+")")
	}
	fmt.Fprintf(&b, "Languages: the pages for travellers (home, passports, destinations, routes, the widget and the not-found page) are also published in %s, under /{lang}/ (for example /es/passports/deu/tha/ or /es/destinations/tha/); the transparency report, the agent guide, this file, the markdown variants and llms-full.txt are in English only. API answers give their words in the language of `lang` or Accept-Language.\n\n", strings.Join(others, ", "))
	b.WriteString("## Pages\n\n")
	for _, l := range []struct{ name, path, what string }{
		{"Passports", "/passports/index.md", "one page per passport with every destination"},
		{"A route", "/passports/deu/tha/index.md", "pages are at /passports/{passport}/{destination}/ with lower-case ISO 3166-1 alpha-3 codes"},
		{"Destinations", "/destinations/index.md", "cited entry rules per destination"},
		{"Transparency", "/transparency/index.md", "coverage, citations, freshness"},
		{"Full digest", "/llms-full.txt", "every route and every cited rule in plain text"},
	} {
		fmt.Fprintf(&b, "- [%s](%s): %s\n", l.name, s.URL(l.path), l.what)
	}
	b.WriteString("\n## API\n\n")
	fmt.Fprintf(&b, "- [OpenAPI](%s): GET %s (free, %d a day per IP, %d with a registered client), GET %s, GET %s, POST %s (paid with x402)\n",
		s.URL(PathOpenAPI), PathFreeCheck, s.Quotas.Anonymous, s.Quotas.Client, PathCheck, PathPassport, PathTrips)
	fmt.Fprintf(&b, "- [Agent authentication](%s)\n", s.URL(PathAuthGuide))
	fmt.Fprintf(&b, "- [MCP server](%s): streamable HTTP; its tools are listed in the [server card](%s)\n", s.URL(PathMCP), s.URL(PathServerCard))
	fmt.Fprintf(&b, "- [A2A endpoint](%s): JSON-RPC, A2A %s; its skills are listed in the [agent card](%s), the paid ones paid with x402 over A2A\n",
		s.URL(PathA2A), A2AProtocolVersion, s.URL(PathAgentCard))
	fmt.Fprintf(&b, "- [AP2 merchant key](%s): the paid REST routes, MCP tool and A2A skills also take AP2 v0.2 mandates beside x402 (see the agent authentication guide); their Checkout JWTs and receipts verify with this key\n",
		s.URL(PathAP2JWKS))
	fmt.Fprintf(&b, "- [Changes](%s): every rule change, JSON\n", s.URL(s.ChangesPath))
	fmt.Fprintf(&b, "- [Atom feed](%s): the same changes as a feed\n", s.URL(s.FeedPath))
	return []byte(b.String())
}

// Robots is robots.txt: crawl the site, not the API, and find the pages
// in the sitemap.
func Robots(s Site) []byte {
	return []byte("User-agent: *\nAllow: /\nDisallow: /free/\nDisallow: /v1/\nDisallow: /oauth/\n\nSitemap: " + s.URL("/sitemap.xml") + "\n")
}
