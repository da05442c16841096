package curation_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/entrycheck/entrycheck/dataset"
	"github.com/entrycheck/entrycheck/internal/curation"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCheckedInLayerMatchesNotes fails when dataset/curated drifts from the
// curators' notes: run `entrycheck curation import` and commit the result.
func TestCheckedInLayerMatchesNotes(t *testing.T) {
	files, err := curation.Convert(filepath.Join(datatest.SharedDir(t), "curation"))
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
			t.Errorf("dataset/curated/%s differs from a fresh import (run entrycheck curation import)", name)
		}
	}
	old, _ := fs.Glob(dataset.CuratedFS(), dataset.DestinationsDir+"/*.json")
	for _, name := range old {
		if _, ok := files[name]; !ok {
			t.Errorf("dataset/curated/%s has no note any more", name)
		}
	}
}

// TestEveryCitationSurvives compares the citations (name, url, date) of the
// notes with those of the imported layer, as multisets.
func TestEveryCitationSurvives(t *testing.T) {
	src := citations(t, os.DirFS(filepath.Join(datatest.SharedDir(t), "curation")))
	dst := citations(t, dataset.CuratedFS())
	// The hand-curated files cite sources of their own.
	delete(dst, "official-verdicts.json")
	delete(dst, "groups.json")
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
					out[filepath.Base(path)] = append(out[filepath.Base(path)], s["name"].(string)+"|"+s["url"].(string)+"|"+s["retrieved_at"].(string))
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
