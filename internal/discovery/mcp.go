package discovery

import (
	"fmt"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// ServerCard is the MCP server card of the site, in the shape of the MCP
// Server Cards proposal (SEP-2127, draft, schema v1, the only version it
// defines). The site serves it at the well-known path its specification
// names and adds what agents ask before connecting (the tools with their
// tiers, how to authenticate, the links and the dataset version) under
// _meta, the card's extension point, with reverse-DNS keys.
type ServerCard struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	Title       string   `json:"title"`
	WebsiteURL  string   `json:"websiteUrl"`
	Remotes     []Remote `json:"remotes"`
	// Capabilities are those the server announces at initialization
	// (required by the proposal).
	Capabilities ServerCapabilities `json:"capabilities"`
	// Tools is ["dynamic"]: the proposal's reserved value for tools that
	// are listed by tools/list (their schemas live there, not here).
	Tools []string       `json:"tools"`
	Meta  ServerCardMeta `json:"_meta"`
}

// ServerCardSchema is the schema URI the proposal requires in $schema.
const ServerCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

// ServerCapabilities are the MCP server's capabilities: tools, whose list
// never changes while it runs.
type ServerCapabilities struct {
	Tools ToolsCapability `json:"tools"`
}

// ToolsCapability is the tools capability of MCP's ServerCapabilities.
type ToolsCapability struct {
	ListChanged bool `json:"listChanged"`
}

// MCPServerName is the server's name in reverse-DNS form; the MCP server
// reports the same name in its serverInfo.
const MCPServerName = "io.github.entrycheck/entrycheck"

// Remote is an HTTP endpoint of the MCP server.
type Remote struct {
	Type           string             `json:"type"`
	URL            string             `json:"url"`
	Headers        []RemoteHeader     `json:"headers,omitempty"`
	Authentication RemoteAuthenticate `json:"authentication"`
}

// RemoteAuthenticate says whether a remote needs credentials and which
// schemes it accepts.
type RemoteAuthenticate struct {
	Required bool     `json:"required"`
	Schemes  []string `json:"schemes"`
}

// RemoteHeader is a header a client may send to the remote.
type RemoteHeader struct {
	Name        string                 `json:"name"`
	Description string                 `json:"description"`
	IsRequired  bool                   `json:"isRequired"`
	IsSecret    bool                   `json:"isSecret"`
	Value       string                 `json:"value,omitempty"`
	Variables   map[string]RemoteInput `json:"variables,omitempty"`
}

// RemoteInput is a value a client supplies, such as a token.
type RemoteInput struct {
	Description string `json:"description,omitempty"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
}

// ServerCardMeta is the card's extension metadata, its keys namespaced by
// the server name's reverse-DNS namespace.
type ServerCardMeta struct {
	DatasetVersion string         `json:"io.github.entrycheck/dataset_version"`
	Tools          []MCPTool      `json:"io.github.entrycheck/tools"`
	Authentication Authentication `json:"io.github.entrycheck/authentication"`
	Links          MCPLinks       `json:"io.github.entrycheck/links"`
}

// MCPTool is a tool of the MCP server: what it does, its tier, and the REST
// endpoints that do the same. Its input schema is listed by tools/list.
type MCPTool struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Tier        Tier          `json:"tier"`
	Price       *PriceTag     `json:"price,omitempty"`
	REST        []RESTSummary `json:"rest"`
}

// Authentication says how a client authenticates: not at all, with a
// bearer token for the larger free quota, or by paying per call.
type Authentication struct {
	Anonymous AnonymousAccess `json:"anonymous"`
	Bearer    BearerAccess    `json:"bearer"`
	Paid      PaidAccess      `json:"paid"`
}

// AnonymousAccess is the free tier without credentials.
type AnonymousAccess struct {
	Description string     `json:"description"`
	Quota       *FreeQuota `json:"quota"`
}

// BearerAccess is the free tier of registered clients (OAuth 2.0 client
// credentials).
type BearerAccess struct {
	Description                 string `json:"description"`
	RegistrationEndpoint        string `json:"registration_endpoint"`
	TokenEndpoint               string `json:"token_endpoint"`
	ProtectedResourceMetadata   string `json:"protected_resource_metadata"`
	AuthorizationServerMetadata string `json:"authorization_server_metadata"`
	ChecksPerDay                int    `json:"checks_per_client_per_day"`
}

// PaidAccess is payment per call.
type PaidAccess struct {
	Description string `json:"description"`
	Protocol    string `json:"protocol"`
	X402Version int    `json:"x402_version"`
	Network     string `json:"network"`
	Asset       string `json:"asset"`
}

// MCPLinks are the documents an MCP client may want next.
type MCPLinks struct {
	OpenAPI     string `json:"openapi"`
	AuthGuide   string `json:"auth_guide"`
	APICatalog  string `json:"api_catalog"`
	AgentCard   string `json:"agent_card"`
	SkillsIndex string `json:"agent_skills"`
	Changes     string `json:"changes"`
	Feed        string `json:"feed"`
	// AP2JWKS is the key that signs the AP2 Checkout JWTs and receipts.
	AP2JWKS string `json:"ap2_jwks"`
}

// MCPServerCard is the MCP server card of the site.
func MCPServerCard(s Site) ServerCard {
	card := ServerCard{
		Schema:      ServerCardSchema,
		Name:        MCPServerName,
		Version:     s.Version,
		Description: "Visa and entry requirements by passport and destination, every fact cited.",
		Title:       "entrycheck",
		WebsiteURL:  s.BaseURL + "/",
		Remotes: []Remote{{
			Type: "streamable-http",
			URL:  s.URL(PathMCP),
			Headers: []RemoteHeader{{
				Name: "Authorization",
				Description: fmt.Sprintf("Optional. A bearer token from %s raises the free check quota from %d to %d a day; see %s.",
					s.URL(PathToken), s.Quotas.Anonymous, s.Quotas.Client, s.URL(PathAuthGuide)),
				IsRequired: false,
				IsSecret:   true,
				Value:      "Bearer {token}",
				Variables: map[string]RemoteInput{
					"token": {Description: "Access token from the client credentials grant at " + s.URL(PathToken), IsRequired: true, IsSecret: true},
				},
			}},
			// Anonymous calls are served; a bearer token only raises the
			// free quota.
			Authentication: RemoteAuthenticate{Required: false, Schemes: []string{"bearer", "oauth2"}},
		}},
		Capabilities: ServerCapabilities{Tools: ToolsCapability{ListChanged: false}},
		Tools:        []string{"dynamic"},
		Meta: ServerCardMeta{
			DatasetVersion: s.DatasetVersion,
			Authentication: Authentication{
				Anonymous: AnonymousAccess{
					Description: "No credentials: check_entry_requirements counts against the anonymous quota of the caller's IP address.",
					Quota:       s.freeQuota(),
				},
				Bearer: BearerAccess{
					Description: "Register once (RFC 7591), exchange the client credentials for a token (valid 3600 s) and send it " +
						"in the Authorization header: check_entry_requirements then counts against the client's larger quota.",
					RegistrationEndpoint:        s.URL(PathRegister),
					TokenEndpoint:               s.URL(PathToken),
					ProtectedResourceMetadata:   s.URL(PathProtectedResource),
					AuthorizationServerMetadata: s.URL(PathAuthorizationServer),
					ChecksPerDay:                s.Quotas.Client,
				},
				Paid: PaidAccess{
					Description: "Paid tools cost the price listed with each, in USDC on Base; paid calls need no account and are never rate limited. " +
						"Over MCP, payment follows the x402 MCP transport (tool-result binding): a call without an accepted payment returns isError with the PaymentRequired object in structuredContent; " +
						`repeat it with the signed PaymentPayload in params._meta["x402/payment"]; the receipt comes back in result._meta["x402/payment-response"]. ` +
						fmt.Sprintf(`AP2 v0.2 mandates are an option beside the payment (merchant role): the payment-required result carries the Checkout JWT under "ap2"; `+
							`send the closed mandates in params._meta[%q] and params._meta[%q]; the signed receipts come back in result._meta[%q], `+
							`and a refused mandate is named in result._meta[%q] with nothing charged. They verify with the key at links.ap2_jwks.`,
							ap2.MetaMCPCheckoutMandate, ap2.MetaMCPPaymentMandate, ap2.MetaMCPReceipts, ap2.MetaMCPError),
					Protocol:    "x402",
					X402Version: x402.Version,
					Network:     x402.NetworkBase,
					Asset:       "USDC",
				},
			},
			Links: MCPLinks{
				OpenAPI:     s.URL(PathOpenAPI),
				AuthGuide:   s.URL(PathAuthGuide),
				APICatalog:  s.URL(PathAPICatalog),
				AgentCard:   s.URL(PathAgentCard),
				SkillsIndex: s.URL(PathSkillsIndex),
				Changes:     s.URL(s.ChangesPath),
				Feed:        s.URL(s.FeedPath),
				AP2JWKS:     s.URL(PathAP2JWKS),
			},
		},
	}
	for _, sk := range skills {
		card.Meta.Tools = append(card.Meta.Tools, MCPTool{
			Name:        sk.id,
			Description: sk.summary,
			Tier:        sk.tier,
			Price:       sk.toolPrice(s),
			REST:        sk.rest(s),
		})
	}
	return card
}
