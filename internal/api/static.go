package api

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
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// The generated tree is served with the headers a CDN would add: content
// types by name, strong ETags from the build manifest's content hashes,
// Last-Modified from the file (the generator only rewrites changed files),
// conditional and range requests, brotli and gzip by Accept-Encoding (the
// build's variants of large files, small files compressed here and kept in
// a bounded cache), cache lifetimes by kind,
// and the markdown variant of a page for Accept: text/markdown.

// staticTree serves the generated site from dir.
type staticTree struct {
	s   *Server
	dir string

	// compressed holds the small files compressed on request.
	compressed *encodedCache
	compressor compression.Compressor

	mu       sync.Mutex
	checked  time.Time
	modTime  time.Time
	manifest map[string]string
	headers  map[string]sitetree.FileHeaders
}

// staticFiles serves the generated tree. Paths that name no file get the
// API's JSON 404, and a missing tree is not fatal: the API still answers.
// The build manifest (one hash per file, megabytes for the whole site) is
// read here, at start, so that the first page request does not wait for it.
func (s *Server) staticFiles(dir string) http.Handler {
	t := &staticTree{s: s, dir: dir, compressed: newEncodedCache(encodedCacheBytes)}
	t.meta("")
	return t
}

func (t *staticTree) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rel := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if hidden(rel) {
		t.missing(w, r)
		return
	}
	dirRequest := rel == "" || strings.HasSuffix(r.URL.Path, "/")
	name := rel
	if dirRequest {
		name = path.Join(rel, "index.html")
		if request.PrefersMarkdown(r) {
			name = path.Join(rel, "index.md")
		}
		w.Header().Add("Vary", "Accept")
	} else if st, err := os.Stat(t.file(rel)); err == nil && st.IsDir() {
		// A directory without its slash: send the canonical address.
		http.Redirect(w, r, "/"+rel+"/", http.StatusMovedPermanently)
		return
	}
	f, err := os.Open(t.file(name))
	if err != nil {
		t.missing(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		t.missing(w, r)
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
	if strings.HasPrefix(name, ".well-known/") || name == "openapi.json" || name == "llms.txt" || name == "llms-full.txt" || feedDocument(name) ||
		name == "embed.js" || pinnedWidget(name) || passportDocument(name) { // the widget: other sites load it and its static answers

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

// missing answers a path that names no file: a redirect to the page it
// probably means, else the site's not-found answer (JSON on API paths).
func (t *staticTree) missing(w http.ResponseWriter, r *http.Request) {
	if apiPath(r.URL.Path) {
		t.s.notFound(w, r)
		return
	}
	if to, ok := t.s.canonicalSitePath(t, r.URL.Path); ok && to != r.URL.Path {
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	t.s.siteNotFound(w, r)
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

func (t *staticTree) file(rel string) string {
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
func (t *staticTree) meta(name string) (string, sitetree.FileHeaders) {
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

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".json": "application/json",
	".xml":  "application/xml; charset=utf-8",
	".atom": "application/atom+xml; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
}

func contentType(name string) string {
	switch {
	case name == ".well-known/api-catalog":
		return `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`
	case strings.HasPrefix(name, ".well-known/") && path.Ext(name) == "":
		return "application/json"
	}
	if ct, ok := contentTypes[path.Ext(name)]; ok {
		return ct
	}
	return "application/octet-stream"
}

// cacheControl: content-hashed assets never change; pages and feeds may
// change with any build, so caches revalidate them every few minutes.
func cacheControl(name string) string {
	if strings.HasPrefix(name, "assets/") || pinnedWidget(name) {
		return response.CacheImmutable
	}
	return response.CacheDocument
}

// feedDocument reports whether name is a document of the change feeds: the
// Atom feed, /changes.json, or one of their monthly archives
// (changes/2025-01.json, feeds/changes/2025-01.atom).
func feedDocument(name string) bool {
	return strings.HasSuffix(name, ".atom") || name == "changes.json" || strings.HasPrefix(name, "changes/") && path.Ext(name) == ".json"
}

// passportDocument reports whether name is the static matrix of a passport,
// passports/<iso3>/index.json (generator.PassportDocument), which embedded
// checkers read from other sites.
func passportDocument(name string) bool {
	iso3, ok := strings.CutPrefix(name, "passports/")
	iso3, ok2 := strings.CutSuffix(iso3, "/index.json")
	return ok && ok2 && len(iso3) == 3 && strings.Trim(iso3, "abcdefghijklmnopqrstuvwxyz") == ""
}

// pinnedWidget reports whether name is a content-hashed copy of the widget,
// embed.<ten hex digits>.js (widget.HashedPath), which never changes.
func pinnedWidget(name string) bool {
	hash, ok := strings.CutPrefix(name, "embed.")
	hash, ok2 := strings.CutSuffix(hash, ".js")
	if !ok || !ok2 || len(hash) != 10 {
		return false
	}
	for _, c := range hash {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
