package generator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// TestManifestOfARebuild writes a tree, then another with one file
// changed, one gone and one new: the manifest lists exactly the second
// tree's files with their digests, the gone file is deleted, and a
// damaged manifest only costs a full write.
func TestManifestOfARebuild(t *testing.T) {
	root := t.TempDir()
	build := func(files map[string]string) int {
		t.Helper()
		w, err := newWriter(root)
		if err != nil {
			t.Fatal(err)
		}
		for rel, body := range files {
			if err := w.write(rel, []byte(body)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.write("a/same.html", []byte("same")); err == nil {
			t.Error("a file written twice is not refused")
		}
		deleted, err := w.finish()
		if err != nil {
			t.Fatal(err)
		}
		return deleted
	}
	build(map[string]string{"a/same.html": "same", "a/changed.html": "one", "gone.txt": "bye"})
	if deleted := build(map[string]string{"a/same.html": "same", "a/changed.html": "two", "new/x.json": "{}"}); deleted != 1 {
		t.Errorf("%d files deleted, want 1", deleted)
	}
	var m map[string]string
	b, err := os.ReadFile(filepath.Join(root, sitetree.ManifestFile))
	if err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("manifest %q: %v", b, err)
	}
	if len(m) != 3 {
		t.Errorf("manifest %v, want 3 files", m)
	}
	for rel, body := range map[string]string{"a/same.html": "same", "a/changed.html": "two", "new/x.json": "{}"} {
		d := digestOf([]byte(body))
		if got, want := m[rel], string(hexOf(d)); got != want {
			t.Errorf("%s: %q, want %q", rel, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt: %v, want deleted", err)
	}
	os.WriteFile(filepath.Join(root, sitetree.ManifestFile), []byte(`{"a/same.html":`), 0o644)
	w, err := newWriter(root)
	if err != nil {
		t.Fatalf("a damaged manifest: %v", err)
	}
	if err := w.write("a/same.html", []byte("same")); err != nil || w.written.Load() != 1 {
		t.Errorf("after a damaged manifest: written %d, %v", w.written.Load(), err)
	}
}

func hexOf(d digest) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(d))
	for _, c := range d {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}
