package find

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/request"
)

// Missing answers a site path that names no page: a redirect to the page
// it probably means, else the not-found answer (see NotFound).
func (f *Finder) Missing(w http.ResponseWriter, r *http.Request) {
	if to, ok := f.canonicalSitePath(r.URL.Path); ok && to != r.URL.Path {
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	f.siteNotFound(w, r)
}

// canonicalSitePath returns the page a site path that names none probably
// means: the same path in lower case, or a passport, route or destination
// path written with names, aliases or other codes ("/passports/GER/thailand/").
func (f *Finder) canonicalSitePath(urlPath string) (string, bool) {
	lower := strings.ToLower(urlPath)
	if lower != urlPath {
		if _, err := os.Stat(filepath.Join(f.Dir, filepath.FromSlash(strings.TrimPrefix(lower, "/")))); err == nil {
			return lower, true
		}
	}
	parts := strings.Split(strings.Trim(urlPath, "/"), "/")
	resolve := func(i int) (entrycheck.Country, bool) {
		seg, err := url.PathUnescape(parts[i])
		if err != nil {
			return entrycheck.Country{}, false
		}
		return f.resolveMatrixCountry(seg)
	}
	switch {
	case len(parts) == 2 && parts[0] == "destinations":
		if d, ok := resolve(1); ok {
			return "/destinations/" + strings.ToLower(d.ISO3) + "/", true
		}
	case len(parts) == 2 && parts[0] == "passports":
		if p, ok := resolve(1); ok {
			return "/passports/" + strings.ToLower(p.ISO3) + "/", true
		}
	case len(parts) == 3 && parts[0] == "passports":
		p, okP := resolve(1)
		d, okD := resolve(2)
		if okP && okD && p.ISO3 != d.ISO3 {
			return routePagePath(p, d), true
		}
	}
	return "", false
}

// siteNotFound answers a site path that names no page: browsers get the
// HTML page with suggestions, agents asking for markdown get markdown, and
// everyone else the API's JSON error.
func (f *Finder) siteNotFound(w http.ResponseWriter, r *http.Request) {
	if !request.PrefersMarkdown(r) && !request.AcceptsHTML(r) {
		f.NotFound(w, r)
		return
	}
	v := f.findView(r, titleNotFound)
	v.Heading, v.Message = "Page not found", "There is no page at "+r.URL.Path+"."
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) == 3 && parts[0] == "passports" {
		p, okP := f.resolveMatrixCountry(parts[1])
		d, okD := f.resolveMatrixCountry(parts[2])
		v.Suggestions = f.routeSuggestions(parts[1], p, okP, parts[2], d, okD)
	} else if len(parts) == 2 && (parts[0] == "passports" || parts[0] == "destinations") {
		c, ok := f.resolveMatrixCountry(parts[1])
		if parts[0] == "passports" {
			v.Suggestions = f.routeSuggestions(parts[1], c, ok, "", c, false)
		} else {
			v.Suggestions = f.routeSuggestions("", c, false, parts[1], c, ok)
		}
	}
	f.writeFind(w, r, http.StatusNotFound, v)
}
