package curation_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/curation"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// yellowFeverNotes is the curators' format-2 yellow-fever file, decoded loosely.
func yellowFeverNotes(t *testing.T) (path string, notes map[string]any) {
	t.Helper()
	path = curation.YellowFeverPath(filepath.Join(datatest.SharedDir(t), "curation-v3"))
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &notes); err != nil {
		t.Fatal(err)
	}
	return path, notes
}

// TestYellowFeverCitationsSurvive compares every fact and every source
// member (publisher, content_date, read_from included) of the curators'
// yellow-fever file with the imported table.
func TestYellowFeverCitationsSurvive(t *testing.T) {
	_, notes := yellowFeverNotes(t)
	b, err := fs.ReadFile(dataset.CuratedFS(), dataset.YellowFeverFile)
	if err != nil {
		t.Fatal(err)
	}
	var imported struct {
		RiskList  map[string]any            `json:"risk_list"`
		Countries map[string]map[string]any `json:"countries"`
		Unsourced map[string]string         `json:"unsourced"`
		Note      string                    `json:"note"`
	}
	if err := json.Unmarshal(b, &imported); err != nil {
		t.Fatal(err)
	}
	sameSource(t, "risk list", notes["source"].(map[string]any), imported.RiskList["source"].(map[string]any))
	for from, to := range map[string]string{"risk_countries": "countries", "risk_in_part_only": "in_part_only", "risk_note": "note", "edition": "edition"} {
		if a, b := jsonOf(t, notes[from]), jsonOf(t, imported.RiskList[to]); a != b {
			t.Errorf("%s is %s after import, %s in the notes", from, b, a)
		}
	}
	if imported.Note != notes["countries_note"] {
		t.Errorf("countries_note is %q after import", imported.Note)
	}
	countries := notes["countries"].(map[string]any)
	cited := 0
	for code, v := range countries {
		want := v.(map[string]any)
		if want["source"] == nil {
			if imported.Unsourced[code] != want["text"] {
				t.Errorf("%s: the text of an unsourced entry is %q after import", code, imported.Unsourced[code])
			}
			if _, ok := imported.Countries[code]; ok {
				t.Errorf("%s has no source in the notes but a cited rule after import", code)
			}
			continue
		}
		cited++
		got, ok := imported.Countries[code]
		if !ok {
			t.Errorf("%s is missing after import", code)
			continue
		}
		value := got["value"].(map[string]any)
		for _, k := range []string{"certificate_required", "min_age_months", "includes_transit", "transit_hours", "extra_risk_countries", "text"} {
			if a, b := jsonOf(t, want[k]), jsonOf(t, value[k]); a != b {
				t.Errorf("%s: %s is %s after import, %s in the notes", code, k, b, a)
			}
		}
		sameSource(t, code, want["source"].(map[string]any), got["source"].(map[string]any))
	}
	if cited < 10 || cited != len(imported.Countries) || len(imported.Countries)+len(imported.Unsourced) != len(countries) {
		t.Errorf("%d cited entries in the notes, %d cited and %d unsourced after import, of %d", cited, len(imported.Countries), len(imported.Unsourced), len(countries))
	}
}

// sameSource compares a format-2 source with its import: every non-null
// member kept as it is, a null one absent.
func sameSource(t *testing.T, what string, want, got map[string]any) {
	t.Helper()
	for k, v := range want {
		if v == nil {
			if _, present := got[k]; present {
				t.Errorf("%s: source.%s is null in the notes but %v after import", what, k, got[k])
			}
			continue
		}
		if jsonOf(t, v) != jsonOf(t, got[k]) {
			t.Errorf("%s: source.%s is %v after import, %v in the notes", what, k, got[k], v)
		}
	}
}

// TestMalformedYellowFeverIsRefused: an import names the file and the JSON
// path of the problem.
func TestMalformedYellowFeverIsRefused(t *testing.T) {
	_, notes := yellowFeverNotes(t)
	countries := notes["countries"].(map[string]any)
	var extra, cited string // a country with its own risk list, and one with a source
	codes := make([]string, 0, len(countries))
	for code := range countries {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		c := countries[code].(map[string]any)
		if extra == "" && c["extra_risk_countries"] != nil {
			extra = code
		}
		if cited == "" && c["source"] != nil {
			cited = code
		}
	}
	if extra == "" || cited == "" {
		t.Fatal("the notes have no country with extra_risk_countries or with a source")
	}
	entry := func(n map[string]any, code string) map[string]any {
		return n["countries"].(map[string]any)[code].(map[string]any)
	}
	for _, tc := range []struct {
		name   string
		breaks func(n map[string]any)
		want   string
	}{
		{"bad extra code", func(n map[string]any) { entry(n, extra)["extra_risk_countries"] = []any{"XXX"} },
			`countries.` + extra + `.extra_risk_countries[0]: "XXX" is not an ISO 3166-1 alpha-3 code`},
		{"bad certificate rule", func(n map[string]any) { entry(n, cited)["certificate_required"] = "sometimes" },
			`countries.` + cited + `.certificate_required: "sometimes" is not`},
		{"bad publisher", func(n map[string]any) { entry(n, cited)["source"].(map[string]any)["publisher"] = "airline" },
			`countries.` + cited + `.source: citation publisher "airline"`},
		{"rule without source", func(n map[string]any) { entry(n, cited)["source"] = nil },
			`countries.` + cited + `.source: null, but the entry states a rule`},
		{"bad risk code", func(n map[string]any) { n["risk_countries"] = append(n["risk_countries"].([]any), "ZZZ") },
			`risk_countries[` + itoa(len(notes["risk_countries"].([]any))) + `]: "ZZZ" is not an ISO 3166-1 alpha-3 code`},
		{"unknown member", func(n map[string]any) { entry(n, cited)["until"] = nil }, `unknown field "until"`},
		{"format 1", func(n map[string]any) { n["format"] = 1 }, `format: 1, want 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, n := yellowFeverNotes(t)
			tc.breaks(n)
			b, err := json.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "yellow-fever.json")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = curation.ConvertYellowFever(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error = %v, want one naming %s and %q", err, p, tc.want)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
