package generator_test

import (
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

var (
	// routeFile and passportFile are a route page or a passport page, HTML
	// or markdown, by their path in the site.
	routeFile    = regexp.MustCompile(`^passports/[a-z]{3}/[a-z]{3}/index\.(html|md)$`)
	passportFile = regexp.MustCompile(`^passports/[a-z]{3}/index\.(html|md)$`)
	// destinationFile is a destination page; listFile the home page, the
	// two country lists and the page-not-found page.
	destinationFile = regexp.MustCompile(`^destinations/[a-z]{3}/index\.(html|md)$`)
	listFile        = regexp.MustCompile(`^((passports|destinations)/)?index\.(html|md)$|^404\.(html|md)$`)
	// citedNameHTML and citedNameMD are the name of a cited page where a
	// citation gives it ("Source: <a ...>GOV.UK ... (uk_visa_calculator.rb)</a>"):
	// the publisher's title as the curators recorded it, quoted, not our words.
	citedNameHTML = regexp.MustCompile(`Source: <a [^>]*>[^<]*</a>`)
	citedNameMD   = regexp.MustCompile(`Source: \[(?:\\.|[^\]\\])*\]`)
)

// htmlText is what a person reads of an HTML page: its text, without the
// tags, their attributes (addresses among them), scripts, styles and
// structured data.
func htmlText(b []byte) string {
	s := citedNameHTML.ReplaceAllString(string(b), "Source: ")
	s = regexp.MustCompile(`(?is)<(script|style)[^>]*>.*?</(script|style)>`).ReplaceAllString(s, " ")
	return html.UnescapeString(tags.ReplaceAllString(s, " "))
}

// mdText is what a person reads of a markdown page: markdown's own
// escapes undone (a "\_" is an underscore read), the link targets left to
// DeniedWordsIn.
func mdText(b []byte) string {
	s := citedNameMD.ReplaceAllString(string(b), "Source: []")
	return strings.NewReplacer(`\_`, "_", "\\`", "`", `\*`, "*", `\[`, "[", `\]`, "]").Replace(s)
}

// TestTravellerPagesUseNoDeniedWord reads every page of the built site a
// traveller reads (routes, passports, destinations, the home page, the
// country lists and page not found), and their markdown, for the words of the deny
// list (datatest.DeniedWords): a traveller reads "a secondary visa table",
// "no limit given by the source" and "passport of Germany", never
// "matrix", "snapshot", a curator's note or a code value.
func TestTravellerPagesUseNoDeniedWord(t *testing.T) {
	root := built(t)
	surfaces := []struct {
		name string
		file *regexp.Regexp
		ext  string
		text func([]byte) string
		want int
	}{
		{"route page", routeFile, ".html", htmlText, 39402},
		{"route page markdown", routeFile, ".md", mdText, 39402},
		{"passport page", passportFile, ".html", htmlText, 199},
		{"passport page markdown", passportFile, ".md", mdText, 199},
		{"destination page", destinationFile, ".html", htmlText, 199},
		{"destination page markdown", destinationFile, ".md", mdText, 199},
		{"home, lists or not found", listFile, ".html", htmlText, 4},
		{"home, lists or not found markdown", listFile, ".md", mdText, 4},
	}
	read := make([]int, len(surfaces))
	failures := make([]int, len(surfaces))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for i, s := range surfaces {
			if !s.file.MatchString(rel) || !strings.HasSuffix(rel, s.ext) {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			read[i]++
			for _, w := range datatest.DeniedWordsIn(s.text(b)) {
				if failures[i]++; failures[i] <= 10 {
					t.Errorf("%s %s: %s", s.name, rel, w)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range surfaces {
		if read[i] != s.want {
			t.Errorf("%s: read %d files, want %d", s.name, read[i], s.want)
		}
		if failures[i] > 10 {
			t.Errorf("%s: %d denied words in all", s.name, failures[i])
		}
	}
}
