package find

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// Missing answers a site path that names no page: a redirect to the page
// it probably means, else the not-found answer (see NotFound). A path
// under /{lang}/ is answered in that language.
func (f *Finder) Missing(w http.ResponseWriter, r *http.Request) {
	code, english, translated := sitetree.LanguageOf(r.URL.Path, locale.Spoken)
	if !translated {
		code = locale.English
	}
	if to, ok := f.canonicalSitePath(code, english); ok {
		if to = templates.LocalPath(code, to); to != r.URL.Path {
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, to, http.StatusMovedPermanently)
			return
		}
	}
	f.siteNotFound(w, r, pageLanguage(code), english)
}

// canonicalSitePath returns the page a site path (its English address)
// that names none in the language code probably means: the same path in
// lower case, or a passport, route or destination path written with
// names, aliases or other codes ("/passports/GER/thailand/").
func (f *Finder) canonicalSitePath(code, urlPath string) (string, bool) {
	lower := strings.ToLower(urlPath)
	if lower != urlPath {
		if _, err := os.Stat(filepath.Join(f.Dir, filepath.FromSlash(sitetree.PageFile(code, lower)))); err == nil {
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

// siteNotFound answers a site path that names no page, in the language of
// c (english is the path without its language): browsers get the HTML
// page with suggestions, agents asking for markdown get markdown, and
// everyone else the API's JSON error.
func (f *Finder) siteNotFound(w http.ResponseWriter, r *http.Request, c *locale.Catalog, english string) {
	if !request.PrefersMarkdown(r) && !request.AcceptsHTML(r) {
		f.NotFound(w, r)
		return
	}
	v := f.findView(r, c, "page.not_found.heading")
	v.Heading, v.Message = c.Text("page.not_found.heading"), c.Text("page.not_found.message_at", "path", r.URL.Path)
	parts := strings.Split(strings.Trim(english, "/"), "/")
	if len(parts) == 3 && parts[0] == "passports" {
		p, okP := f.resolveMatrixCountry(parts[1])
		d, okD := f.resolveMatrixCountry(parts[2])
		v.Suggestions = f.routeSuggestions(c, parts[1], p, okP, parts[2], d, okD)
	} else if len(parts) == 2 && (parts[0] == "passports" || parts[0] == "destinations") {
		x, ok := f.resolveMatrixCountry(parts[1])
		if parts[0] == "passports" {
			v.Suggestions = f.routeSuggestions(c, parts[1], x, ok, "", x, false)
		} else {
			v.Suggestions = f.routeSuggestions(c, "", x, false, parts[1], x, ok)
		}
	}
	f.writeFind(w, r, http.StatusNotFound, v)
}
