package check

// QueryParameters are the query parameters of GET /free/check and
// /v1/check, each saying whether it takes ISO 3166-1 codes (read in any
// letter case, so that a payment binds DEU and deu to the same answer).
var QueryParameters = map[string]struct{ Countries bool }{
	"passport": {Countries: true}, "destination": {Countries: true}, "transit": {Countries: true},
	"residence_permits_of": {Countries: true}, "visas_of": {Countries: true},
	"residence_permits": {Countries: true}, "visas_held": {Countries: true},
	"purpose": {}, "lang": {},
}

// CountryParameter tells whether the query parameter name takes country codes.
func CountryParameter(name string) bool { return QueryParameters[name].Countries }
