package apidoc

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// schemaRef is where the document keeps the schema named name.
func schemaRef(name string) string { return "#/components/schemas/" + name }

func ref(name string) *jsonschema.Schema { return &jsonschema.Schema{Ref: schemaRef(name)} }

// schemas returns components/schemas: each component's schema, inferred
// from its Go type and refined (refinements).
func schemas() map[string]*jsonschema.Schema {
	all := allComponents()
	refs := map[reflect.Type]*jsonschema.Schema{}
	for _, c := range all {
		if _, ok := refs[c.Type]; !ok {
			refs[c.Type] = ref(c.Name)
		}
	}
	out := make(map[string]*jsonschema.Schema, len(all))
	for _, c := range all {
		s := c.infer(refs)
		if c.Description != "" {
			s.Description = c.Description
		}
		out[c.Name] = s
	}
	for _, r := range refinements {
		r.apply(out)
	}
	return out
}

// allComponents are components, and a component for the answer type of
// each of endpoints that components does not list.
func allComponents() []component { return componentsOf(endpoints) }

func componentsOf(eps []endpoint) []component {
	all := slices.Clone(components)
	for _, e := range eps {
		if e.Type == nil || slices.ContainsFunc(all, func(c component) bool { return c.Type == e.Type }) {
			continue
		}
		c := component{Name: e.Type.Name(), Type: e.Type, Description: e.Answer}
		if routeOf(e).Tier == discovery.TierPaid {
			c.With = []reflect.Type{typ[payment.PaidFields]()}
		}
		all = append(all, c)
	}
	return all
}

// schemaOf is the schema of e's answer.
func (e endpoint) schemaOf() *jsonschema.Schema {
	if e.Type == nil {
		return e.Schema
	}
	for _, c := range allComponents() {
		if c.Type == e.Type {
			return ref(c.Name)
		}
	}
	panic("apidoc: no component for " + e.Type.String()) // allComponents adds one
}

// infer is the schema of c: its own when it has one, else that of its
// type and With, where a field of another component's type refers to it.
// A type embedded in c's is not referred to but spread, as encoding/json
// spreads its fields.
func (c component) infer(refs map[reflect.Type]*jsonschema.Schema) *jsonschema.Schema {
	if c.Schema != nil {
		return c.Schema()
	}
	own := maps.Clone(refs)
	own[reflect.TypeFor[time.Time]()] = &jsonschema.Schema{Type: "string", Format: "date-time"}
	types := append([]reflect.Type{c.Type}, c.With...)
	for _, t := range types {
		delete(own, t)
		for _, e := range embedded(t) {
			delete(own, e)
		}
	}
	var s *jsonschema.Schema
	for _, t := range types {
		ts, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: own})
		if err != nil {
			panic(fmt.Sprintf("apidoc: schema of %s: %v", c.Name, err)) // a type that cannot be described is a programming error
		}
		nonNullArrays(ts)
		nullRefs(ts, t, own)
		if s == nil {
			s = ts
			continue
		}
		maps.Copy(s.Properties, ts.Properties)
		s.PropertyOrder = append(s.PropertyOrder, ts.PropertyOrder...)
		s.Required = append(s.Required, ts.Required...)
	}
	return s
}

// embedded lists the struct types t embeds, at any depth.
func embedded(t reflect.Type) []reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []reflect.Type
	for f := range t.Fields() {
		if f.Anonymous {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			out = append(out, ft)
			out = append(out, embedded(ft)...)
		}
	}
	return out
}

// nonNullArrays declares the slices of s arrays, not null: the answers
// write an empty list rather than null, and a list that may be null says
// so in refinements (nullable). The recorded answers hold them to it.
func nonNullArrays(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if slices.Equal(s.Types, []string{"null", "array"}) {
		s.Type, s.Types = "array", nil
	}
	if s.Ref != "" && slices.Equal(s.Types, []string{"null"}) {
		s.Types = nil // an omitted pointer: the reference alone
	}
	nonNullArrays(s.Items)
	for _, p := range s.Properties {
		nonNullArrays(p)
	}
}

// nullRefs makes the properties of s that refer to a component through a
// pointer written even when nil (no omitempty) admit null, which the
// inference leaves out for a reference.
func nullRefs(s *jsonschema.Schema, t reflect.Type, refs map[reflect.Type]*jsonschema.Schema) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			nullRefs(s, f.Type, refs)
			continue
		}
		if name == "-" || !f.IsExported() || f.Type.Kind() != reflect.Pointer || strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, ok := s.Properties[name]
		if _, isRef := refs[f.Type.Elem()]; !ok || !isRef || p.Ref == "" {
			continue
		}
		s.Properties[name] = &jsonschema.Schema{Description: p.Description, OneOf: []*jsonschema.Schema{{Ref: p.Ref}, {Type: "null"}}}
	}
}

// The schemas of the types that write themselves.

func requirementSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: anyOf(entrycheck.Requirements)}
}

func actionSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: anyOf(entrycheck.Actions)}
}

func tripStatusSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: anyOf(entrycheck.TripStatuses)}
}

func daysSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Types: []string{"integer", "null"}, Minimum: ptr(0.0)}
}

func dateSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Format: "date"}
}

// passportHeldSchema: a held passport is a country or an object with the
// country and the expiry date (entrycheck.PassportHeld.UnmarshalJSON).
func passportHeldSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
		countryInput(""),
		{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"country": countryInput(""),
				"expires": {Type: "string", Format: "date", Description: "YYYY-MM-DD."},
			},
			PropertyOrder:        []string{"country", "expires"},
			Required:             []string{"country"},
			AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		},
	}}
}

// countryInput is a country as a request names it (country.Registry.Lookup).
func countryInput(description string) *jsonschema.Schema {
	if description == "" {
		description = countryInputWords
	}
	return &jsonschema.Schema{Type: "string", MinLength: ptr(country.MinInputLength), MaxLength: ptr(country.MaxInputLength), Description: description}
}

const countryInputWords = "ISO 3166-1 alpha-3 code in any letter case (DEU), alpha-2 code (DE) or country name (Germany); the answer names it by its alpha-3 code."

func ptr[T any](v T) *T { return &v }
