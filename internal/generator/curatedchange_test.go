package generator_test

import (
	"context"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// TestCuratedChangeRewritesOnlyItsPagesInEveryLanguage builds the site in
// English, Spanish and Arabic, then again with one curated rule of
// Thailand reworded: the build rewrites the pages that show that rule, in
// every language (the route pages to Thailand, Thailand's own pages, the
// documents that quote every rule), and nothing else.
func TestCuratedChangeRewritesOnlyItsPagesInEveryLanguage(t *testing.T) {
	const before, after = "checks are random at the border.", "checks are made at random at the border."
	langs, err := locale.Embedded().Select(languagesTested)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	build := func(curated fs.FS) generator.Report {
		t.Helper()
		snap, err := dataset.Load(datatest.MatrixDir(t, datatest.Current), datatest.Lock(t), curated)
		if err != nil {
			t.Fatal(err)
		}
		r, err := generator.Build(context.Background(), evaluation.New(snap), generator.Options{
			OutDir: dir, GeoDir: datatest.GeoDir(t), BaseURL: base, Clock: buildDay, Languages: langs,
			Extra: extras(t, datatest.Current, nil),
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	build(dataset.CuratedFS())
	first := manifest(t, dir)
	r := build(reworded(t, "destinations/THA.json", before, after))
	second := manifest(t, dir)

	// What may show the rule: the pages of a route to Thailand and of
	// Thailand in any language, and the documents of every destination's
	// rules, with their compressed copies.
	mayChange := regexp.MustCompile(`^((passports/[a-z]{3}/tha/|destinations/tha/)index(\.[a-z]{2})?\.(html|md)|llms-full\.txt|passports/[a-z]{3}/index\.json)(\.br|\.gz)?$`)
	changed := map[string]bool{}
	for path, hash := range second {
		if first[path] != hash {
			changed[path] = true
			if !mayChange.MatchString(path) {
				t.Errorf("%s was rewritten, but does not show Thailand's rules", path)
			}
		}
	}
	countries := datatest.Evaluator(t).Snapshot().Matrix.Countries()
	for _, c := range langs {
		n := 0
		for _, p := range countries {
			if changed[sitetree.PageFile(c.Code, "/passports/"+strings.ToLower(p.ISO3)+"/tha/")] {
				n++
			}
		}
		if want := len(countries) - 1; n != want {
			t.Errorf("%s: %d route pages to Thailand rewritten, want %d", c.Code, n, want)
		}
	}
	if r.Written != len(changed) {
		t.Errorf("the build reports %d files written, %d changed", r.Written, len(changed))
	}
	t.Logf("one curated rule reworded: %+v", r)
}

// reworded is the curated layer with one text of one file replaced.
func reworded(t *testing.T, file, old, new string) fs.FS {
	t.Helper()
	src := dataset.CuratedFS()
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, path)
		if err != nil {
			return err
		}
		if path == file {
			if !strings.Contains(string(b), old) {
				t.Fatalf("%s does not say %q", file, old)
			}
			b = []byte(strings.Replace(string(b), old, new, 1))
		}
		out[path] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
