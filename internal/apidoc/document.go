package apidoc

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// The objects of an OpenAPI 3.1 document this description uses.

type document struct {
	OpenAPI    string                           `json:"openapi"`
	Info       info                             `json:"info"`
	Servers    []server                         `json:"servers"`
	Tags       []tag                            `json:"tags"`
	Paths      map[string]map[string]*operation `json:"paths"`
	Components componentsObject                 `json:"components"`
}

type info struct {
	Title       string  `json:"title"`
	Version     string  `json:"version"`
	Summary     string  `json:"summary"`
	Description string  `json:"description"`
	License     license `json:"license"`
}

type license struct {
	Name       string `json:"name"`
	Identifier string `json:"identifier"`
}

type server struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

type tag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type operation struct {
	OperationID string                `json:"operationId"`
	Summary     string                `json:"summary"`
	Description string                `json:"description,omitempty"`
	Tags        []string              `json:"tags"`
	Security    []map[string][]string `json:"security"`
	Price       *price                `json:"x-price,omitempty"`
	Quota       *quotaExtension       `json:"x-quota,omitempty"`
	Parameters  []*parameter          `json:"parameters,omitempty"`
	RequestBody *requestBody          `json:"requestBody,omitempty"`
	Responses   map[string]*reply     `json:"responses"`
}

// price is the x-price extension of a paid operation.
type price struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Asset    string `json:"asset"`
	Network  string `json:"network"`
}

// quotaExtension is the x-quota extension of an operation that counts against
// daily quotas: each cap by its name in the configuration.
type quotaExtension struct {
	PerDay map[string]string `json:"per_day"`
	Reset  string            `json:"reset"`
}

type parameter struct {
	Ref         string              `json:"$ref,omitempty"`
	Name        string              `json:"name,omitempty"`
	In          string              `json:"in,omitempty"`
	Required    bool                `json:"required,omitempty"`
	Description string              `json:"description,omitempty"`
	Schema      *jsonschema.Schema  `json:"schema,omitempty"`
	Examples    map[string]*example `json:"examples,omitempty"`
}

type example struct {
	Value any `json:"value"`
}

type requestBody struct {
	Required    bool                  `json:"required"`
	Description string                `json:"description,omitempty"`
	Content     map[string]*mediaType `json:"content"`
}

type mediaType struct {
	Schema *jsonschema.Schema `json:"schema"`
}

// reply is a response object, or a reference to one of components/responses.
type reply struct {
	Ref         string                `json:"$ref,omitempty"`
	Description string                `json:"description,omitempty"`
	Headers     map[string]*header    `json:"headers,omitempty"`
	Content     map[string]*mediaType `json:"content,omitempty"`
}

// header is a header object, or a reference to one of components/headers.
type header struct {
	Ref         string             `json:"$ref,omitempty"`
	Description string             `json:"description,omitempty"`
	Required    bool               `json:"required,omitempty"`
	Schema      *jsonschema.Schema `json:"schema,omitempty"`
}

type componentsObject struct {
	Schemas         map[string]*jsonschema.Schema `json:"schemas"`
	Responses       map[string]*reply             `json:"responses"`
	Headers         map[string]*header            `json:"headers"`
	Parameters      map[string]*parameter         `json:"parameters"`
	SecuritySchemes map[string]*securityScheme    `json:"securitySchemes"`
}

type securityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme,omitempty"`
	In          string `json:"in,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description"`
}

// jsonBody is content of one JSON schema.
func jsonBody(s *jsonschema.Schema) map[string]*mediaType {
	return map[string]*mediaType{"application/json": {Schema: s}}
}
