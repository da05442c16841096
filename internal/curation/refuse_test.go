package curation_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/curation"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestMalformedNotesAreRefused breaks France's note one way at a time and
// expects the import to refuse it, naming the file and the JSON path.
func TestMalformedNotesAreRefused(t *testing.T) {
	rules := func(n map[string]any, field string) map[string]any {
		return n["rules"].(map[string]any)[field].(map[string]any)
	}
	variant := func(n map[string]any, field string, i int) map[string]any {
		return rules(n, field)["value"].([]any)[i].(map[string]any)
	}
	cases := []struct {
		name   string
		mutate func(n map[string]any)
		want   string
	}{
		{"unknown group", func(n map[string]any) {
			variant(n, "passport_validity", 1)["applies_to"] = map[string]any{"groups": []any{"EUX"}}
		}, `destinations/FRA.json: rules.passport_validity.value[1].applies_to.groups[0]: unknown group "EUX"`},
		{"unknown passport in documented_for", func(n map[string]any) {
			variant(n, "passport_validity", 0)["documented_for"] = map[string]any{"passports": []any{"GBR", "XXY"}}
		}, `destinations/FRA.json: rules.passport_validity.value[0].documented_for.passports[1]: "XXY" is not`},
		{"requirement that is not a verdict", func(n map[string]any) {
			rules(n, "onward_ticket")["value"].(map[string]any)["applies_to"] = map[string]any{"requirements": []any{"esta"}}
		}, `destinations/FRA.json: rules.onward_ticket.value.applies_to.requirements[0]: "esta" is not a verdict`},
		{"onward ticket word", func(n map[string]any) {
			rules(n, "onward_ticket")["value"].(map[string]any)["required"] = true
		}, `destinations/FRA.json`},
		{"onward ticket value", func(n map[string]any) {
			rules(n, "onward_ticket")["value"].(map[string]any)["required"] = "not_required"
		}, `destinations/FRA.json: rules.onward_ticket.value.required: "not_required" is not required or may_be_asked`},
		{"counted_from", func(n map[string]any) {
			variant(n, "passport_validity", 0)["counted_from"] = "arrival"
		}, `destinations/FRA.json: rules.passport_validity.value[0].counted_from: "arrival" is not`},
		{"variant source publisher", func(n map[string]any) {
			variant(n, "passport_validity", 1)["source"].(map[string]any)["publisher"] = "blog"
		}, `destinations/FRA.json: rules.passport_validity.value[1].source: citation publisher "blog"`},
		{"field source url", func(n map[string]any) {
			rules(n, "passport_validity")["source"].(map[string]any)["url"] = "europa.eu"
		}, `destinations/FRA.json: rules.passport_validity.source: citation url "europa.eu"`},
		{"exemption document of no country", func(n map[string]any) {
			variant(n, "residence_permit_exemptions", 0)["holders_of"] = []any{"SCHENGEN", "ZZZ"}
		}, `destinations/FRA.json: rules.residence_permit_exemptions.value[0].holders_of[1]: "ZZZ" is not`},
		{"apply applies_to", func(n map[string]any) {
			n["apply"].([]any)[0].(map[string]any)["applies_to"] = map[string]any{"except_groups": []any{"NATO"}}
		}, `destinations/FRA.json: apply[0].applies_to.except_groups[0]: unknown group "NATO"`},
		{"unknown member", func(n map[string]any) {
			variant(n, "passport_validity", 0)["eligible"] = "all"
		}, `unknown field "eligible"`},
		{"format 1", func(n map[string]any) { n["format"] = 1 }, `destinations/FRA.json: format 1, want 2`},
	}
	shared := datatest.SharedDir(t)
	note, err := os.ReadFile(filepath.Join(shared, "curation-v3", "destinations", "FRA.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n map[string]any
			if err := json.Unmarshal(note, &n); err != nil {
				t.Fatal(err)
			}
			c.mutate(n)
			dir := notesWith(t, shared, n)
			_, err := curation.Convert(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("import = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// notesWith lays out a notes directory holding the shared notes but the
// destinations, and France's note as given.
func notesWith(t *testing.T, shared string, fra map[string]any) string {
	t.Helper()
	dir := copyNotes(t, shared, func(rel string) bool { return !strings.HasPrefix(rel, "destinations/") })
	b, err := json.Marshal(fra)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "destinations"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "destinations", "FRA.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyNotes copies the files of the shared notes that keep allows into a
// new notes directory named as the shared one, and returns it.
func copyNotes(t *testing.T, shared string, keep func(rel string) bool) string {
	t.Helper()
	src := filepath.Join(shared, "curation-v3")
	dir := filepath.Join(t.TempDir(), "curation-v3")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || !keep(filepath.ToSlash(rel)) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
