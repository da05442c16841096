package templates

import (
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// FindView is the page that helps a person reach a route: the 404 page of
// the site and the answer of /go when a country was not understood. It
// offers the search form and, for each field that was not understood, the
// countries the person probably meant.
type FindView struct {
	Page
	Heading string
	Message string
	// Passport and Destination are what the person typed, to fill the form again.
	Passport, Destination string
	// Suggestions are links to the pages the person probably meant.
	Suggestions []Link
	// Countries are what the form's type-ahead offers, in order.
	Countries []CountryOption
}

// CountryOption is a country as the search forms offer it: its name, and
// the codes and aliases a person may type instead ("DEU, DE, GER").
type CountryOption struct {
	Name string
	ISO3 string
	// Label is what the type-ahead shows and matches: the name first, then
	// the codes and aliases a person may type instead, "Germany (DEU, DE,
	// GER)", so that a code finds its country and the name is what reads.
	Label string
}

// CountryOptions lists countries by name for the search forms, each with
// its codes and the aliases the registry resolves.
func CountryOptions(countries []entrycheck.Country, aliases func(iso3 string) []string) []CountryOption {
	out := make([]CountryOption, 0, len(countries))
	for _, c := range countries {
		also := append([]string{c.ISO3, c.ISO2}, aliases(c.ISO3)...)
		out = append(out, CountryOption{Name: c.Name, ISO3: c.ISO3, Label: c.Name + " (" + strings.Join(also, ", ") + ")"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FindMarkdown is the markdown variant of a FindView.
func FindMarkdown(v FindView) []byte {
	var m md
	m.line("# %s\n", v.Heading)
	m.line("%s\n", escapeMD(v.Message))
	if len(v.Suggestions) > 0 {
		m.line("Did you mean:\n")
		for _, s := range v.Suggestions {
			m.line("- [%s](%s)", escapeMD(s.Label), s.URL)
		}
		m.line("")
	}
	m.line("Find a route by country names, for example [/go?passport=Germany&destination=Thailand](/go?passport=Germany&destination=Thailand), or browse [passports](/passports/) and [destinations](/destinations/).")
	return m.Bytes()
}

// fieldValue is the form's value for a field: what the person typed.
func fieldValue(s string) string { return strings.TrimSpace(s) }
