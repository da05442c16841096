package generator

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// Update writes files into a tree that Build made, without rebuilding it:
// serve publishes the feeds this way after each verification run. Every
// other file stays as it is, and so does its entry in the manifest. Files
// that need their own headers (File.MediaType, File.Link) are refused:
// only Build writes the headers file.
func Update(outDir string, files []File) error {
	w, err := newWriter(outDir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.MediaType != "" || f.Link != "" {
			return fmt.Errorf("updating %s: files with their own headers are written by a build", f.Path)
		}
		if err := w.write(strings.TrimPrefix(f.Path, "/"), f.Body); err != nil {
			return err
		}
	}
	return w.mergeManifest()
}

// mergeManifest writes the manifest of the previous build with the entries
// of the files written since.
func (w *writer) mergeManifest() error {
	m := maps.Clone(w.old)
	maps.Copy(m, w.seen)
	return w.writeManifest(m)
}

// writeManifest replaces the manifest at once, so that serve never reads
// half of it.
func (w *writer) writeManifest(m map[string]string) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	path := filepath.Join(w.root, sitetree.ManifestFile)
	if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
		return fmt.Errorf("writing the manifest: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("writing the manifest: %w", err)
	}
	return nil
}
