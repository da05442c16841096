package api

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// People reach routes by name as well as by code: /go resolves what they
// typed, and site paths that are close to a page (upper case, an alias or
// a name instead of a code) redirect to it. What cannot be resolved gets a
// page with suggestions and the search form, in HTML for browsers.

// pathGo is the search form's target.
const pathGo = "/go"

// goRoute sends a person to the page of what they typed: a route, a
// passport or a destination (303), or to a page of suggestions (400).
func (s *Server) goRoute(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	passport, destination := strings.TrimSpace(q.Get("passport")), strings.TrimSpace(q.Get("destination"))
	v := s.findView(r)
	v.Passport, v.Destination = passport, destination
	if passport == "" && destination == "" {
		v.Heading, v.Message = "Which route?", "Type the country of your passport and, if you like, your destination: names or codes (Germany, DEU, DE)."
		s.writeFind(w, r, http.StatusBadRequest, v)
		return
	}
	pc, okP := s.resolveMatrixCountry(passport)
	dc, okD := s.resolveMatrixCountry(destination)
	switch {
	case okP && okD && pc.ISO3 != dc.ISO3:
		s.seeOther(w, r, routePagePath(pc, dc))
		return
	case okP && (destination == "" || okD):
		s.seeOther(w, r, "/passports/"+strings.ToLower(pc.ISO3)+"/")
		return
	case passport == "" && okD:
		s.seeOther(w, r, "/destinations/"+strings.ToLower(dc.ISO3)+"/")
		return
	}
	v.Heading = "Which country did you mean?"
	var unclear []string
	if passport != "" && !okP {
		unclear = append(unclear, "passport “"+passport+"”")
	}
	if destination != "" && !okD {
		unclear = append(unclear, "destination “"+destination+"”")
	}
	v.Message = "We could not tell which country you meant by " + strings.Join(unclear, " and ") + "."
	v.Suggestions = s.routeSuggestions(passport, pc, okP, destination, dc, okD)
	if len(v.Suggestions) == 0 {
		v.Message += " Nothing close matches: try the country's English name or its ISO code."
	}
	s.writeFind(w, r, http.StatusBadRequest, v)
}

// routeSuggestions links to the pages a person probably meant: each
// suggested country of an unclear field, with the other field as resolved
// (or as its first suggestion).
func (s *Server) routeSuggestions(passport string, pc entrycheck.Country, okP bool, destination string, dc entrycheck.Country, okD bool) []templates.Link {
	ps, ds := s.candidates(passport, pc, okP), s.candidates(destination, dc, okD)
	var out []templates.Link
	switch {
	case destination == "":
		for _, p := range ps {
			out = append(out, templates.Link{Label: p.Name + " passport", URL: "/passports/" + strings.ToLower(p.ISO3) + "/"})
		}
	case passport == "":
		for _, d := range ds {
			out = append(out, templates.Link{Label: "Entry rules of " + d.Name, URL: "/destinations/" + strings.ToLower(d.ISO3) + "/"})
		}
	default:
		for _, p := range ps {
			for _, d := range ds {
				if p.ISO3 != d.ISO3 && len(out) < 10 {
					out = append(out, templates.Link{Label: p.Name + " passport to " + d.Name, URL: routePagePath(p, d)})
				}
			}
		}
	}
	return out
}

// candidates are the matrix countries a field may mean: the resolved one,
// or the suggestions for what was typed.
func (s *Server) candidates(input string, c entrycheck.Country, ok bool) []entrycheck.Country {
	if ok {
		return []entrycheck.Country{c}
	}
	snap := s.evaluator().Snapshot()
	var out []entrycheck.Country
	for _, c := range snap.Countries.Suggest(input) {
		if _, in := snap.Matrix.Position(c.ISO3); in {
			out = append(out, c)
		}
	}
	return out
}

// resolveMatrixCountry resolves exactly what a person typed to a country
// that has pages (one of the matrix).
func (s *Server) resolveMatrixCountry(input string) (entrycheck.Country, bool) {
	snap := s.evaluator().Snapshot()
	c, ok := snap.Countries.Resolve(input)
	if !ok {
		return c, false
	}
	_, in := snap.Matrix.Position(c.ISO3)
	return c, in
}

func routePagePath(p, d entrycheck.Country) string {
	return "/passports/" + strings.ToLower(p.ISO3) + "/" + strings.ToLower(d.ISO3) + "/"
}

func (s *Server) seeOther(w http.ResponseWriter, r *http.Request, path string) {
	w.Header().Set("Cache-Control", response.CacheNone)
	http.Redirect(w, r, path, http.StatusSeeOther)
}

// canonicalSitePath returns the page a site path that names none probably
// means: the same path in lower case, or a passport, route or destination
// path written with names, aliases or other codes ("/passports/GER/thailand/").
func (s *Server) canonicalSitePath(t *staticTree, urlPath string) (string, bool) {
	lower := strings.ToLower(urlPath)
	if lower != urlPath {
		if _, err := os.Stat(t.file(strings.TrimPrefix(lower, "/"))); err == nil {
			return lower, true
		}
	}
	parts := strings.Split(strings.Trim(urlPath, "/"), "/")
	resolve := func(i int) (entrycheck.Country, bool) {
		seg, err := url.PathUnescape(parts[i])
		if err != nil {
			return entrycheck.Country{}, false
		}
		return s.resolveMatrixCountry(seg)
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
func (s *Server) siteNotFound(w http.ResponseWriter, r *http.Request) {
	if !request.PrefersMarkdown(r) && !request.AcceptsHTML(r) {
		s.notFound(w, r)
		return
	}
	v := s.findView(r)
	v.Heading, v.Message = "Page not found", "There is no page at "+r.URL.Path+"."
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) == 3 && parts[0] == "passports" {
		p, okP := s.resolveMatrixCountry(parts[1])
		d, okD := s.resolveMatrixCountry(parts[2])
		v.Suggestions = s.routeSuggestions(parts[1], p, okP, parts[2], d, okD)
	} else if len(parts) == 2 && (parts[0] == "passports" || parts[0] == "destinations") {
		c, ok := s.resolveMatrixCountry(parts[1])
		if parts[0] == "passports" {
			v.Suggestions = s.routeSuggestions(parts[1], c, ok, "", c, false)
		} else {
			v.Suggestions = s.routeSuggestions("", c, false, parts[1], c, ok)
		}
	}
	s.writeFind(w, r, http.StatusNotFound, v)
}

// findView is the page model shared by the 404 page and /go.
func (s *Server) findView(r *http.Request) templates.FindView {
	css, _, _ := templates.AssetPath("site.css") // embedded: cannot fail
	v := templates.FindView{Page: templates.Page{
		Title: "Find a route | entrycheck", Description: "Find the entry requirements of a passport and destination.",
		Path: r.URL.Path, BaseURL: s.cfg.BaseURL, Stylesheet: css,
	}}
	v.Countries = s.countries
	return v
}

// writeFind sends the page in markdown or HTML; it is never cached, since
// it answers what was typed.
func (s *Server) writeFind(w http.ResponseWriter, r *http.Request, status int, v templates.FindView) {
	h := w.Header()
	h.Set("Cache-Control", response.CacheNone)
	h.Add("Vary", "Accept")
	if request.PrefersMarkdown(r) {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write(templates.FindMarkdown(v))
		return
	}
	var b bytes.Buffer
	if err := templates.FindPage(v).Render(r.Context(), &b); err != nil {
		response.Error(s.log, w, r, err)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
