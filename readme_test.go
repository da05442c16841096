package entrycheck_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs are the README and the documents under docs/.
func docs(t *testing.T) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, name := range append(names, "README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// TestReadmeWritesNoCountOfTheData: a count the data gives (routes,
// destinations, citations, statements, members...) goes stale the day the
// data changes, so the documentation writes none; /transparency/, llms.txt
// and the commands compute them. The bounds of a request are settings, not
// data.
func TestReadmeWritesNoCountOfTheData(t *testing.T) {
	settings := map[string]bool{
		"5 passports": true, // the bound of a trip request
		"404 pages":   true, // the kind of page, not a count
	}
	count := regexp.MustCompile(`\b[0-9]{1,3}(,[0-9]{3})*\s+(routes?|route pages|destinations|passports?|countries|citations|cited pages|pages|statements|members|nationalities|changes|records|conflicts)\b`)
	for name, b := range docs(t) {
		for _, m := range count.FindAllIndex(b, -1) {
			if m[0] > 0 && (b[m[0]-1] == '-' || b[m[0]-1] == '.') { // a date or a version, not a count
				continue
			}
			if found := string(b[m[0]:m[1]]); !settings[found] {
				t.Errorf("%s writes the count %q: say where it is computed instead (/transparency/, llms.txt, a command)", name, found)
			}
		}
	}
}

// TestReadmeIsShortAndLinksEveryDocument: the README keeps the quick
// start, the layout and the links, under 200 lines; every document under
// docs/ is linked from it exactly once, so none is orphaned or listed twice.
func TestReadmeIsShortAndLinksEveryDocument(t *testing.T) {
	all := docs(t)
	readme := string(all["README.md"])
	if n := strings.Count(readme, "\n"); n >= 200 {
		t.Errorf("README.md has %d lines, want under 200: move operator, API, data and architecture text to docs/", n)
	}
	if !strings.HasPrefix(readme, "# entrycheck\n\n```sh\nmake run") {
		t.Error("README.md does not open with the quick start (make run, make test)")
	}
	for name := range all {
		if name == "README.md" {
			continue
		}
		if n := strings.Count(readme, "]("+filepath.ToSlash(name)+")"); n != 1 {
			t.Errorf("README.md links %s %d times, want once", name, n)
		}
	}
}

// TestDocumentLinksResolve: a relative link of the README or of a document
// under docs/ names a file that exists.
func TestDocumentLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for name, b := range docs(t) {
		for _, m := range link.FindAllSubmatch(b, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(name), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", name, target)
			}
		}
	}
}
