package generator

import (
	"fmt"
	"strings"
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
	_, err := w.manifest.close(true)
	return err
}
