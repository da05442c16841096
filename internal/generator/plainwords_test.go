package generator_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	tags    = regexp.MustCompile(`<[^>]*>`)
	scripts = regexp.MustCompile(`(?s)<script[^>]*>.*?</script>`)
	// plurals finds a count of one with a plural noun ("1 passports").
	plurals = regexp.MustCompile(`\b1 (passports|days|destinations|routes|pages|months|citations|countries|checks)\b`)
	// lowerStart finds a status paragraph that starts in lower case.
	lowerStart = regexp.MustCompile(`class="state">[a-z]`)
)

// TestPagesSpeakPlainly reads every page and its markdown, routes included,
// for the status codes that belong in JSON only and for the grammar slips
// pages once had.
func TestPagesSpeakPlainly(t *testing.T) {
	root := built(t)
	banned := []string{"secondary_source_only", "verified_official_sources", "not_curated", "needs_review", "stored_copy",
		"visa_free", "visa_on_arrival", "e_visa", "visa_required", "no_admission", "check_official_authority", "apply_before_travel",
		"a either", "1 blank pages", "1 months", "(eta)", "At least 0 months", "null"}
	pages := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".html") && !strings.HasSuffix(rel, "index.md") && rel != "404.md" {
			return nil
		}
		// The agent guide and the widget page document the API's codes.
		if strings.HasPrefix(rel, "auth") || strings.HasPrefix(rel, "widget/") || rel == "auth.md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pages++
		// What a person reads: the text, not tags, their attributes and
		// structured data.
		text := tags.ReplaceAllString(scripts.ReplaceAllString(string(b), " "), " ")
		for _, w := range banned {
			if strings.Contains(text, w) {
				t.Errorf("%s says %q", rel, w)
			}
		}
		if m := plurals.FindString(text); m != "" {
			t.Errorf("%s says %q", rel, m)
		}
		if lowerStart.Match(b) {
			t.Errorf("%s has a status sentence starting in lower case", rel)
		}
		// One disclaimer a page, where it matters.
		if n := strings.Count(text, "Advisory only"); n > 1 {
			t.Errorf("%s gives the disclaimer %d times", rel, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pages < 2*39402 {
		t.Errorf("only %d pages read", pages)
	}
}
