package templates

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
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
	return CountryOptionsIn(locale.Embedded().English(), countries, aliases)
}

// CountryOptionsIn is CountryOptions for a form in the language of c: each
// country by its name in the language (CLDR's), in the language's
// alphabetical order.
func CountryOptionsIn(c *locale.Catalog, countries []entrycheck.Country, aliases func(iso3 string) []string) []CountryOption {
	out := make([]CountryOption, 0, len(countries))
	for _, x := range countries {
		name := c.Country(x.ISO2, x.Name)
		also := append([]string{x.ISO3, x.ISO2}, aliases(x.ISO3)...)
		out = append(out, CountryOption{Name: name, ISO3: x.ISO3, Label: name + " (" + strings.Join(also, ", ") + ")"})
	}
	if c.Code == locale.English {
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	names := collate.New(c.Tag, collate.Loose)
	sort.SliceStable(out, func(i, j int) bool { return names.CompareString(out[i].Name, out[j].Name) < 0 })
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

// liveWords are the words the home page's script writes its live check
// with, in the page's language, as JSON for the form's data-words: the
// script builds its sentences from them, its stay with the language's
// plural forms (Intl.PluralRules picks one), its dates from the month
// names, and links the route's page in the language (lang).
func liveWords(p Page) string {
	c := p.words()
	months := make([]string, 12)
	for i := range months {
		months[i] = c.Text("date.month." + strconv.Itoa(i+1))
	}
	words := map[string]any{
		"lang":               c.Code,
		"checking":           c.Text("page.live.checking"),
		"choose_passport":    c.Text("page.live.choose_passport"),
		"choose_destination": c.Text("page.live.choose_destination"),
		"used_up":            c.Text("page.live.used_up"),
		"open_page":          c.Text("page.live.open_page"),
		"failed":             c.Text("page.live.failed"),
		"as_of":              c.Text("page.live.as_of"),
		"full_answer":        c.Text("page.live.full_answer"),
		"unreachable":        c.Text("page.live.unreachable"),
		"with_stay":          c.Text("verdict.with_stay"),
		"days":               c.Forms("stay.days"),
		"date":               c.Text("date.long"),
		"months":             months,
	}
	b, _ := json.Marshal(words) // strings, a map of strings and a slice of strings always encode
	return string(b)
}
