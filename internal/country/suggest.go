package country

import (
	"sort"
	"strings"
	"unicode"

	"github.com/entrycheck/entrycheck"
)

// MaxSuggestions bounds how many countries Suggest returns.
const MaxSuggestions = 5

// The lengths of a country as input may name it: an alpha-2 code is the
// shortest way, and no name or alias is longer than MaxInputLength.
const (
	MinInputLength = 2
	MaxInputLength = 100
)

// Suggest returns the countries a person probably meant by input, best first:
// the country of an alpha-2 code, of a common wrong code (GER, UK), of a name
// or alias, then names and codes within a small edit distance. It returns
// nil when nothing is close.
func (r *Registry) Suggest(input string) []entrycheck.Country {
	raw := strings.TrimSpace(input)
	if raw == "" || len(raw) > MaxInputLength {
		return nil
	}
	if c, ok := r.Resolve(raw); ok {
		return []entrycheck.Country{c}
	}
	key := normalize(raw)

	type scored struct {
		index, score int
	}
	best := map[int]int{}
	consider := func(i, score int) {
		if s, ok := best[i]; !ok || score < s {
			best[i] = score
		}
	}
	// Names and aliases that start with what was typed ("germ", "united").
	if len(key) >= 3 {
		for name, i := range r.byName {
			if strings.HasPrefix(name, key) {
				consider(i, 1)
			}
		}
	}
	// Typos in names ("germny") and in codes ("DUE").
	limit := len(key) / 4
	if limit < 1 {
		limit = 1
	}
	for name, i := range r.byName {
		if d := distance(key, name, limit); d <= limit {
			consider(i, d)
		}
	}
	if len(raw) == 3 {
		upper := strings.ToUpper(raw)
		for i, c := range r.entries {
			if d := distance(upper, c.ISO3, 1); d <= 1 {
				consider(i, d+1)
			}
		}
		for code, i := range r.codeAliases {
			if d := distance(upper, code, 1); d <= 1 {
				consider(i, d+1)
			}
		}
	}
	list := make([]scored, 0, len(best))
	for i, s := range best {
		list = append(list, scored{i, s})
	}
	sort.Slice(list, func(a, b int) bool {
		if list[a].score != list[b].score {
			return list[a].score < list[b].score
		}
		return r.entries[list[a].index].ISO3 < r.entries[list[b].index].ISO3
	})
	if len(list) > MaxSuggestions {
		list = list[:MaxSuggestions]
	}
	out := make([]entrycheck.Country, len(list))
	for k, s := range list {
		out[k] = r.entries[s.index]
	}
	return out
}

// Resolve returns the one country input names exactly: an alpha-3 or
// alpha-2 code in any case, a code people commonly use (GER, UK), or a name
// or alias ("Germany", "cote d'ivoire"). Anything less certain is left to
// Suggest.
func (r *Registry) Resolve(input string) (entrycheck.Country, bool) {
	raw, ok := bounded(input)
	if !ok {
		return entrycheck.Country{}, false
	}
	if c, ok := r.byCode(raw); ok {
		return c, true
	}
	if i, ok := r.codeAliases[strings.ToUpper(raw)]; ok {
		return r.entries[i], true
	}
	if i, ok := r.byName[normalize(raw)]; ok {
		return r.entries[i], true
	}
	return entrycheck.Country{}, false
}

// Lookup returns the country input names as a request may name it: an ISO
// 3166-1 alpha-3 or alpha-2 code in any case, or a name or alias of the
// country ("Germany", "cote d'ivoire", "Deutschland"). Codes of other
// systems (IOC's GER, CHI or BUR) are not taken: a three-letter code is
// read as ISO 3166-1, and taking GER would also take CHI for Chile, which
// a person writing it may mean as China. Those, and anything misspelt, are
// left to Suggest.
func (r *Registry) Lookup(input string) (entrycheck.Country, bool) {
	raw, ok := bounded(input)
	if !ok {
		return entrycheck.Country{}, false
	}
	if c, ok := r.byCode(raw); ok {
		return c, true
	}
	if len(raw) > 3 {
		if i, ok := r.byName[normalize(raw)]; ok {
			return r.entries[i], true
		}
	}
	return entrycheck.Country{}, false
}

// bounded returns input trimmed, and false when it is empty or longer than
// any way of naming a country.
func bounded(input string) (string, bool) {
	raw := strings.TrimSpace(input)
	return raw, raw != "" && len(raw) <= MaxInputLength
}

// byCode returns the country whose ISO 3166-1 alpha-3 or alpha-2 code raw
// is, in any case.
func (r *Registry) byCode(raw string) (entrycheck.Country, bool) {
	if c, ok := r.ByISO3(raw); ok {
		return c, true
	}
	return r.ByISO2(raw)
}

// normalize folds case, accents, punctuation and spacing so that
// "Côte d'Ivoire", "cote divoire" and "COTE D IVOIRE" compare equal.
func normalize(s string) string {
	var b strings.Builder
	space := false
	for _, c := range strings.ToLower(s) {
		if f, ok := accents[c]; ok {
			c = f
		}
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(c)
		case c == '\'' || c == '’' || c == '.':
			// "d'Ivoire" and "St." lose the mark without splitting the word.
		default:
			space = true
		}
	}
	return b.String()
}

var accents = map[rune]rune{
	'á': 'a', 'à': 'a', 'â': 'a', 'ä': 'a', 'ã': 'a', 'å': 'a',
	'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ì': 'i', 'î': 'i', 'ï': 'i',
	'ó': 'o', 'ò': 'o', 'ô': 'o', 'ö': 'o', 'õ': 'o', 'ø': 'o',
	'ú': 'u', 'ù': 'u', 'û': 'u', 'ü': 'u',
	'ç': 'c', 'ñ': 'n', 'ý': 'y', 'ÿ': 'y',
}

// distance is the Levenshtein distance of a and b, or limit+1 once it is
// certain to exceed limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
