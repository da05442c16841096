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
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/locale"
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
// passport or a destination (303), or to a page of suggestions (400). A
// form in another language than English says which (lang): its pages are
// those it sends to, and the names it understands are that language's
// too.
func (f *Finder) Go(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c := pageLanguage(q.Get("lang"))
	passport, destination := strings.TrimSpace(q.Get("passport")), strings.TrimSpace(q.Get("destination"))
	v := f.findView(r, c, "page.find.heading")
	v.Passport, v.Destination = passport, destination
	if passport == "" && destination == "" {
		v.Heading, v.Message = c.Text("page.go.heading"), c.Text("page.go.message")
		f.writeFind(w, r, http.StatusBadRequest, v)
		return
	}
	pc, okP := f.resolveIn(c, passport)
	dc, okD := f.resolveIn(c, destination)
	switch {
	case okP && okD && pc.ISO3 != dc.ISO3:
		seeOther(w, r, templates.LocalPath(c.Code, routePagePath(pc, dc)))
		return
	case okP && (destination == "" || okD):
		seeOther(w, r, templates.LocalPath(c.Code, "/passports/"+strings.ToLower(pc.ISO3)+"/"))
		return
	case passport == "" && okD:
		seeOther(w, r, templates.LocalPath(c.Code, "/destinations/"+strings.ToLower(dc.ISO3)+"/"))
		return
	}
	v.Heading = c.Text("page.go.unclear_heading")
	var unclear []string
	if passport != "" && !okP {
		unclear = append(unclear, c.Text("page.go.unclear_passport", "input", passport))
	}
	if destination != "" && !okD {
		unclear = append(unclear, c.Text("page.go.unclear_destination", "input", destination))
	}
	v.Message = c.Text("page.go.unclear", "fields", entrycheck.JoinWordsIn(c, unclear))
	v.Suggestions = f.routeSuggestions(c, passport, pc, okP, destination, dc, okD)
	if len(v.Suggestions) == 0 {
		v.Message += " " + c.Text("page.go.nothing_close")
	}
	f.writeFind(w, r, http.StatusBadRequest, v)
}

// pageLanguage is the catalog of a page's language code, English for none
// or one the site does not speak.
func pageLanguage(code string) *locale.Catalog {
	if c, ok := locale.Embedded().Get(code); ok {
		return c
	}
	return locale.Embedded().English()
}

// routeSuggestions links to the pages a person probably meant, in the
// language of c: each suggested country of an unclear field, with the
// other field as resolved (or as its first suggestion).
func (f *Finder) routeSuggestions(c *locale.Catalog, passport string, pc entrycheck.Country, okP bool, destination string, dc entrycheck.Country, okD bool) []templates.Link {
	ps, ds := f.candidates(passport, pc, okP), f.candidates(destination, dc, okD)
	name := func(x entrycheck.Country) string { return c.Country(x.ISO2, x.Name) }
	var out []templates.Link
	switch {
	case destination == "":
		for _, p := range ps {
			out = append(out, templates.Link{Label: entrycheck.PassportWordsIn(c, name(p)), URL: templates.LocalPath(c.Code, "/passports/"+strings.ToLower(p.ISO3)+"/")})
		}
	case passport == "":
		for _, d := range ds {
			out = append(out, templates.Link{Label: entrycheck.EntryRulesOf(c, name(d)), URL: templates.LocalPath(c.Code, "/destinations/"+strings.ToLower(d.ISO3)+"/")})
		}
	default:
		for _, p := range ps {
			for _, d := range ds {
				if p.ISO3 != d.ISO3 && len(out) < 10 {
					out = append(out, templates.Link{Label: entrycheck.RouteWordsIn(c, name(p), name(d)), URL: templates.LocalPath(c.Code, routePagePath(p, d))})
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

// resolveIn resolves what a person typed into a form in the language of
// cat: a code, alias or English name, or the country's name in that
// language, as its form offers it ("Alemania", accents and case aside).
func (f *Finder) resolveIn(cat *locale.Catalog, input string) (entrycheck.Country, bool) {
	if c, ok := f.resolveMatrixCountry(input); ok || cat.Code == locale.English {
		return c, ok
	}
	typed := foldName(input)
	if typed == "" {
		return entrycheck.Country{}, false
	}
	for _, c := range f.Evaluator().Snapshot().Matrix.Countries() {
		if foldName(cat.Country(c.ISO2, c.Name)) == typed {
			return c, true
		}
	}
	return entrycheck.Country{}, false
}

// foldName is a country's name as a person may type it: without accents,
// case or surrounding spaces ("Bélgica" is "belgica").
func foldName(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(strings.TrimSpace(s))) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func routePagePath(p, d entrycheck.Country) string {
	return "/passports/" + strings.ToLower(p.ISO3) + "/" + strings.ToLower(d.ISO3) + "/"
}

func seeOther(w http.ResponseWriter, r *http.Request, path string) {
	w.Header().Set("Cache-Control", response.CacheNone)
	http.Redirect(w, r, path, http.StatusSeeOther)
}
