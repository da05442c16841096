// Package sitetree is the contract between the generator, which writes the
// static tree, and the server, which serves it: the names of the build's
// own files (dot files, never served) and what each holds.
package sitetree

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
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

// A page in another language than English lives beside its English page,
// its language in its file name: /es/passports/deu/tha/ is the file
// passports/deu/tha/index.es.html, /es/404.html is 404.es.html. Making a
// directory costs the file system several times what writing a page does,
// and the languages multiply the route pages, so they share the English
// pages' directories. The server maps the addresses to the files; a
// static host needs one rewrite rule (docs/site.md).

// PageFile is the file, relative to the tree, of the page whose English
// address is path ("/passports/deu/tha/", "/404.html") in the language
// code (English at its own address).
func PageFile(code, path string) string {
	file := strings.TrimPrefix(path, "/")
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	if code == locale.English {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + code + ext
}

// LanguageOf splits the address of a page in another language into its
// language and its English address: "/es/passports/deu/tha/" is "es" and
// "/passports/deu/tha/". It reports false for an address without a
// language prefix that spoken says is one of the site's.
func LanguageOf(path string, spoken func(code string) bool) (code, english string, ok bool) {
	rest := strings.TrimPrefix(path, "/")
	code, english, found := strings.Cut(rest, "/")
	if !found || code == locale.English || !spoken(code) {
		return "", path, false
	}
	return code, "/" + english, true
}

// Translated reports whether file (relative to the tree) is a page in
// another language at its file name rather than its address, which the
// server redirects to the address.
func Translated(file string, spoken func(code string) bool) (address string, ok bool) {
	dir, base := path.Split(file)
	name := strings.TrimSuffix(base, ".html")
	stem, code, found := strings.Cut(name, ".")
	if !found || name == base || code == locale.English || !spoken(code) {
		return "", false
	}
	if stem == "index" {
		return "/" + code + "/" + dir, true
	}
	return "/" + code + "/" + dir + stem + ".html", true
}
