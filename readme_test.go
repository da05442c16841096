package entrycheck_test

import (
	"os"
	"regexp"
	"testing"
)

// TestReadmeWritesNoCountOfTheData: a count the data gives (routes,
// destinations, citations, statements, members...) goes stale the day the
// data changes, so the README writes none; /transparency/, llms.txt and the
// commands compute them. The bounds of a request are settings, not data.
func TestReadmeWritesNoCountOfTheData(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]bool{
		"5 passports": true, // the bound of a trip request
		"404 pages":   true, // the kind of page, not a count
	}
	count := regexp.MustCompile(`\b[0-9]{1,3}(,[0-9]{3})*\s+(routes?|route pages|destinations|passports?|countries|citations|cited pages|pages|statements|members|nationalities|changes|records|conflicts)\b`)
	for _, m := range count.FindAllIndex(b, -1) {
		if m[0] > 0 && (b[m[0]-1] == '-' || b[m[0]-1] == '.') { // a date or a version, not a count
			continue
		}
		if found := string(b[m[0]:m[1]]); !settings[found] {
			t.Errorf("README.md writes the count %q: say where it is computed instead (/transparency/, llms.txt, a command)", found)
		}
	}
}
