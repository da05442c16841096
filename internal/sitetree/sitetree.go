// Package sitetree is the contract between the generator, which writes the
// static tree, and the server, which serves it: the names of the build's
// own files (dot files, never served) and what each holds.
package sitetree

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ManifestFile lists every generated file with the hash of its content
// (a JSON object of path to hash). A rebuild compares against it to write
// only what changed; the server uses the hashes as ETags.
const ManifestFile = ".manifest.json"

// HeadersFile maps generated files to the response headers the server must
// send for them beyond what their names imply, such as the media type of
// an extensionless discovery document (a JSON object of path to
// FileHeaders). A static host can be configured from it.
const HeadersFile = ".headers.json"

// FileHeaders are the extra headers of one file.
type FileHeaders struct {
	ContentType string `json:"content_type,omitempty"`
	Link        string `json:"link,omitempty"`
}

// InfoFile says what the tree was built for (Info).
const InfoFile = ".site.json"

// Info is what a tree was built for. The pages, sitemaps and feeds carry
// its base URL in their absolute links, so a server configured with
// another one warns that the tree needs a rebuild.
type Info struct {
	BaseURL        string `json:"base_url"`
	DatasetVersion string `json:"dataset_version"`
}

// ReadInfo reads the Info of the tree in dir.
func ReadInfo(dir string) (Info, error) {
	var i Info
	b, err := os.ReadFile(filepath.Join(dir, InfoFile))
	if err != nil {
		return i, err
	}
	if err := json.Unmarshal(b, &i); err != nil {
		return i, fmt.Errorf("%s: %w", filepath.Join(dir, InfoFile), err)
	}
	return i, nil
}
