// Package find resolves what people typed to the site's pages: the
// search form's target /go, the redirects of site paths that are close to
// a page (upper case, an alias or a name instead of a code), and the
// not-found page with suggestions, in HTML for browsers and markdown for
// agents.
//
// It depends on the domain, the evaluation core, the templates, the
// compression package and the request and response packages; only the API assembly imports it, and
// hands its Missing to the static tree for the paths that name no file.
package find

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// PathGo is the search form's target.
const PathGo = "/go"

// Finder resolves what people typed against the loaded dataset.
type Finder struct {
	// Evaluator is the evaluator answering now.
	Evaluator func() *evaluation.Evaluator
	// Dir is the generated tree, where a path's lower-case form is looked for.
	Dir string
	// BaseURL is the configured public address.
	BaseURL string
	// Countries are what the search form offers.
	Countries []templates.CountryOption
	// NotFound answers the clients that want neither HTML nor markdown:
	// the API's JSON 404.
	NotFound http.HandlerFunc
	Log      *slog.Logger

	// compressor compresses the pages for the clients that accept it.
	compressor compression.Compressor
}

// Go sends a person to the page of what they typed: a route, a
// passport or a destination (303), or to a page of suggestions (400).
func (f *Finder) Go(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	passport, destination := strings.TrimSpace(q.Get("passport")), strings.TrimSpace(q.Get("destination"))
	v := f.findView(r, titleGo)
	v.Passport, v.Destination = passport, destination
	if passport == "" && destination == "" {
		v.Heading, v.Message = "Which route?", "Type the country of your passport and, if you like, your destination: names or codes (Germany, DEU, DE)."
		f.writeFind(w, r, http.StatusBadRequest, v)
		return
	}
	pc, okP := f.resolveMatrixCountry(passport)
	dc, okD := f.resolveMatrixCountry(destination)
	switch {
	case okP && okD && pc.ISO3 != dc.ISO3:
		seeOther(w, r, routePagePath(pc, dc))
		return
	case okP && (destination == "" || okD):
		seeOther(w, r, "/passports/"+strings.ToLower(pc.ISO3)+"/")
		return
	case passport == "" && okD:
		seeOther(w, r, "/destinations/"+strings.ToLower(dc.ISO3)+"/")
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
	v.Suggestions = f.routeSuggestions(passport, pc, okP, destination, dc, okD)
	if len(v.Suggestions) == 0 {
		v.Message += " Nothing close matches: try the country's English name or its ISO code."
	}
	f.writeFind(w, r, http.StatusBadRequest, v)
}

// routeSuggestions links to the pages a person probably meant: each
// suggested country of an unclear field, with the other field as resolved
// (or as its first suggestion).
func (f *Finder) routeSuggestions(passport string, pc entrycheck.Country, okP bool, destination string, dc entrycheck.Country, okD bool) []templates.Link {
	ps, ds := f.candidates(passport, pc, okP), f.candidates(destination, dc, okD)
	var out []templates.Link
	switch {
	case destination == "":
		for _, p := range ps {
			out = append(out, templates.Link{Label: entrycheck.PassportWords(p.Name), URL: "/passports/" + strings.ToLower(p.ISO3) + "/"})
		}
	case passport == "":
		for _, d := range ds {
			out = append(out, templates.Link{Label: "Entry rules of " + d.Name, URL: "/destinations/" + strings.ToLower(d.ISO3) + "/"})
		}
	default:
		for _, p := range ps {
			for _, d := range ds {
				if p.ISO3 != d.ISO3 && len(out) < 10 {
					out = append(out, templates.Link{Label: entrycheck.RouteWords(p.Name, d.Name), URL: routePagePath(p, d)})
				}
			}
		}
	}
	return out
}

// candidates are the matrix countries a field may mean: the resolved one,
// or the suggestions for what was typed.
func (f *Finder) candidates(input string, c entrycheck.Country, ok bool) []entrycheck.Country {
	if ok {
		return []entrycheck.Country{c}
	}
	snap := f.Evaluator().Snapshot()
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
func (f *Finder) resolveMatrixCountry(input string) (entrycheck.Country, bool) {
	snap := f.Evaluator().Snapshot()
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

func seeOther(w http.ResponseWriter, r *http.Request, path string) {
	w.Header().Set("Cache-Control", response.CacheNone)
	http.Redirect(w, r, path, http.StatusSeeOther)
}
