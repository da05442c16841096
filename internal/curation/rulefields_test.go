package curation_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/curation"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// TestEveryRuleFieldReachesEverySurface walks entrycheck.RuleFields and
// fails, naming the field, when a surface forgets one: the schema of
// EntryRules in openapi.json, and for a field of the curated layer the
// note import, the loader's checks of scope and source, Cited, the cited
// records, the selection for a passport and its lines, and the destination
// answer and its lines. CuratedRules and DestinationRules may keep no field
// the table lacks, and datatest.FullRules must carry every curated field.
func TestEveryRuleFieldReachesEverySurface(t *testing.T) {
	full := datatest.FullRules()
	fullJSON := jsonObject(t, full)
	curatedNames := jsonObject(t, entrycheck.CuratedRules{})
	schemas := openAPISchemas(t)
	entryRules := jsonObject(t, datatest.FullEntryRules())
	shared := datatest.SharedDir(t)
	listed := map[string]bool{}
	for _, f := range entrycheck.RuleFields() {
		listed[f.Name] = true
	}
	for name := range curatedNames {
		if !listed[name] {
			t.Errorf("CuratedRules keeps %s, which entrycheck.RuleFields does not list: nothing would check or show it", name)
		}
	}
	for name := range jsonObject(t, entrycheck.DestinationRules{}) {
		if !listed[name] && !slices.Contains([]string{"last_verified", "staleness_days", "coverage"}, name) {
			t.Errorf("DestinationRules has %s, which entrycheck.RuleFields does not list: it would stay empty", name)
		}
	}
	everyone := entrycheck.Traveller{Passport: "USA", Requirement: entrycheck.VisaFree}
	describe := func(*entrycheck.AppliesTo) string { return "some travellers" }

	for _, f := range entrycheck.RuleFields() {
		t.Run(f.Name, func(t *testing.T) {
			checkSchema(t, schemas, f.Name, entryRules[f.Name])
			if _, curated := curatedNames[f.Name]; !curated {
				return // yellow fever: a table of its own, not a field of a note
			}
			if f.Facts(full) == nil {
				t.Fatalf("datatest.FullRules leaves %s unset", f.Name)
			}
			var only entrycheck.CuratedRules
			if err := json.Unmarshal(mustJSON(t, map[string]json.RawMessage{f.Name: fullJSON[f.Name]}), &only); err != nil {
				t.Fatal(err)
			}

			imported := importRules(t, shared, fullJSON, f, nil)
			if got := jsonObject(t, imported)[f.Name]; string(got) != string(fullJSON[f.Name]) {
				t.Errorf("the import of a note carrying %s gives %s, want %s", f.Name, got, fullJSON[f.Name])
			}
			if !f.List() {
				one := importRules(t, shared, fullJSON, f, func(field map[string]any) { field["value"] = field["value"].([]any)[0] })
				if got := jsonObject(t, one)[f.Name]; string(got) != string(fullJSON[f.Name]) {
					t.Errorf("the import of a note giving %s as one value gives %s, want %s", f.Name, got, fullJSON[f.Name])
				}
			}
			for _, bad := range []struct {
				name string
				edit func(field map[string]any)
				want string
			}{
				{"applies_to", func(field map[string]any) {
					field["value"].([]any)[0].(map[string]any)["applies_to"] = map[string]any{"groups": []any{"NOGROUP"}}
				}, "rules." + f.Name + `.value[0].applies_to.groups[0]: unknown group "NOGROUP"`},
				{"documented_for", func(field map[string]any) {
					field["value"].([]any)[0].(map[string]any)["documented_for"] = map[string]any{"passports": []any{"XXY"}}
				}, "rules." + f.Name + `.value[0].documented_for.passports[0]: "XXY" is not`},
				{"source", func(field map[string]any) { field["source"].(map[string]any)["url"] = "example.gov" },
					"rules." + f.Name + `.source: citation url "example.gov"`},
				{"empty value", func(field map[string]any) { field["value"] = []any{} },
					"rules." + f.Name + ".value: an empty list must be null instead"},
			} {
				_, err := curation.Convert(notesWithRules(t, shared, fullJSON, f, bad.edit))
				if err == nil || !strings.Contains(err.Error(), bad.want) {
					t.Errorf("a note with a bad %s in %s: import = %v, want an error containing %q", bad.name, f.Name, err, bad.want)
				}
			}

			if !only.Cited() {
				t.Errorf("rules with %s alone are not Cited", f.Name)
			}
			records := (&dataset.Curated{Destinations: map[string]*dataset.Destination{"FRA": {Destination: "FRA", Rules: only}}}).Records()
			if !slices.ContainsFunc(records, func(r entrycheck.CitedRecord) bool {
				return r.Destination == "FRA" && r.Field == f.Name && r.Source == full.PassportValidity.Source
			}) {
				t.Errorf("the cited records leave out %s: %+v", f.Name, records)
			}

			chosen := only.For(everyone)
			if got := jsonObject(t, chosen)[f.Name]; string(got) == "null" || got == nil {
				t.Errorf("For does not select %s", f.Name)
			}
			if !slices.ContainsFunc(chosen.Lines(), func(l entrycheck.RuleLine) bool { return l.Field == f.Name && l.Text != "" }) {
				t.Errorf("the rules selected for a passport give no line for %s", f.Name)
			}

			every := only.EveryTraveller(describe, entrycheck.Date{Year: 2026, Month: 11, Day: 27})
			if got := jsonObject(t, every)[f.Name]; string(got) == "null" || string(got) == "[]" || got == nil {
				t.Errorf("the destination answer leaves out %s", f.Name)
			}
			answer := entrycheck.DestinationAnswer{Destination: entrycheck.Country{ISO3: "FRA", Name: "France"}, EntryRules: every}
			if !slices.ContainsFunc(answer.RuleLines(), func(l entrycheck.RuleLine) bool { return l.Field == f.Name && l.Text != "" }) {
				t.Errorf("the destination answer gives no line for %s", f.Name)
			}
		})
	}
}

// checkSchema checks that EntryRules in the API description has the field,
// described and required, and that its value's schema has every member the
// answer encodes (encoded, the field as FullEntryRules holds it).
func checkSchema(t *testing.T, schemas map[string]any, name string, encoded json.RawMessage) {
	t.Helper()
	rules := schemas["EntryRules"].(map[string]any)
	prop, ok := rules["properties"].(map[string]any)[name].(map[string]any)
	if !ok {
		t.Errorf("openapi.json: EntryRules has no property %s", name)
		return
	}
	d, _ := prop["description"].(string)
	if d == "" {
		d, _ = resolve(schemas, prop)["description"].(string) // the words of the schema it refers to
	}
	if strings.TrimSpace(d) == "" {
		t.Errorf("openapi.json: EntryRules.%s has no description", name)
	}
	if !slices.Contains(rules["required"].([]any), any(name)) {
		t.Errorf("openapi.json: EntryRules does not list %s as required", name)
	}
	var value any
	if err := json.Unmarshal(encoded, &value); err != nil {
		t.Fatal(err)
	}
	schema := resolve(schemas, prop)
	for depth := 0; depth < 8; depth++ {
		obj, isObject := value.(map[string]any)
		if list, isList := value.([]any); isList && len(list) > 0 {
			value, schema = list[0], resolve(schemas, schema["items"].(map[string]any))
			continue
		}
		if !isObject {
			return
		}
		props, _ := schema["properties"].(map[string]any)
		for key := range obj {
			if _, ok := props[key]; !ok {
				t.Errorf("openapi.json: the schema of %s lacks %q, which the answer encodes", name, key)
			}
		}
		inner, hasValue := obj["value"]
		valueSchema, _ := props["value"].(map[string]any)
		if !hasValue || valueSchema == nil {
			return
		}
		value, schema = inner, resolve(schemas, valueSchema)
	}
}

// resolve follows $ref and takes the non-null choice of a oneOf.
func resolve(schemas map[string]any, s map[string]any) map[string]any {
	for {
		if ref, ok := s["$ref"].(string); ok {
			s = schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
			continue
		}
		if choices, ok := s["oneOf"].([]any); ok {
			for _, c := range choices {
				if c := c.(map[string]any); c["type"] != "null" {
					s = c
					break
				}
			}
			continue
		}
		return s
	}
}

func openAPISchemas(t *testing.T) map[string]any {
	t.Helper()
	b := apidoc.For(discovery.NewSite(config.Default(), discovery.Dataset{}))
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas
}

// notesWithRules lays out notes whose French note carries the field f of
// the full rules alone, changed by edit when it is not nil.
func notesWithRules(t *testing.T, shared string, full map[string]json.RawMessage, f entrycheck.RuleField, edit func(field map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(shared, "curation-v3", "destinations", "FRA.json"))
	if err != nil {
		t.Fatal(err)
	}
	var note map[string]any
	if err := json.Unmarshal(b, &note); err != nil {
		t.Fatal(err)
	}
	var field map[string]any
	if err := json.Unmarshal(full[f.Name], &field); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(field)
	}
	note["rules"] = map[string]any{f.Name: field}
	return notesWith(t, shared, note)
}

// importRules imports notes built by notesWithRules and returns France's
// imported rules.
func importRules(t *testing.T, shared string, full map[string]json.RawMessage, f entrycheck.RuleField, edit func(field map[string]any)) dataset.Rules {
	t.Helper()
	files, err := curation.Convert(notesWithRules(t, shared, full, f, edit))
	if err != nil {
		t.Fatalf("importing a note carrying %s: %v", f.Name, err)
	}
	var d dataset.Destination
	if err := json.Unmarshal(files[dataset.DestinationsDir+"/FRA.json"], &d); err != nil {
		t.Fatal(err)
	}
	return d.Rules
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonObject is v encoded, member by member.
func jsonObject(t *testing.T, v any) map[string]json.RawMessage {
	t.Helper()
	var out map[string]json.RawMessage
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
