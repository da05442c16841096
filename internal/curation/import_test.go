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

// TestCheckedInLayerMatchesNotes fails when internal/dataset/curated drifts from the
// curators' notes: run `make curation` and commit the result.
func TestCheckedInLayerMatchesNotes(t *testing.T) {
	files, err := curation.Convert(filepath.Join(datatest.SharedDir(t), "curation-v3"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{dataset.GroupsFile, dataset.StatementsFile, dataset.YellowFeverFile} {
		if files[name] == nil {
			t.Errorf("the import gives no %s", name)
		}
	}
	for name, want := range files {
		got, err := fs.ReadFile(dataset.CuratedFS(), name)
		if err != nil {
			t.Errorf("%s: %v (run make curation)", name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("internal/dataset/curated/%s differs from a fresh import (run make curation)", name)
		}
	}
	old, _ := fs.Glob(dataset.CuratedFS(), dataset.DestinationsDir+"/*.json")
	for _, name := range old {
		if _, ok := files[name]; !ok {
			t.Errorf("internal/dataset/curated/%s has no note any more", name)
		}
	}
}

// TestEveryCitationSurvives compares the citations (name, url, publisher,
// content date, how read, date read) of the notes with those of the
// imported layer, as multisets.
func TestEveryCitationSurvives(t *testing.T) {
	shared := datatest.SharedDir(t)
	src := citations(t, os.DirFS(filepath.Join(shared, "curation-v3")))
	// The yellow-fever table is compared by TestYellowFeverCitationsSurvive
	// (sourceless entries are kept apart).
	delete(src, dataset.YellowFeverFile)
	dst := citations(t, dataset.CuratedFS())
	delete(dst, dataset.YellowFeverFile)
	flat := func(m map[string][]string) []string {
		var all []string
		for _, v := range m {
			all = append(all, v...)
		}
		sort.Strings(all)
		return all
	}
	a, b := flat(src), flat(dst)
	if len(a) < 100 {
		t.Fatalf("only %d citations in the notes; the walk is broken", len(a))
	}
	if len(a) != len(b) {
		t.Fatalf("%d citations in the notes, %d after import", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("citation %q of the notes is missing after import (found %q)", a[i], b[i])
		}
	}
}

func citations(t *testing.T, fsys fs.FS) map[string][]string {
	out := map[string][]string{}
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if s, ok := x["source"].(map[string]any); ok {
					key := make([]string, 0, 6)
					for _, k := range []string{"name", "url", "publisher", "content_date", "read_from", "retrieved_at"} {
						v, _ := s[k].(string) // absent and null alike
						key = append(key, v)
					}
					out[filepath.Base(path)] = append(out[filepath.Base(path)], strings.Join(key, "|"))
				}
				for _, c := range x {
					walk(c)
				}
			case []any:
				for _, c := range x {
					walk(c)
				}
			}
		}
		walk(v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatementsSurviveImport compares every official statement of the
// curators' statements files (official-statements.json and one file per
// official list) with the imported one, source members included; each names
// the file it came from, and the import adds none.
func TestStatementsSurviveImport(t *testing.T) {
	notes := filepath.Join(datatest.SharedDir(t), "curation-v3")
	lists, err := filepath.Glob(filepath.Join(notes, "statements", "*.json"))
	if err != nil || len(lists) == 0 {
		t.Fatalf("no statements files in %s/statements: %v", notes, err)
	}
	b, err := fs.ReadFile(dataset.CuratedFS(), dataset.StatementsFile)
	if err != nil {
		t.Fatal(err)
	}
	var imported struct {
		Statements []map[string]any `json:"statements"`
	}
	if err := json.Unmarshal(b, &imported); err != nil {
		t.Fatal(err)
	}
	byID := map[string]map[string]any{}
	for _, s := range imported.Statements {
		byID[s["id"].(string)] = s
	}
	noted := 0
	for _, file := range append([]string{filepath.Join(notes, "official-statements.json")}, lists...) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Statements []map[string]any `json:"statements"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(notes), file)
		for _, want := range doc.Statements {
			noted++
			got, ok := byID[want["id"].(string)]
			if !ok {
				t.Errorf("statement %s of %s is missing after import", want["id"], rel)
				continue
			}
			if got["curated_from"] != filepath.ToSlash(rel) {
				t.Errorf("statement %s: curated_from %q, want %q", want["id"], got["curated_from"], rel)
			}
			for _, k := range []string{"destination", "applies_to", "requirement", "allowed_stay_days", "purposes", "effective_from", "effective_until", "text"} {
				if a, b := jsonOf(t, want[k]), jsonOf(t, got[k]); a != b {
					t.Errorf("statement %s: %s is %s after import, %s in the notes", want["id"], k, b, a)
				}
			}
			ws, gs := want["source"].(map[string]any), got["source"].(map[string]any)
			for k, v := range ws {
				if v == nil {
					if _, present := gs[k]; present {
						t.Errorf("statement %s: source.%s is null in the notes but %v after import", want["id"], k, gs[k])
					}
					continue
				}
				if jsonOf(t, v) != jsonOf(t, gs[k]) {
					t.Errorf("statement %s: source.%s is %v after import, %v in the notes", want["id"], k, gs[k], v)
				}
			}
		}
	}
	if len(imported.Statements) != noted {
		t.Errorf("%d statements imported, %d in the notes", len(imported.Statements), noted)
	}
}

// TestMalformedStatementsAreRefused: an import names the file and the
// statement of the problem, and gives nothing to write.
func TestMalformedStatementsAreRefused(t *testing.T) {
	shared := datatest.SharedDir(t)
	for _, tc := range []struct{ name, file, from, to, want string }{
		{"bad date", "official-statements.json", `"effective_from": "2025-06-01"`, `"effective_from": "1 June 2025"`,
			`official-statements.json: statements[1] (CHN-2025-06-latam-visa-free): effective_from`},
		{"unknown member", "official-statements.json", `"effective_until": null`, `"effective_until": null, "until": null`, `unknown field "until"`},
		{"bad retrieved_at", "official-statements.json", `"retrieved_at": "2026-11-23"`, `"retrieved_at": "yesterday"`,
			`official-statements.json: statements[0] (CHN-2024-12-unilateral-visa-free-38): source: citation`},
		{"unknown group", "statements/BRA-gov-br-porto-visit-visa.json", `"EU"`, `"EUROPE"`,
			`statements/BRA-gov-br-porto-visit-visa.json: statements[1] (BRA-2026-11-visit-visa-exempt-eu): applies_to: group "EUROPE"`},
		{"unknown passport", "statements/NZL-2026-11-visa-waiver-nzeta.json", `"AND"`, `"ANX"`,
			`statements/NZL-2026-11-visa-waiver-nzeta.json: statements[0] (NZL-2026-11-visa-waiver-countries-nzeta): applies_to`},
		{"format", "statements/ISR-eta-il-spain-exteriores.json", `"format": 2`, `"format": 1`, `statements/ISR-eta-il-spain-exteriores.json: format 1, want 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyNotes(t, shared, func(string) bool { return true })
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			bad := strings.Replace(string(raw), tc.from, tc.to, 1)
			if bad == string(raw) {
				t.Fatalf("%q is not in %s", tc.from, tc.file)
			}
			if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := curation.Convert(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
			if files != nil {
				t.Errorf("a refused import gives %d files to write", len(files))
			}
		})
	}
}

// TestStatementIDsAreUniqueAcrossFiles: an id a second file uses again is
// refused, naming both files.
func TestStatementIDsAreUniqueAcrossFiles(t *testing.T) {
	dir := copyNotes(t, datatest.SharedDir(t), func(string) bool { return true })
	b, err := os.ReadFile(filepath.Join(dir, "statements", "CHN-2025-11-sweden-visa-free.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["statements"].([]any)[0].(map[string]any)["id"] = "CHN-2024-12-unilateral-visa-free-38"
	if err := os.WriteFile(filepath.Join(dir, "statements", "CHN-2025-11-sweden-visa-free.json"), mustJSON(t, doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = curation.Convert(dir)
	if err == nil || !strings.Contains(err.Error(), `statements/CHN-2025-11-sweden-visa-free.json: statements[0]: id "CHN-2024-12-unilateral-visa-free-38" is already used in official-statements.json`) {
		t.Fatalf("error = %v, want the id named with both files", err)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
