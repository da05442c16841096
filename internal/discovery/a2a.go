package discovery

import "fmt"

// A2AProtocolVersion is the version of the A2A protocol whose agent card
// the site publishes.
const A2AProtocolVersion = "0.3.0"

// AgentCard is an A2A agent card (protocol 0.3.0).
//
// The service does not speak A2A: it offers a REST API and an MCP server.
// A2A 0.3.0 requires preferredTransport and requires that the main url
// serve it; its core values (JSONRPC, GRPC, HTTP+JSON) each promise the A2A
// methods (message/send, tasks/get ...), which no URL of the service
// answers. So the card names the MCP server as its url with the non-core
// transport value "MCP", which says exactly what listens there and which no
// A2A client mistakes for an A2A endpoint, and it leaves
// additionalInterfaces out: A2A wants each entry there to be an A2A
// transport at that URL, and declaring the REST API as HTTP+JSON would
// claim A2A's REST binding. The description names both interfaces for the
// agents that read it, and the skills name the MCP tools and REST
// endpoints that implement them.
type AgentCard struct {
	ProtocolVersion    string                    `json:"protocolVersion"`
	Name               string                    `json:"name"`
	Description        string                    `json:"description"`
	URL                string                    `json:"url"`
	PreferredTransport string                    `json:"preferredTransport"`
	Provider           AgentProvider             `json:"provider"`
	Version            string                    `json:"version"`
	DocumentationURL   string                    `json:"documentationUrl"`
	Capabilities       AgentCapabilities         `json:"capabilities"`
	SecuritySchemes    map[string]SecurityScheme `json:"securitySchemes"`
	// Security lists alternatives: the empty requirement says that
	// anonymous use is allowed.
	Security           []map[string][]string `json:"security"`
	DefaultInputModes  []string              `json:"defaultInputModes"`
	DefaultOutputModes []string              `json:"defaultOutputModes"`
	Skills             []AgentSkill          `json:"skills"`
}

// AgentProvider is the organization behind the agent.
type AgentProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// AgentCapabilities are the optional A2A features: none.
type AgentCapabilities struct {
	Streaming              bool `json:"streaming"`
	PushNotifications      bool `json:"pushNotifications"`
	StateTransitionHistory bool `json:"stateTransitionHistory"`
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
}

// A2ACard is the A2A agent card of the site.
func A2ACard(s Site) AgentCard {
	modes := []string{MediaTypeJSON}
	card := AgentCard{
		ProtocolVersion: A2AProtocolVersion,
		Name:            "entrycheck",
		Description: fmt.Sprintf("Visa and entry requirements by passport and destination, every fact cited, every gap admitted. "+
			"This service does not speak the A2A protocol: use its MCP server at %s (streamable HTTP; tools %s) "+
			"or its REST API described at %s. Free checks: %d a day per IP address, %d a day per client with an OAuth "+
			"bearer token (%s); paid calls in USDC on Base with x402, never rate limited. "+
			"Matrix revision (dataset_version): %s. Answers are advisory, not boarding decisions.",
			s.URL(PathMCP), toolList(), s.URL(PathOpenAPI), s.Quotas.Anonymous, s.Quotas.Client, s.URL(PathAuthGuide),
			s.DatasetVersion),
		URL:                s.URL(PathMCP),
		PreferredTransport: "MCP",
		Provider:           AgentProvider{Organization: "entrycheck", URL: s.BaseURL + "/"},
		Version:            s.Version,
		DocumentationURL:   s.URL(PathAuthGuide),
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
	for _, sk := range skills {
		card.Skills = append(card.Skills, AgentSkill{
			ID:          sk.id,
			Name:        sk.title,
			Description: sk.description + " " + skillAccess(s, sk),
			Tags:        sk.tags,
			Examples:    sk.examples,
		})
	}
	return card
}

// skillAccess says how a skill is reached and paid for, in one sentence.
func skillAccess(s Site, sk skill) string {
	text := fmt.Sprintf("MCP tool %s (%s)", sk.id, tierText(s, sk.tier, sk.toolPrice(s)))
	for _, r := range sk.rest(s) {
		text += fmt.Sprintf("; %s %s (%s)", r.Method, r.URL, tierText(s, r.Tier, r.Price))
	}
	return text + "."
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
