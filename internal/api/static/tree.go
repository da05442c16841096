// Package static serves what the build wrote and the documents rendered
// from the configuration: the generated tree with the headers a CDN would
// add, the discovery documents and the OpenAPI description as this
// deployment publishes them.
//
// It depends on the compression, site tree and discovery packages and the
// request and response packages; only the API assembly imports it.
package static

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// The generated tree is served with the headers a CDN would add: content
// types by name, strong ETags from the build manifest's content hashes,
// Last-Modified from the file (the generator only rewrites changed files),
// conditional and range requests, brotli and gzip by Accept-Encoding (the
// build's variants of large files, small files compressed here and kept in
// a bounded cache), cache lifetimes by kind,
// and the markdown variant of a page for Accept: text/markdown.

// Tree serves the generated site from a directory.
type Tree struct {
	dir string
	// notFound answers the API paths that name no file (JSON), missing
	// the site's (see find.Finder.Missing).
	notFound, missing http.HandlerFunc

	// compressed holds the small files compressed on request.
	compressed *encodedCache
	compressor compression.Compressor

	mu       sync.Mutex
	checked  time.Time
	modTime  time.Time
	manifest map[string]string
	headers  map[string]sitetree.FileHeaders
}

// NewTree serves the generated tree in dir. Paths that name no file go to
// missing, or to notFound on the API's paths, and a missing tree is not
// fatal: the API still answers. The build manifest (one hash per file,
// megabytes for the whole site) is read here, at start, so that the first
// page request does not wait for it.
func NewTree(dir string, notFound, missing http.HandlerFunc) *Tree {
	t := &Tree{dir: dir, notFound: notFound, missing: missing, compressed: newEncodedCache(encodedCacheBytes)}
	t.meta("")
	return t
}

func (t *Tree) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rel := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if hidden(rel) {
		t.absent(w, r)
		return
	}
	name, redirect, negotiated := t.locate(r, rel)
	if redirect != "" {
		http.Redirect(w, r, redirect, http.StatusMovedPermanently)
		return
	}
	if negotiated {
		w.Header().Add("Vary", "Accept")
	}
	f, err := os.Open(t.file(name))
	if err != nil {
		t.absent(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		t.absent(w, r)
		return
	}
	h := w.Header()
	tag, extra := t.meta(name)
	h.Set("Content-Type", contentType(name))
	if extra.ContentType != "" {
		h.Set("Content-Type", extra.ContentType)
	}
	if extra.Link != "" {
		h.Set("Link", extra.Link)
	}
	h.Set("Cache-Control", cacheControl(name))
	if readableAnywhere(name) {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	var body io.ReadSeeker = f
	sent := ""
	if compression.Compressible(name) {
		h.Add("Vary", "Accept-Encoding")
		if enc := compression.Negotiate(r.Header.Get("Accept-Encoding")); enc != "" {
			if b, ok := t.encoded(name, enc, tag, f, st); ok {
				if v, ok := b.(*os.File); ok {
					defer v.Close()
				}
				sent, body = enc, b
			}
		}
	}
	response.Encoded(h, sent, tag)
	response.ServeContent(w, r, st.ModTime(), body)
}

// locate finds the file of a request's path rel (cleaned, without its
// leading slash): a page's HTML or, for a client that prefers it, its
// markdown (negotiated); a page in another language beside its English
// page (sitetree.PageFile). It gives the canonical address to redirect to
// instead when the path names a directory without its slash or a page in
// another language by its file name.
func (t *Tree) locate(r *http.Request, rel string) (name, redirect string, negotiated bool) {
	if address, ok := sitetree.Translated(rel, locale.Spoken); ok {
		return "", address, false
	}
	dirRequest := rel == "" || strings.HasSuffix(r.URL.Path, "/")
	code, english, translated := sitetree.LanguageOf("/"+rel+"/", locale.Spoken)
	if !translated {
		code, english = locale.English, rel
	}
	english = strings.Trim(english, "/")
	if !dirRequest {
		if st, err := os.Stat(t.file(english)); english == "" || err == nil && st.IsDir() {
			// A directory without its slash: send the canonical address.
			return "", "/" + rel + "/", false
		}
		return sitetree.PageFile(code, "/"+english), "", false
	}
	if english != "" {
		english += "/"
	}
	if request.PrefersMarkdown(r) {
		// The markdown variants are in English only, and say so.
		return english + "index.md", "", true
	}
	return sitetree.PageFile(code, "/"+english), "", true
}

// absent answers a path that names no file: the API's JSON 404 on API
// paths, else the site's answer (a redirect to the page it probably
// means, or a page of suggestions).
func (t *Tree) absent(w http.ResponseWriter, r *http.Request) {
	if apiPath(r.URL.Path) {
		t.notFound(w, r)
		return
	}
	t.missing(w, r)
}

// apiPath reports whether a path belongs to the API, whose errors are JSON
// whatever the client accepts.
func apiPath(p string) bool {
	for _, prefix := range []string{"/free/", "/v1/", "/oauth/", "/mcp", "/.well-known/", "/openapi.json", "/stats.json", "/healthz", "/metrics"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

func (t *Tree) file(rel string) string {
	return filepath.Join(t.dir, filepath.FromSlash(rel))
}

// hidden keeps the manifest, temporary files and any dot file out of reach.
func hidden(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") && part != ".well-known" {
			return true
		}
	}
	return strings.HasSuffix(rel, ".tmp") || compression.Variant(rel)
}

// meta returns the strong ETag of a file from the build manifest and its
// extra headers, both reloaded when a build has replaced the manifest.
func (t *Tree) meta(name string) (string, sitetree.FileHeaders) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now := time.Now(); now.Sub(t.checked) > time.Second {
		t.checked = now
		if st, err := os.Stat(t.file(sitetree.ManifestFile)); err == nil && !st.ModTime().Equal(t.modTime) {
			var m map[string]string
			var h map[string]sitetree.FileHeaders
			b, err := os.ReadFile(t.file(sitetree.ManifestFile))
			if err == nil && json.Unmarshal(b, &m) == nil {
				if hb, err := os.ReadFile(t.file(sitetree.HeadersFile)); err == nil {
					_ = json.Unmarshal(hb, &h) // missing or damaged: names decide
				}
				t.manifest, t.headers, t.modTime = m, h, st.ModTime()
			}
		}
	}
	tag := ""
	if h, ok := t.manifest[name]; ok {
		tag = `"` + h + `"`
	}
	return tag, t.headers[name]
}
