package discovery

// Linkset is a set of links in the JSON format of RFC 9264; as the API
// catalog (RFC 9727) it is served with MediaTypeAPICatalog. "linkset" is its
// only member, as RFC 9264 requires, so the dataset version travels as an
// extension target attribute of the links to the APIs.
type Linkset struct {
	Linkset []LinkContext `json:"linkset"`
}

// LinkContext holds the links of one context (anchor), one member per
// relation type, each an array of targets (RFC 9264 section 4.2.2). The
// relation types are the registered ones RFC 9727 uses: item (RFC 6573)
// and those of RFC 8631, with related (RFC 4287) for the public feeds.
type LinkContext struct {
	Anchor      string `json:"anchor"`
	Item        []Link `json:"item,omitempty"`
	ServiceDesc []Link `json:"service-desc,omitempty"`
	ServiceDoc  []Link `json:"service-doc,omitempty"`
	ServiceMeta []Link `json:"service-meta,omitempty"`
	Status      []Link `json:"status,omitempty"`
	Related     []Link `json:"related,omitempty"`
}

// Link is a link target object (RFC 9264 section 4.2.3): href and the
// target attributes of RFC 8288. DatasetVersion is an extension target
// attribute and therefore an array (RFC 9264 section 4.2.4.3).
type Link struct {
	Href           string   `json:"href"`
	Type           string   `json:"type,omitempty"`
	Title          string   `json:"title,omitempty"`
	Hreflang       []string `json:"hreflang,omitempty"`
	DatasetVersion []string `json:"dataset_version,omitempty"`
}

// APICatalog is the RFC 9727 API catalog of the site: the catalog lists its
// three APIs as items (the REST API at the base URL, the MCP server and the
// A2A endpoint), then describes each, anchored at its own URL.
func APICatalog(s Site) Linkset {
	version := []string{s.DatasetVersion}
	en := []string{"en"}
	authGuide := Link{Href: s.URL(PathAuthGuide), Type: "text/markdown", Title: "Agent authentication guide", Hreflang: en}
	return Linkset{Linkset: []LinkContext{
		{
			Anchor: s.URL(PathAPICatalog),
			Item: []Link{
				{Href: s.BaseURL, Title: "entrycheck REST API: entry requirements by passport and destination", DatasetVersion: version},
				{Href: s.URL(PathMCP), Title: "entrycheck MCP server (streamable HTTP)", DatasetVersion: version},
				{Href: s.URL(PathA2A), Title: "entrycheck A2A endpoint (JSON-RPC, A2A " + A2AProtocolVersion + ")", DatasetVersion: version},
			},
		},
		{
			Anchor: s.BaseURL,
			ServiceDesc: []Link{
				{Href: s.URL(PathOpenAPI), Type: MediaTypeJSON, Title: "OpenAPI 3.1 description"},
			},
			ServiceDoc: []Link{
				authGuide,
				{Href: s.BaseURL + "/", Type: "text/html", Title: "entrycheck", Hreflang: en},
			},
			ServiceMeta: []Link{
				{Href: s.URL(PathProtectedResource), Type: MediaTypeJSON, Title: "OAuth protected resource metadata"},
				{Href: s.URL(PathAuthorizationServer), Type: MediaTypeJSON, Title: "OAuth authorization server metadata"},
				{Href: s.URL(PathStats), Type: MediaTypeJSON, Title: "Dataset version and today's counters"},
				{Href: s.URL(PathAP2JWKS), Type: MediaTypeJWKS, Title: "AP2 merchant key: verifies the Checkout JWTs and receipts of the paid REST, MCP and A2A answers"},
			},
			Status: []Link{
				{Href: s.URL(PathHealth), Type: MediaTypeJSON, Title: "Health"},
			},
			Related: []Link{
				{Href: s.URL(s.ChangesPath), Type: MediaTypeJSON, Title: "Verification activity feed"},
				{Href: s.URL(s.FeedPath), Type: "application/atom+xml", Title: "Rule changes"},
			},
		},
		{
			Anchor: s.URL(PathMCP),
			ServiceDesc: []Link{
				{Href: s.URL(PathServerCard), Type: MediaTypeServerCard, Title: "MCP server card"},
			},
			ServiceDoc: []Link{authGuide},
		},
		{
			Anchor: s.URL(PathA2A),
			ServiceDesc: []Link{
				{Href: s.URL(PathAgentCard), Type: MediaTypeJSON, Title: "A2A agent card"},
			},
			ServiceDoc: []Link{authGuide},
		},
	}}
}
