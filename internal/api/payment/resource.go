package payment

import (
	"net/url"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck/internal/api/check"
)

// SameResource tells whether two resource URLs name the same answer: the
// same scheme, host and path, and the same query parameters in any order,
// with country codes in any letter case. A client may rebuild the URL it
// pays for (its HTTP library reorders the query, it upper-cases a code);
// what it pays for is the answer, which these differences do not change.
func SameResource(a, b string) bool {
	return a == b || resourceKey(a) == resourceKey(b)
}

// resourceKey is the normal form of a resource URL that SameResource
// compares; a URL that does not parse is its own key.
func resourceKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return raw
	}
	var pairs []string
	for name, values := range q {
		for _, v := range values {
			if check.CountryParameter(name) {
				v = strings.ToUpper(strings.TrimSpace(v))
			}
			pairs = append(pairs, url.QueryEscape(name)+"="+url.QueryEscape(v))
		}
	}
	sort.Strings(pairs)
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + u.EscapedPath() + "?" + strings.Join(pairs, "&")
}
