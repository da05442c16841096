package entrycheck_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFuzzTargetsRun fails when a Fuzz function of the repository is not
// in the table of scripts/fuzz.sh, which `make test` runs, or when the
// table names one that no longer exists: a new fuzz target cannot be
// forgotten by CI.
func TestFuzzTargetsRun(t *testing.T) {
	script, err := os.ReadFile("scripts/fuzz.sh")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^\s*"(\.\S*)\s+(Fuzz\w+)"$`).FindAllStringSubmatch(string(script), -1) {
		listed = append(listed, m[1]+" "+m[2])
	}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(\w+ \*testing\.F\)`)
	var found []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := "./" + filepath.ToSlash(filepath.Dir(path))
		if pkg == "./." {
			pkg = "."
		}
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			found = append(found, pkg+" "+m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no Fuzz function found: the walk is broken")
	}
	for _, f := range found {
		if !slices.Contains(listed, f) {
			t.Errorf("%s is not in the table of scripts/fuzz.sh: add it, so that make test runs it", f)
		}
	}
	for _, l := range listed {
		if !slices.Contains(found, l) {
			t.Errorf("scripts/fuzz.sh runs %s, which does not exist", l)
		}
	}
}
