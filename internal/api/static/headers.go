package static

import (
	"path"
	"strings"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// The headers of a file decided by its name: its content type, how long it
// may be cached, and whether other sites may read it.

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

// readableAnywhere reports whether pages of other sites may read the file:
// the discovery documents, the feeds, and the widget, which other sites
// load with its static answers.
func readableAnywhere(name string) bool {
	return strings.HasPrefix(name, ".well-known/") || name == "openapi.json" || name == "llms.txt" || name == "llms-full.txt" || feedDocument(name) ||
		name == "embed.js" || pinnedWidget(name) || passportDocument(name)
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

// pinnedWidget reports whether name is a content-hashed file of the
// widget, which never changes: the loader's copy, embed.<ten hex
// digits>.js (widget.HashedPath), or a language's checker,
// embed.<lang>.<ten hex digits>.js (widget.LanguagePath), which the loader
// adds to other sites' pages with its integrity digest, so they are read
// with CORS.
func pinnedWidget(name string) bool {
	rest, ok := strings.CutPrefix(name, "embed.")
	rest, ok2 := strings.CutSuffix(rest, ".js")
	if !ok || !ok2 {
		return false
	}
	if lang, hash, ok := strings.Cut(rest, "."); ok {
		return len(lang) >= 2 && len(lang) <= 3 && strings.Trim(lang, "abcdefghijklmnopqrstuvwxyz") == "" && isHash(hash)
	}
	return isHash(rest)
}

// isHash reports whether s is ten lowercase hex digits, as the widget's
// files are named.
func isHash(s string) bool {
	return len(s) == 10 && strings.Trim(s, "0123456789abcdef") == ""
}
