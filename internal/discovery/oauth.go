package discovery

// OAuthServerMetadata is the authorization server metadata of the token
// issuer (RFC 8414). The service issues opaque tokens to clients that
// registered themselves (RFC 7591) with the client credentials grant only,
// so there is no authorization endpoint.
type OAuthServerMetadata struct {
	Issuer                            string   `json:"issuer" jsonschema:"The service's base URL."`
	TokenEndpoint                     string   `json:"token_endpoint" jsonschema:"The token endpoint, /oauth/token (client credentials grant)."`
	RegistrationEndpoint              string   `json:"registration_endpoint" jsonschema:"The client registration endpoint, /oauth/register (RFC 7591, open and anonymous)."`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	// ResponseTypesSupported is ["none"]. No grant of the service uses the
	// authorization endpoint, and it has none; but RFC 8414 makes the
	// member REQUIRED and forbids an empty array (section 3.2: claims with
	// zero elements MUST be omitted), so strict client libraries refuse
	// both [] and its absence. "none" is the registered response type that
	// issues no code and no token, which is what a client would get.
	ResponseTypesSupported []string `json:"response_types_supported" jsonschema:"Always [\"none\"]: no grant the service supports uses the authorization endpoint, and it has none. RFC 8414 requires this member and forbids an empty array; none is the registered response type that issues no code and no token."`
	ServiceDocumentation   string   `json:"service_documentation" jsonschema:"The agent authentication guide, /auth.md."`
	// DatasetVersion is the matrix revision date (RFC 8414 allows
	// additional members).
	DatasetVersion string `json:"dataset_version" jsonschema:"The matrix snapshot date."`
}

// AuthorizationServer is the RFC 8414 metadata of the site.
func AuthorizationServer(s Site) OAuthServerMetadata {
	return OAuthServerMetadata{
		Issuer:                            s.BaseURL,
		TokenEndpoint:                     s.URL(PathToken),
		RegistrationEndpoint:              s.URL(PathRegister),
		GrantTypesSupported:               []string{"client_credentials"},
		TokenEndpointAuthMethodsSupported: []string{"client_secret_basic", "client_secret_post"},
		ResponseTypesSupported:            []string{"none"},
		ServiceDocumentation:              s.URL(PathAuthGuide),
		DatasetVersion:                    s.DatasetVersion,
	}
}

// ResourceMetadata is the protected resource metadata of the service
// (RFC 9728): what a bearer token is accepted on and who issues it. A
// 401 names its URL in WWW-Authenticate.
type ResourceMetadata struct {
	Resource               string   `json:"resource" jsonschema:"The service's base URL."`
	AuthorizationServers   []string `json:"authorization_servers" jsonschema:"The issuer of the tokens: this service (its metadata is /.well-known/oauth-authorization-server)."`
	BearerMethodsSupported []string `json:"bearer_methods_supported" jsonschema:"The token is sent in the Authorization header only."`
	ResourceName           string   `json:"resource_name"`
	ResourceDocumentation  string   `json:"resource_documentation" jsonschema:"The agent authentication guide, /auth.md."`
	// DatasetVersion is the matrix revision date (RFC 9728 allows
	// additional members).
	DatasetVersion string `json:"dataset_version" jsonschema:"The matrix snapshot date."`
}

// ProtectedResource is the RFC 9728 metadata of the site. The resource is
// the base URL, a prefix of every endpoint that accepts the token (the free
// check and the MCP server).
func ProtectedResource(s Site) ResourceMetadata {
	return ResourceMetadata{
		Resource:               s.BaseURL,
		AuthorizationServers:   []string{s.BaseURL},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "entrycheck free API",
		ResourceDocumentation:  s.URL(PathAuthGuide),
		DatasetVersion:         s.DatasetVersion,
	}
}

// ProtectedResourceURL is the URL of the protected resource metadata, the
// resource_metadata parameter of WWW-Authenticate.
func ProtectedResourceURL(s Site) string { return s.URL(PathProtectedResource) }
