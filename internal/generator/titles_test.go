package generator_test

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

var (
	titleTag = regexp.MustCompile(`<title>([^<]*)</title>`)
	descTag  = regexp.MustCompile(`<meta name="description" content="([^"]*)"`)
)

// TestRouteTitlesAndDescriptions: every route page's title fits in 60
// characters, and its description promises cited entry rules only where
// the page has some.
func TestRouteTitlesAndDescriptions(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	countries := ev.Snapshot().Matrix.Countries()
	long, promised := 0, 0
	for _, p := range countries {
		for _, d := range countries {
			if p == d {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, "passports", strings.ToLower(p.ISO3), strings.ToLower(d.ISO3), "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			title, desc := titleTag.FindSubmatch(b), descTag.FindSubmatch(b)
			if title == nil || desc == nil {
				t.Fatalf("%s to %s: no title or description", p.ISO3, d.ISO3)
			}
			if utf8.RuneCountInString(html.UnescapeString(string(title[1]))) > 60 {
				long++
			}
			r, err := ev.Check(entrycheck.CheckRequest{Passport: p.ISO3, Destination: d.ISO3}, buildDay)
			if err != nil {
				t.Fatal(err)
			}
			if r.EntryRules.Coverage != entrycheck.CoverageExtended && strings.Contains(string(desc[1]), "official sources") {
				promised++
			}
		}
	}
	if long > 0 || promised > 0 {
		t.Errorf("%d titles over 60 characters; %d descriptions promise cited rules a page does not have", long, promised)
	}
}
