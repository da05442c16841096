package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// The JSON Schemas of the MCP tools. The answers (CheckResult, TripResult)
// and the trip request are the API's own schemas, taken from openapi.json so
// that a tool and its REST endpoint are described once; the tool-only
// shapes (the check arguments, the dataset information) are inferred from
// the Go types below and made precise where inference cannot be
// (patterns, enums, bounds).

// checkArguments are the arguments of check_entry_requirements: the
// parameters of GET /free/check, with the held documents as arrays.
type checkArguments struct {
	Passport           string   `json:"passport" jsonschema:"The country that issued the passport: ISO 3166-1 alpha-3 code in any letter case (DEU), alpha-2 code (DE) or country name (Germany); the answer names it by its alpha-3 code. Codes of other systems and misspellings are refused with suggestions (GER suggests DEU, UK suggests GBR)."`
	Destination        string   `json:"destination" jsonschema:"The destination country, named like passport, e.g. THA or Thailand."`
	Transit            string   `json:"transit,omitempty" jsonschema:"A country the traveller transits on the way, named like passport; adds an advisory transit lookup with that country's transit-without-visa programmes."`
	Purpose            string   `json:"purpose,omitempty" jsonschema:"Purpose of the trip: tourism (the default, listed in defaults_applied) or business."`
	ResidencePermitsOf []string `json:"residence_permits_of,omitempty" jsonschema:"Countries (named like passport) or the SCHENGEN group whose residence permits the traveller holds; a destination's curated exemption for them is applied and cited in exemption_applied. At most 20."`
	VisasOf            []string `json:"visas_of,omitempty" jsonschema:"Countries (named like passport) or the SCHENGEN group whose visas the traveller holds; a destination's curated exemption for them is applied and cited in exemption_applied. At most 20."`
	Language           string   `json:"language,omitempty" jsonschema:"The language of the answer's words (requirement_label, action_text, notes, assumptions, reasons, disclaimer and the text content): a BCP 47 tag such as fr or pt-BR. English by default; a language not spoken falls back to English, listed in defaults_applied. Codes and field names never change."`
}

// datasetInfo is the answer of get_dataset_info.
type datasetInfo struct {
	DatasetVersion          string             `json:"dataset_version" jsonschema:"The matrix snapshot date, served as dataset_version with every answer."`
	Routes                  int                `json:"routes" jsonschema:"Passport to destination routes with a verdict: every passport to every other country of the matrix."`
	Passports               int                `json:"passports" jsonschema:"Passports covered by the matrix."`
	Destinations            int                `json:"destinations" jsonschema:"Destinations covered by the matrix."`
	CuratedDestinations     int                `json:"curated_destinations" jsonschema:"Destinations whose entry rules are curated from official sources, every rule cited (coverage extended); the others have coverage basic."`
	CuratedDestinationCodes []string           `json:"curated_destination_codes" jsonschema:"ISO 3166-1 alpha-3 codes of the curated destinations, sorted."`
	RequirementValues       []requirementValue `json:"requirement_values" jsonschema:"Every value of requirement, easiest first, with its label and the action it calls for."`
	StaleAfterDays          int                `json:"stale_after_days" jsonschema:"Curated entry rules whose oldest citation is older than this many days are reported as stale."`
	MatrixSource            matrixSource       `json:"matrix_source" jsonschema:"The secondary source of the visa verdicts and its licence."`
	Today                   todayCounters      `json:"today" jsonschema:"Today's counters (UTC day), as in /stats.json."`
	Links                   datasetLinks       `json:"links" jsonschema:"Where to read more."`
}

type requirementValue struct {
	Value  entrycheck.Requirement `json:"value" jsonschema:"The requirement value."`
	Label  string                 `json:"label" jsonschema:"Its human-readable label."`
	Action entrycheck.Action      `json:"action" jsonschema:"The action it calls for."`
}

type matrixSource struct {
	Kind     string `json:"kind" jsonschema:"Always secondary_matrix: the verdicts are never claimed as officially verified."`
	Name     string `json:"name" jsonschema:"The dataset's name."`
	URL      string `json:"url" jsonschema:"Where the dataset is published."`
	Commit   string `json:"commit,omitempty" jsonschema:"The commit of that repository the snapshot was taken from; absent when not known."`
	License  string `json:"license" jsonschema:"The dataset's licence (SPDX identifier)."`
	Snapshot string `json:"snapshot" jsonschema:"The snapshot served, the same date as dataset_version."`
}

type todayCounters struct {
	Date              string `json:"date" jsonschema:"The UTC day counted."`
	FreeChecks        int    `json:"free_checks" jsonschema:"Free checks served today by the site, the API, the widgets and the MCP server together."`
	FreeChecksCeiling int    `json:"free_checks_ceiling" jsonschema:"The worldwide daily ceiling of free checks."`
	PaidCalls         int64  `json:"paid_calls" jsonschema:"Paid calls settled today."`
	ResetAt           string `json:"reset_at" jsonschema:"When the daily counters and quotas reset (midnight UTC)."`
}

type datasetLinks struct {
	OpenAPI      string `json:"openapi" jsonschema:"The formal description of the REST API (OpenAPI 3.1)."`
	Transparency string `json:"transparency" jsonschema:"Coverage, citations by source and freshness of the curated layer."`
	Changes      string `json:"changes" jsonschema:"The verification activity feed (JSON)."`
	Feed         string `json:"feed" jsonschema:"The Atom feed of rule changes."`
	ServerCard   string `json:"server_card" jsonschema:"This MCP server's card: tools, tiers, authentication."`
	AuthGuide    string `json:"auth_guide" jsonschema:"How to register a client and get a bearer token for the larger free quota."`
}

// toolSchemas are the input and output schemas of the three tools.
type toolSchemas struct {
	checkIn, checkOut     any
	tripIn, tripOut       any
	datasetIn, datasetOut any
}

// computeSchemas derives the tools' schemas from openapi, the API's
// description (a millisecond; a server does it once).
func computeSchemas(openapi []byte) toolSchemas {
	comps := openAPISchemas(openapi)
	return toolSchemas{
		checkIn:    checkArgumentsSchema(),
		checkOut:   toolOutput(comps, nil, "CheckResult", "Error", "RateLimited"),
		tripIn:     inlinedComponent(comps, "TripRequest"),
		tripOut:    toolOutput(comps, nil, "TripResult", "Error", "PaymentRequired"),
		datasetIn:  map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		datasetOut: toolOutput(comps, map[string]any{datasetInfoName: datasetInfoSchema()}, datasetInfoName, "Error"),
	}
}

// datasetInfoName names get_dataset_info's answer under $defs.
const datasetInfoName = "DatasetInfo"

// toolOutput is a tool's output schema: its answer (the first name) or one
// of the bodies it returns with isError (the others). MCP clients validate
// structuredContent against outputSchema whether or not the result is an
// error (the npm SDK refuses a mismatch with -32602), and the x402 MCP
// transport requires the PaymentRequired object in structuredContent, so
// the error bodies belong to the schema. The schemas are openapi.json's
// components, or own ones, under $defs.
func toolOutput(comps, own map[string]any, names ...string) map[string]any {
	root := componentSchema(comps, names...)
	if len(own) > 0 {
		defs, _ := root["$defs"].(map[string]any)
		if defs == nil {
			defs = map[string]any{}
		}
		maps.Copy(defs, own)
		root["$defs"] = defs
	}
	root["description"] = "The answer (" + names[0] + "), or when isError is true the error body (" + strings.Join(names[1:], " or ") + ")."
	return root
}

func inferred[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	return s
}

func checkArgumentsSchema() *jsonschema.Schema {
	s := inferred[checkArguments]()
	p := s.Properties
	for _, name := range []string{"passport", "destination", "transit"} {
		p[name].MinLength, p[name].MaxLength = ptr(country.MinInputLength), ptr(country.MaxInputLength)
	}
	p["purpose"].Enum = []any{entrycheck.PurposeTourism, entrycheck.PurposeBusiness}
	p["purpose"].Default = json.RawMessage(`"` + entrycheck.PurposeTourism + `"`)
	p["language"].MaxLength = ptr(locale.MaxTagLength)
	p["language"].Examples = []any{"fr", "pt-BR", "hi"}
	for _, name := range []string{"residence_permits_of", "visas_of"} {
		arr := p[name]
		arr.Type, arr.Types = "array", nil
		arr.Items.MinLength, arr.Items.MaxLength = ptr(country.MinInputLength), ptr(country.MaxInputLength)
		arr.MaxItems = ptr(entrycheck.MaxHeldDocuments)
	}
	s.Examples = []any{
		map[string]any{"passport": "DEU", "destination": "THA"},
		map[string]any{"passport": "IND", "destination": "MEX", "visas_of": []string{"USA"}},
		map[string]any{"passport": "DEU", "destination": "AUS", "transit": "SGP", "purpose": "business"},
	}
	return s
}

func datasetInfoSchema() *jsonschema.Schema {
	s := inferred[datasetInfo]()
	p := s.Properties
	p["dataset_version"].Format = "date"
	for _, name := range []string{"routes", "passports", "destinations", "curated_destinations", "stale_after_days"} {
		p[name].Minimum = ptr(0.0)
	}
	codes := p["curated_destination_codes"]
	codes.Type, codes.Types = "array", nil
	codes.Items.Pattern = "^[A-Z]{3}$"
	reqs := p["requirement_values"]
	reqs.Type, reqs.Types = "array", nil
	values := make([]any, len(entrycheck.Requirements))
	for i, r := range entrycheck.Requirements {
		values[i] = string(r)
	}
	reqs.Items.Properties["value"].Enum = values
	actions := make([]any, len(entrycheck.Actions))
	for i, a := range entrycheck.Actions {
		actions[i] = string(a)
	}
	reqs.Items.Properties["action"].Enum = actions
	src := p["matrix_source"].Properties
	src["kind"].Const = ptr[any](entrycheck.SourceSecondaryMatrix)
	src["url"].Format = "uri"
	src["snapshot"].Format = "date"
	today := p["today"].Properties
	today["date"].Format = "date"
	today["reset_at"].Format = "date-time"
	for _, l := range p["links"].Properties {
		l.Format = "uri"
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// openAPISchemas are the component schemas of openapi.json.
func openAPISchemas(openapi []byte) map[string]any {
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi, &doc); err != nil {
		panic("mcpserver: openapi.json: " + err.Error())
	}
	return doc.Components.Schemas
}

const componentRef = "#/components/schemas/"

// componentSchema returns a standalone JSON Schema (2020-12, which
// OpenAPI 3.1 schemas are) of any of the named components of openapi.json
// (comps) or, for names absent from openapi.json, of $defs the caller
// adds: an object matching one of them. The components they use go under
// $defs and the references point there.
func componentSchema(comps map[string]any, names ...string) map[string]any {
	defs := map[string]any{}
	var pending []string
	rewrite := func(ref string) string {
		n, ok := strings.CutPrefix(ref, componentRef)
		if !ok {
			panic("mcpserver: openapi.json: unexpected reference " + ref)
		}
		if _, seen := defs[n]; !seen {
			defs[n] = nil
			pending = append(pending, n)
		}
		return "#/$defs/" + n
	}
	anyOf := make([]any, len(names))
	for i, n := range names {
		anyOf[i] = map[string]any{"$ref": "#/$defs/" + n}
		if _, ok := comps[n]; ok {
			rewrite(componentRef + n)
		}
	}
	root := map[string]any{"type": "object", "anyOf": anyOf}
	for len(pending) > 0 {
		n := pending[0]
		pending = pending[1:]
		c, ok := comps[n]
		if !ok {
			panic("mcpserver: openapi.json: no component " + n)
		}
		defs[n] = copySchema(c, rewrite)
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	return root
}

// inlinedComponent returns the named component with every reference
// replaced by the schema it names, for input schemas that clients show or
// fill in directly. A description beside a reference overrides the
// referenced one.
func inlinedComponent(comps map[string]any, name string) map[string]any {
	var inline func(v any, depth int) any
	inline = func(v any, depth int) any {
		if depth > 32 {
			panic("mcpserver: openapi.json: recursive schema " + name)
		}
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				n, _ := strings.CutPrefix(ref, componentRef)
				target, ok := comps[n]
				if !ok {
					panic("mcpserver: openapi.json: no component " + ref)
				}
				out := inline(target, depth+1).(map[string]any)
				for k, x := range v {
					if k != "$ref" {
						out[k] = inline(x, depth+1)
					}
				}
				return out
			}
			out := make(map[string]any, len(v))
			for k, x := range v {
				out[k] = inline(x, depth+1)
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = inline(x, depth+1)
			}
			return out
		}
		return v
	}
	return inline(comps[name], 0).(map[string]any)
}

// copySchema deep-copies a decoded schema, passing every $ref through rewrite.
func copySchema(v any, rewrite func(string) string) any {
	switch v := v.(type) {
	case map[string]any:
		out := maps.Clone(v)
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out[k] = rewrite(s)
				continue
			}
			out[k] = copySchema(x, rewrite)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copySchema(x, rewrite)
		}
		return out
	}
	return v
}
