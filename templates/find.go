package templates

import "strings"

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
	// Countries are the names offered by the form's lists, in order.
	Countries []string
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
	m.line("Find a route: `/go?passport=NAME_OR_CODE&destination=NAME_OR_CODE` (for example [/go?passport=Germany&destination=Thailand](/go?passport=Germany&destination=Thailand)), or browse [passports](/passports/) and [destinations](/destinations/).")
	return m.Bytes()
}

// fieldValue is the form's value for a field: what the person typed.
func fieldValue(s string) string { return strings.TrimSpace(s) }
