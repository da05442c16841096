package discovery

import (
	"strconv"
	"strings"
)

// placeholder is a value of the deployment that texts written once (the
// agent authentication guide, openapi.json) name as {name} and that is
// filled in where they are served: the configuration decides it, never the
// text.
type placeholder struct {
	name, value string
	// number marks a value a JSON document may hold as a number: there
	// the quoted placeholder ("{name}") becomes the bare number.
	number bool
}

// placeholders are the values a text may name, from s.
func (s Site) placeholders() []placeholder {
	q := s.Quotas
	out := []placeholder{{name: "base_url", value: s.BaseURL}}
	for _, n := range []struct {
		name  string
		value int
	}{
		{"quota_anonymous", q.Anonymous}, {"quota_client", q.Client}, {"quota_network", q.Network},
		{"quota_global", q.Global}, {"quota_network_clients", q.NetworkClients},
		{"quota_registrations", q.Registrations}, {"quota_registrations_network", q.RegistrationsNetwork},
		{"quota_registrations_global", q.RegistrationsGlobal}, {"quota_tokens", q.Tokens},
	} {
		out = append(out, placeholder{name: n.name, value: strconv.Itoa(n.value), number: true})
	}
	for _, r := range Routes {
		if p, ok := s.price(r.Method, r.Path); ok && r.Price != "" {
			out = append(out, placeholder{name: "price_" + r.Price, value: p.USD})
		}
	}
	return out
}

// Fill replaces the {placeholders} of a text with the deployment's values.
func (s Site) Fill(text string) string {
	var pairs []string
	for _, p := range s.placeholders() {
		pairs = append(pairs, "{"+p.name+"}", p.value)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// FillJSON is Fill for a JSON document: a placeholder that is a whole
// string value of a number becomes the number ("{quota_client}" -> 20).
func (s Site) FillJSON(doc []byte) []byte {
	var pairs []string
	for _, p := range s.placeholders() {
		if p.number {
			pairs = append(pairs, `"{`+p.name+`}"`, p.value)
		}
	}
	for _, p := range s.placeholders() {
		pairs = append(pairs, "{"+p.name+"}", p.value)
	}
	return []byte(strings.NewReplacer(pairs...).Replace(string(doc)))
}
