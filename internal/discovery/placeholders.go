package discovery

import (
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/config"
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
	out := []placeholder{{name: "base_url", value: s.BaseURL}}
	for _, q := range config.QuotaSettings {
		out = append(out, placeholder{name: "quota_" + q.Name, value: strconv.Itoa(*q.Of(&s.Quotas)), number: true})
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
