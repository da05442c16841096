package check

import (
	"sort"
	"strings"
)

// QueryParameters are the query parameters of GET /free/check and
// /v1/check, each saying whether it takes ISO 3166-1 codes (read in any
// letter case, so that a payment binds DEU and deu to the same answer).
var QueryParameters = map[string]struct{ Countries bool }{
	"passport": {Countries: true}, "destination": {Countries: true}, "transit": {Countries: true},
	"residence_permits_of": {Countries: true}, "visas_of": {Countries: true},
	"residence_permits": {Countries: true}, "visas_held": {Countries: true},
	"purpose": {}, "lang": {},
}

// ParameterList names the query parameters for a message, in alphabetical
// order: "destination, lang, ... and visas_of".
func ParameterList() string {
	names := make([]string, 0, len(QueryParameters))
	for name := range QueryParameters {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// CountryParameter tells whether the query parameter name takes country codes.
func CountryParameter(name string) bool { return QueryParameters[name].Countries }
