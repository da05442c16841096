package generator_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/generator"
)

// TestUpdate: serve publishes the feeds into a built tree; the other files
// and their manifest entries stay.
func TestUpdate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>home</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, generator.ManifestFile), []byte(`{"index.html":"abc"}`), 0o644)
	feed := bytes.Repeat([]byte(`{"event":1}`), 2000) // large enough for a gzip variant
	if err := generator.Update(dir, []generator.File{{Path: "/changes.json", Body: feed}, {Path: "/feeds/changes.atom", Body: []byte("<feed/>")}}); err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	b, _ := os.ReadFile(filepath.Join(dir, generator.ManifestFile))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "changes.json", "changes.json.gz", "feeds/changes.atom"} {
		if m[f] == "" {
			t.Errorf("manifest lacks %s: %v", f, m)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "changes.json")); !bytes.Equal(got, feed) {
		t.Error("changes.json not written")
	}
	if err := generator.Update(dir, []generator.File{{Path: "/x", Body: []byte("{}"), MediaType: "application/json"}}); err == nil {
		t.Error("a file with its own headers was written outside a build")
	}
}
