package static

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// The manifest is read when the tree handler is made, not by the first
// request that needs an ETag: on the whole site it is megabytes of JSON.
func TestStaticManifestReadAtStart(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"index.html":"h1","passports/deu/index.html":"h2"}`
	if err := os.WriteFile(filepath.Join(dir, sitetree.ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := NewTree(dir, nil, nil)
	if got := tree.manifest["passports/deu/index.html"]; got != "h2" {
		t.Errorf("manifest not loaded at start: %q", got)
	}
}
