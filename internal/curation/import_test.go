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
// curators' notes: run `entrycheck curation import` and commit the result.
func TestCheckedInLayerMatchesNotes(t *testing.T) {
	files, err := curation.Convert(filepath.Join(datatest.SharedDir(t), "curation-v2"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := fs.ReadFile(dataset.CuratedFS(), name)
		if err != nil {
			t.Errorf("%s: %v (run entrycheck curation import)", name, err)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("internal/dataset/curated/%s differs from a fresh import (run entrycheck curation import)", name)
		}
	}
	statements, err := curation.ConvertStatements(curation.StatementsPath(filepath.Join(datatest.SharedDir(t), "curation-v2")), dataset.CuratedFS())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.ReadFile(dataset.CuratedFS(), dataset.StatementsFile); string(got) != string(statements) {
		t.Errorf("internal/dataset/curated/%s differs from a fresh import (run entrycheck curation import)", dataset.StatementsFile)
	}
	yellowFever, err := curation.ConvertYellowFever(curation.YellowFeverPath(filepath.Join(datatest.SharedDir(t), "curation-v2")))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.ReadFile(dataset.CuratedFS(), dataset.YellowFeverFile); string(got) != string(yellowFever) {
		t.Errorf("internal/dataset/curated/%s differs from a fresh import (run entrycheck curation import)", dataset.YellowFeverFile)
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
	src := citations(t, os.DirFS(filepath.Join(shared, "curation-v2")))
	// The statements are compared by TestStatementsSurviveImport (the
	// project keeps statements of its own), the yellow-fever table by
	// TestYellowFeverCitationsSurvive (sourceless entries are kept apart).
	delete(src, dataset.StatementsFile)
	delete(src, dataset.YellowFeverFile)
	dst := citations(t, dataset.CuratedFS())
	delete(dst, dataset.StatementsFile)
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
// curators' format-2 file with the imported one, source members included,
// and checks that the statements curated in the project itself are kept.
func TestStatementsSurviveImport(t *testing.T) {
	src := filepath.Join(datatest.SharedDir(t), "curation-v2", "official-statements.json")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var notes struct {
		Statements []map[string]any `json:"statements"`
	}
	if err := json.Unmarshal(raw, &notes); err != nil {
		t.Fatal(err)
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
	if len(notes.Statements) < 6 {
		t.Fatalf("only %d statements in the notes", len(notes.Statements))
	}
	for _, want := range notes.Statements {
		got, ok := byID[want["id"].(string)]
		if !ok {
			t.Errorf("statement %s is missing after import", want["id"])
			continue
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
		delete(byID, want["id"].(string))
	}
	// What remains was curated in the project itself, from the format-1 notes.
	if len(byID) != 3 {
		t.Errorf("%d statements curated in the project, want the 3 migrated ones (BRA x2, VNM)", len(byID))
	}
	for id, s := range byID {
		if !strings.HasPrefix(s["curated_from"].(string), "curation/destinations/") {
			t.Errorf("statement %s: curated_from %q", id, s["curated_from"])
		}
	}
}

// TestMalformedStatementsAreRefused: an import names the file and the
// statement of the problem and writes nothing.
func TestMalformedStatementsAreRefused(t *testing.T) {
	src := filepath.Join(datatest.SharedDir(t), "curation-v2", "official-statements.json")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"bad date", `"effective_from": "2025-06-01"`, `"effective_from": "1 June 2025"`, `statements[1] (CHN-2025-06-latam-visa-free): effective_from`},
		{"unknown member", `"effective_until": null`, `"effective_until": null, "until": null`, `unknown field "until"`},
		{"bad retrieved_at", `"retrieved_at": "2026-11-23"`, `"retrieved_at": "yesterday"`, `statements[0] (CHN-2024-12-unilateral-visa-free-38): source: citation`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(string(raw), tc.from, tc.to, 1)
			if bad == string(raw) {
				t.Fatalf("%q is not in the notes", tc.from)
			}
			p := filepath.Join(t.TempDir(), "official-statements.json")
			if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := curation.ConvertStatements(p, dataset.CuratedFS())
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error = %v, want one naming %s and %q", err, p, tc.want)
			}
		})
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
