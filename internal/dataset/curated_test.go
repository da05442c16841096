package dataset_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

func TestCuratedLayerLoads(t *testing.T) {
	c, err := dataset.LoadCurated(dataset.CuratedFS(), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	notes, err := filepath.Glob(filepath.Join(datatest.SharedDir(t), "curation-v3", "destinations", "*.json"))
	if err != nil || len(notes) == 0 {
		t.Fatalf("no curators' notes: %v", err)
	}
	if n := len(c.Destinations); n != len(notes) {
		t.Errorf("%d curated destinations, want the %d of the curators' notes", n, len(notes))
	}
	for _, g := range []string{"SCHENGEN", "EU", "EU_EEA_CH"} {
		if len(c.Groups[g].Members) == 0 || c.Groups[g].Source.URL == "" {
			t.Errorf("group %s is missing or has no source: %+v", g, c.Groups[g])
		}
	}
	if len(c.YellowFever.Countries) == 0 || len(c.YellowFever.RiskList.Countries) == 0 {
		t.Error("the yellow-fever table is empty")
	}
	if g := c.Groups["SCHENGEN"]; len(g.Members) != 29 {
		t.Errorf("SCHENGEN has %d members, want 29", len(g.Members))
	}
}

// TestEveryRuleIsCited walks every curated file: any object with a "value"
// must carry a complete "source" citation.
func TestEveryRuleIsCited(t *testing.T) {
	fsys := dataset.CuratedFS()
	rules := 0
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		walk(v, func(obj map[string]any) {
			if _, ok := obj["value"]; !ok {
				return
			}
			rules++
			src, _ := obj["source"].(map[string]any)
			for _, k := range []string{"name", "url", "retrieved_at"} {
				if s, _ := src[k].(string); s == "" {
					t.Errorf("%s: a rule has no source.%s: %v", path, k, obj)
				}
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rules < 100 {
		t.Errorf("only %d cited rules found; the walk is broken", rules)
	}
}

func walk(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for _, c := range x {
			walk(c, fn)
		}
	case []any:
		for _, c := range x {
			walk(c, fn)
		}
	}
}

// withFile returns the embedded curated layer with one file replaced.
func withFile(t *testing.T, name string, edit func(string) string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(dataset.CuratedFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(dataset.CuratedFS(), path)
		if path == name {
			b = []byte(edit(string(b)))
		}
		m[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBadCuratedLayerIsRefused(t *testing.T) {
	cases := []struct {
		name, file, from, to, want string
	}{
		{"rule without url", "destinations/THA.json", `"url": "https://www.gov.uk/foreign-travel-advice/thailand/entry-requirements"`, `"url": ""`, "rules.passport_validity.source"},
		{"rule without date", "destinations/THA.json", `"retrieved_at": "2026-11-22"`, `"retrieved_at": "22 Nov"`, "THA.json"},
		{"unknown field", "destinations/THA.json", `"curator_notes"`, `"curator_note"`, "unknown field"},
		{"bad onward value", "destinations/THA.json", `"required": "required"`, `"required": "yes"`, "rules.onward_ticket"},
		{"bad requirement in a statement", dataset.StatementsFile, `"requirement": "e_visa"`, `"requirement": "unknown"`, "BRA-2026-11-visit-e-visa-aus-can-usa"},
		{"statement ending before it starts", dataset.StatementsFile, `"effective_until": "2026-05-31"`, `"effective_until": "2025-05-31"`, "effective_until 2025-05-31 is before effective_from 2025-06-01"},
		{"statement of an unknown group", dataset.StatementsFile, `"passports": [
          "BRA",`, `"groups": ["MERCOSUR"], "passports": [
          "BRA",`, `group "MERCOSUR"`},
		{"rule item ending before it starts", "destinations/IRL.json", `"effective_until": "2026-10-31"`, `"effective_from": "2026-11-01", "effective_until": "2026-10-31"`, "rules.residence_permit_exemptions.value[0].effective_until: 2026-10-31 is before effective_from 2026-11-01"},
		{"rule item with a curated status", "destinations/IRL.json", `"effective_until": "2026-10-31"`, `"effective_until": "2026-10-31", "status": "in_force"`, "rules.residence_permit_exemptions.value[0].status: a status is computed"},
		{"statement with a bad publisher", dataset.StatementsFile, `"publisher": "destination_government"`, `"publisher": "news"`, `publisher "news"`},
		{"unknown code in a group", "groups.json", `"AUT",`, `"AUX",`, "AUX"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := withFile(t, c.file, func(s string) string {
				out := strings.Replace(s, c.from, c.to, 1)
				if out == s {
					t.Fatalf("%q not found in %s", c.from, c.file)
				}
				return out
			})
			_, err := dataset.LoadCurated(fsys, registry(t))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// TestRecords: the verification re-reads every citation of the curated
// layer, each with the destination and field it dates.
func TestRecords(t *testing.T) {
	c := datatest.Evaluator(t).Snapshot().Curated
	records := c.Records()
	if !slices.Equal(records, c.Records()) {
		t.Fatal("Records is not deterministic")
	}
	has := map[entrycheck.RecordKey]bool{}
	for _, r := range records {
		if r.Source.URL == "" || r.Source.Name == "" || r.Source.RetrievedAt.IsZero() || r.Field == "" {
			t.Fatalf("incomplete record %+v", r)
		}
		has[r.Key()] = true
	}
	want := func(dest, field string, src entrycheck.Citation) {
		t.Helper()
		if !has[entrycheck.RecordKey{Destination: dest, Field: field, URL: src.URL}] {
			t.Errorf("no record for %s %s %s", dest, field, src.URL)
		}
	}
	for code, d := range c.Destinations {
		if p := d.Rules.PassportValidity; p != nil {
			want(code, entrycheck.FieldPassportValidity, p.Source)
			for _, v := range p.Value {
				if v.Source != nil {
					want(code, entrycheck.FieldPassportValidity, *v.Source)
				}
			}
		}
		if p := d.Rules.OnwardTicket; p != nil {
			want(code, entrycheck.FieldOnwardTicket, p.Source)
		}
		if p := d.Rules.TWOV; p != nil {
			want(code, entrycheck.FieldTWOV, p.Source)
		}
		for _, a := range d.Apply {
			want(code, entrycheck.FieldApply, a.Source)
		}
	}
	for code, yf := range c.YellowFever.Countries {
		want(code, entrycheck.FieldYellowFever, yf.Source)
	}
	for _, s := range c.Statements {
		want(s.Destination, entrycheck.FieldOfficialStatement, s.Source)
	}
	want("", entrycheck.FieldYellowFeverRiskList, c.YellowFever.RiskList.Source)
	want("", entrycheck.FieldGroup, c.Groups["SCHENGEN"].Source)
}
