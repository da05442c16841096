package generator_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// TestPagesSpeakPlainly reads every page and its markdown, routes included,
// for the status codes that belong in JSON only and for the grammar slips
// pages once had.
func TestPagesSpeakPlainly(t *testing.T) {
	root := built(t)
	banned := []string{"secondary_source_only", "verified_official_sources", "not_curated", "needs_review", "stored_copy",
		"a either", "1 blank pages", "1 months", "(eta)", "At least 0 months"}
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
		// What a person reads: the text, not tags and their attributes.
		text := tags.ReplaceAllString(string(b), " ")
		for _, w := range banned {
			if strings.Contains(text, w) {
				t.Errorf("%s says %q", rel, w)
			}
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
