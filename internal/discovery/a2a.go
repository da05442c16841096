package discovery

import (
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// A2AProtocolVersion is the version of the A2A protocol whose agent card
// the site publishes.
const A2AProtocolVersion = "0.3.0"

// AgentCard is an A2A agent card (protocol 0.3.0).
//
// The A2A endpoint at PathA2A speaks JSON-RPC, the card's url and
// preferred transport. The REST API and the MCP server answer the same
// questions; the description names them for the agents that read it, but
// they are not listed as interfaces: A2A wants each interface to be an A2A
// transport, and neither is.
type AgentCard struct {
	ProtocolVersion      string                    `json:"protocolVersion"`
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	URL                  string                    `json:"url"`
	PreferredTransport   string                    `json:"preferredTransport"`
	AdditionalInterfaces []AgentInterface          `json:"additionalInterfaces"`
	Provider             AgentProvider             `json:"provider"`
	Version              string                    `json:"version"`
	DocumentationURL     string                    `json:"documentationUrl"`
	Capabilities         AgentCapabilities         `json:"capabilities"`
	SecuritySchemes      map[string]SecurityScheme `json:"securitySchemes"`
	// Security lists alternatives: the empty requirement says that
	// anonymous use is allowed.
	Security           []map[string][]string `json:"security"`
	DefaultInputModes  []string              `json:"defaultInputModes"`
	DefaultOutputModes []string              `json:"defaultOutputModes"`
	Skills             []AgentSkill          `json:"skills"`
}

// TransportJSONRPC is the A2A transport the endpoint speaks.
const TransportJSONRPC = "JSONRPC"

// AgentInterface is a URL and the A2A transport spoken there.
type AgentInterface struct {
	URL       string `json:"url"`
	Transport string `json:"transport"`
}

type AgentProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// AgentCapabilities are the optional A2A features: no streaming or push
// notifications (every answer is computed at once), and the extensions.
type AgentCapabilities struct {
	Streaming              bool             `json:"streaming"`
	PushNotifications      bool             `json:"pushNotifications"`
	StateTransitionHistory bool             `json:"stateTransitionHistory"`
	Extensions             []AgentExtension `json:"extensions"`
}

// AgentExtension declares an A2A extension the agent supports.
type AgentExtension struct {
	URI         string         `json:"uri"`
	Description string         `json:"description"`
	Required    bool           `json:"required"`
	Params      map[string]any `json:"params,omitempty"`
}

// SecurityScheme is an A2A security scheme (the OpenAPI security scheme
// object); only the members of its type are set.
type SecurityScheme struct {
	Type              string      `json:"type"`
	Description       string      `json:"description,omitempty"`
	Flows             *OAuthFlows `json:"flows,omitempty"`
	OAuth2MetadataURL string      `json:"oauth2MetadataUrl,omitempty"`
}

// OAuthFlows holds the one flow the service supports.
type OAuthFlows struct {
	ClientCredentials *OAuthFlow `json:"clientCredentials,omitempty"`
}

// OAuthFlow is an OAuth flow; the service defines no scopes.
type OAuthFlow struct {
	TokenURL string            `json:"tokenUrl"`
	Scopes   map[string]string `json:"scopes"`
}

// AgentSkill is one skill of the card.
type AgentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Examples    []string `json:"examples"`
	InputModes  []string `json:"inputModes"`
	OutputModes []string `json:"outputModes"`
}

// A2ACard is the A2A agent card of the site.
func A2ACard(s Site) AgentCard {
	modes := []string{MediaTypeJSON}
	card := AgentCard{
		ProtocolVersion: A2AProtocolVersion,
		Name:            "entrycheck",
		Description: fmt.Sprintf("Visa and entry requirements by passport and destination, every fact cited, every gap admitted. "+
			"Send message/send with one data part naming the skill and its arguments, such as %s; the answer comes back as a data "+
			"artifact, the same JSON as the REST API's. Free checks: %d a day per IP address, %d a day per client with an OAuth "+
			"bearer token (%s); the paid skills are paid in USDC on Base with x402 (extension %s), never rate limited: "+
			"the task asks for the payment in state input-required and completes once it is settled. The same answers are served by the REST API "+
			"described at %s and the MCP server at %s (tools %s). "+
			"Matrix revision (dataset_version): %s. Answers are advisory, not boarding decisions.",
			A2ASkills[1].Example, s.Quotas.Anonymous, s.Quotas.Client, s.URL(PathAuthGuide), x402.A2AExtensionURI,
			s.URL(PathOpenAPI), s.URL(PathMCP), toolList(), s.DatasetVersion),
		URL:                  s.URL(PathA2A),
		PreferredTransport:   TransportJSONRPC,
		AdditionalInterfaces: []AgentInterface{{URL: s.URL(PathA2A), Transport: TransportJSONRPC}},
		Provider:             AgentProvider{Organization: "entrycheck", URL: s.BaseURL + "/"},
		Version:              s.Version,
		DocumentationURL:     s.URL(PathAuthGuide),
		Capabilities:         AgentCapabilities{Extensions: a2aExtensions(s)},
		SecuritySchemes: map[string]SecurityScheme{
			"oauth2": {
				Type: "oauth2",
				Description: fmt.Sprintf("Optional. Register at %s (RFC 7591), exchange the client credentials at %s "+
					"and send the token as a bearer token: the free check quota rises from %d to %d a day.",
					s.URL(PathRegister), s.URL(PathToken), s.Quotas.Anonymous, s.Quotas.Client),
				Flows:             &OAuthFlows{ClientCredentials: &OAuthFlow{TokenURL: s.URL(PathToken), Scopes: map[string]string{}}},
				OAuth2MetadataURL: s.URL(PathAuthorizationServer),
			},
		},
		Security:           []map[string][]string{{}, {"oauth2": {}}},
		DefaultInputModes:  modes,
		DefaultOutputModes: modes,
	}
	for _, sk := range A2ASkills {
		card.Skills = append(card.Skills, AgentSkill{
			ID:          sk.ID,
			Name:        sk.Name,
			Description: sk.Description + " Arguments: " + sk.Arguments + ". " + a2aSkillAccess(s, sk),
			Tags:        sk.Tags,
			Examples:    []string{sk.Example},
			InputModes:  modes,
			OutputModes: modes,
		})
	}
	return card
}

// a2aExtensions are the A2A extensions the endpoint supports. Neither is
// required: the free skills need no payment, a paid skill called without
// x402 is refused with a message that says how to activate it, and AP2
// mandates are an option beside a plain x402 payment.
func a2aExtensions(s Site) []AgentExtension {
	return []AgentExtension{{
		URI: x402.A2AExtensionURI,
		Description: fmt.Sprintf("Pays the paid skills with x402 version %d (exact scheme, USDC on Base) as x402's A2A transport "+
			"specifies; activate it with the X-A2A-Extensions header.", x402.Version),
	}, {
		URI: ap2.A2AExtensionURI,
		Description: fmt.Sprintf("AP2 (Agent Payments Protocol) v0.2, merchant role, as an option beside x402 on the paid skills: "+
			"the input-required offer carries the merchant-signed Checkout JWT in the metadata %s; send the closed Checkout and "+
			"Payment Mandates (SD-JWT) in %s and %s beside %s. They are verified before anything is settled; a refused mandate "+
			"fails the task naming the failed check in %s and nothing is charged, and a completed task carries the signed Checkout "+
			"and Payment Receipts in %s. The Checkout JWTs and receipts verify with the key at %s.",
			ap2.MetaA2ACheckout, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate, x402.MetaA2APayload,
			ap2.MetaA2AError, ap2.MetaA2AReceipts, s.URL(PathAP2JWKS)),
		Params: map[string]any{"roles": []string{"merchant"}},
	}}
}

// a2aSkillAccess says how a skill is paid for and which REST route and
// MCP tool give the same answer, in one sentence.
func a2aSkillAccess(s Site, sk A2ASkill) string {
	r, _ := route(sk.Path)
	var price *PriceTag
	if p, ok := s.price(r.Method, r.Path); ok && r.Tier == TierPaid {
		price = priceTag(p)
	}
	text := tierText(s, r.Tier, price)
	if r.Tier == TierPaid {
		text += " over A2A (activate " + x402.A2AExtensionURI + ")"
	}
	return fmt.Sprintf("%s; the same answer as %s %s.", upperFirst(text), r.Method, s.URL(r.Path))
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func tierText(s Site, t Tier, p *PriceTag) string {
	switch {
	case t == TierPaid && p != nil:
		return p.USD + " USD a call, x402"
	case t == TierFreeCheck:
		return fmt.Sprintf("free check quota: %d a day anonymous, %d with a bearer token", s.Quotas.Anonymous, s.Quotas.Client)
	default:
		return "free"
	}
}

func toolList() string {
	var out string
	for i, sk := range skills {
		if i > 0 {
			out += ", "
		}
		out += sk.id
	}
	return out
}
