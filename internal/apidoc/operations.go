package apidoc

import (
	"net/http"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// endpoint documents one operation: what it is for, what it takes and its
// answer, and the refusals only it gives. The refusals every operation
// of its kind gives (a quota's 429, a paid route's 402, a body's 413, ...)
// follow from its row in discovery.Routes (see responsesOf).
type endpoint struct {
	Method, Path string
	ID, Tag      string
	Summary      string
	Description  string
	Parameters   []*parameter
	Body         *requestBody
	// Status is the status of the answer, 200 unless set.
	Status int
	// Answer describes the answer; Schema is its schema and MediaType its
	// media type, application/json unless set.
	Answer    string
	Schema    *jsonschema.Schema
	MediaType string
	// Type, when set instead of Schema, is the Go type the answer is
	// written from: its schema is the component of that type, which is
	// inferred under the type's name when components does not list it (a
	// paid answer's with its receipt, payment.PaidFields).
	Type reflect.Type
	// Headers are the headers of the answer (components/headers), beside
	// X-Request-Id, which every answer has.
	Headers []string
	// Refusals are the answers only this operation gives, by status.
	Refusals map[int]*reply
	// Bearer: the operation takes an OAuth access token, optionally.
	Bearer bool
	// Document: the answer is a fixed document, served with its ETag, in
	// parts (Range) and revalidated (If-None-Match).
	Document bool
}

// endpoints are the operations of the API, in the document's order.
var endpoints = []endpoint{
	{
		Method: http.MethodGet, Path: discovery.PathFreeCheck, ID: "freeCheck", Tag: tagFree,
		Summary:     "Check one passport and destination (free tier)",
		Description: "Anonymous: {quota_anonymous} checks per day per IP address, also capped per network (IPv4 /24, IPv6 /56: {quota_network} a day) and by a worldwide daily ceiling shared by the site, this API and every embedded widget ({quota_global} a day). With a bearer token from /oauth/token: {quota_client} per day per client. All buckets reset at midnight UTC. Behind the service's trusted proxies the address is the nearest untrusted hop of X-Forwarded-For or Forwarded (with or without a port); the clients a proxy does not name (for=unknown, an obfuscated for=_id) count together as one address (429 scope unknown_client_daily). Data gaps are not errors: they answer 200 with requirement unknown or needs_review. CORS: any origin may call it. HEAD counts nothing: it answers what GET would now (200 or 429, with X-RateLimit-Remaining the checks left), a free way to read the quota.",
		Parameters:  checkParameters(),
		Answer:      "The check result.",
		Schema:      ref("CheckResult"),
		Headers:     []string{headerLimit, headerRemaining, headerReset},
		Bearer:      true,
		Refusals: map[int]*reply{
			http.StatusUnauthorized: {Description: "Invalid or expired bearer token. WWW-Authenticate points to the protected-resource metadata (RFC 9728 resource_metadata).", Headers: headers(headerAuthenticate), Content: jsonBody(ref("Error"))},
		},
	},
	{
		Method: http.MethodGet, Path: discovery.PathCheck, ID: "paidCheck", Tag: tagPaid,
		Summary:     "Check one passport and destination (paid)",
		Description: "The same result as /free/check.",
		Parameters:  checkParameters(),
		Schema:      ref("PaidCheckResult"),
	},
	{
		Method: http.MethodGet, Path: discovery.PathPassport, ID: "passportMatrix", Tag: tagPaid,
		Summary:     "Requirements of one passport for every destination",
		Description: "The passport matrix (spec 2.3): each entry is a projection of the check result of that route.",
		Parameters: []*parameter{{
			Name: "iso3", In: "path", Required: true,
			Description: "Passport country: " + countryInputWords,
			Schema:      countryInput(""),
		}},
		Schema: ref("PassportMatrix"),
	},
	{
		Method: http.MethodPost, Path: discovery.PathTrips, ID: "evaluateTrip", Tag: tagPaid,
		Summary:     "Evaluate a whole itinerary",
		Description: "One decision per leg with the best passport, explanations and conditions, and a trip summary. The answer's words (the summary, each leg's reasons, condition details and notes, the Schengen account, the defaults' reasons, the assumptions and the disclaimer) are in the language asked for by lang, else by the body's language, else by Accept-Language; codes, field names and cited texts never change with the language.",
		Parameters: []*parameter{
			languageParameter("the summary's text and attention items, each leg's requirement_label, why, condition details and notes, the Schengen account's rule, detail and reasons, the defaults' reasons, the assumptions and the disclaimer", "It takes precedence over the body's language; without either, the Accept-Language header decides; without any, English.", "rule_text, official statements, curated notes"),
			{Ref: parameterRef("Accept-Language")},
		},
		Body:   &requestBody{Required: true, Description: "At most " + sizeWords(entrycheck.MaxTripBodyBytes) + ".", Content: jsonBody(ref("TripRequest"))},
		Schema: ref("TripResult"),
	},
	{
		Method: http.MethodPost, Path: discovery.PathRegister, ID: "registerClient", Tag: tagOAuth,
		Summary:     "Register a client (RFC 7591, open and anonymous)",
		Description: "{quota_registrations} registrations per day per IP address, {quota_registrations_network} per network (IPv4 /24, IPv6 /56) and {quota_registrations_global} worldwide. The secret is shown once; a registration expires after 90 days. No account and no personal data.",
		Body:        &requestBody{Required: true, Content: jsonBody(ref("RegistrationRequest"))},
		Status:      http.StatusCreated,
		Answer:      "The client; store client_secret now.",
		Schema:      ref("RegistrationResponse"),
		Refusals: map[int]*reply{
			http.StatusBadRequest: {Description: "invalid_client_metadata: the registration names a grant type or an authentication method the service does not offer, or is not a JSON object.", Content: jsonBody(ref("OAuthError"))},
		},
	},
	{
		Method: http.MethodPost, Path: discovery.PathToken, ID: "token", Tag: tagOAuth,
		Summary:     "Exchange client credentials for an access token",
		Description: "grant_type=client_credentials with HTTP Basic client authentication (client_secret_basic) or client_id and client_secret in the form (client_secret_post). The token is opaque and lives 3600 seconds. At most {quota_tokens} tokens per client and day (429 tokens_client_daily after that); a client holds at most 5 live tokens: a new one revokes the oldest, so request a token when the last one expires, not per call.",
		Body: &requestBody{Required: true, Content: map[string]*mediaType{"application/x-www-form-urlencoded": {Schema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"grant_type":    {Type: "string", Enum: []any{"client_credentials"}},
				"client_id":     {Type: "string"},
				"client_secret": {Type: "string"},
			},
			PropertyOrder: []string{"grant_type", "client_id", "client_secret"},
			Required:      []string{"grant_type"},
		}}}},
		Answer: "The access token.",
		Schema: ref("TokenResponse"),
		Refusals: map[int]*reply{
			http.StatusBadRequest:   {Description: "invalid_request (also a body that is not application/x-www-form-urlencoded), unsupported_grant_type or invalid_scope.", Content: jsonBody(ref("OAuthError"))},
			http.StatusUnauthorized: {Description: "invalid_client.", Headers: headers(headerAuthenticate), Content: jsonBody(ref("OAuthError"))},
		},
	},
	{
		Method: http.MethodGet, Path: discovery.PathStats, ID: "stats", Tag: tagService,
		Summary: "Live counters",
		Answer:  "Free checks served today, paid calls today, dataset version.",
		Schema:  ref("Stats"),
		Refusals: map[int]*reply{
			http.StatusServiceUnavailable: {Ref: responseRef(responseUnavailable)},
		},
	},
	{
		Method: http.MethodGet, Path: discovery.PathHealth, ID: "health", Tag: tagService,
		Summary: "Health",
		Answer:  "Healthy.",
		Schema:  ref("Health"),
		Refusals: map[int]*reply{
			http.StatusServiceUnavailable: {Description: "The database does not answer.", Content: jsonBody(ref("Health"))},
		},
	},
	{
		Method: http.MethodGet, Path: discovery.PathOpenAPI, ID: "openapi", Tag: tagService,
		Summary:  "This document",
		Answer:   "OpenAPI 3.1.",
		Schema:   &jsonschema.Schema{Type: "object"},
		Document: true,
	},
	{
		Method: http.MethodGet, Path: discovery.PathMetrics, ID: "metrics", Tag: tagService,
		Summary:   "Prometheus metrics",
		Answer:    "Prometheus text exposition.",
		Schema:    &jsonschema.Schema{Type: "string"},
		MediaType: "text/plain",
	},
	{
		Method: http.MethodGet, Path: discovery.PathProtectedResource, ID: "protectedResourceMetadata", Tag: tagOAuth,
		Summary:  "Protected resource metadata (RFC 9728)",
		Answer:   "Metadata.",
		Schema:   ref("ProtectedResourceMetadata"),
		Document: true,
	},
	{
		Method: http.MethodGet, Path: discovery.PathAuthorizationServer, ID: "authorizationServerMetadata", Tag: tagOAuth,
		Summary:  "Authorization server metadata (RFC 8414)",
		Answer:   "Metadata.",
		Schema:   ref("AuthorizationServerMetadata"),
		Document: true,
	},
	{
		Method: http.MethodGet, Path: discovery.PathAP2JWKS, ID: "ap2MerchantKeys", Tag: tagPaid,
		Summary:     "AP2 merchant key set (JWKS)",
		Description: "The public key that signs the service's AP2 Checkout JWTs and receipts, on every paid path (REST, MCP, A2A): verify a Checkout JWT before presenting mandates for it, and a receipt after payment. The key changes only when the operator changes it (--ap2-key); a server started without one signs with a key of that run.",
		Answer:      "The key set.",
		Schema:      ref("AP2JWKS"),
		MediaType:   "application/jwk-set+json",
		Refusals: map[int]*reply{
			http.StatusNotFound: {Description: "not_found: AP2 is not enabled on this server.", Content: jsonBody(ref("Error"))},
		},
	},
}
