package datatest

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// deniedWords are what a traveller never reads: the words of the data's
// making and the marks of code. Every test of a traveller-facing text (the
// route and passport pages and their markdown, the CLI, the MCP text, the
// widget's strings) reads this one list, through DeniedWordsIn.
var deniedWords = []string{"matrix", "snapshot", "curator", "_", "`"}

// DeniedWords returns the deny list of traveller-facing text.
func DeniedWords() []string { return append([]string(nil), deniedWords...) }

// addresses are where a denied word may stand legitimately: a URL, and the
// target of a markdown link.
var addresses = regexp.MustCompile(`https?://[^\s<>"')\]]+|\]\([^)\s]*\)`)

// DeniedWordsIn returns the denied words text holds, case-insensitively,
// with the surrounding words of the first occurrence of each: "matrix in
// "…agrees with the matrix…"". URLs and markdown link targets are left out
// first, since an address may hold "_" or "matrix", and so are the quoted
// strings: the names of cited pages as their publishers title them
// (CitedNames) and identifiers such as a request id.
func DeniedWordsIn(text string, quoted ...string) []string {
	quoted = slices.Clone(quoted)
	slices.SortFunc(quoted, func(a, b string) int { return len(b) - len(a) })
	for _, q := range quoted {
		if q != "" {
			text = strings.ReplaceAll(text, q, " ")
		}
	}
	text = addresses.ReplaceAllString(text, " ")
	lower := strings.ToLower(text)
	var out []string
	for _, w := range deniedWords {
		if i := strings.Index(lower, w); i >= 0 {
			from, to := max(0, i-50), min(len(text), i+len(w)+50)
			out = append(out, w+` in "…`+strings.ToValidUTF8(text[from:to], "")+`…"`)
		}
	}
	return out
}

// CitedNames returns the names of the pages an answer cites (every object
// of its JSON with a name, a url and a retrieved_at): titles the
// publishers gave their pages, which a text quotes as they are.
func CitedNames(answer any) []string {
	b, err := json.Marshal(answer)
	if err != nil {
		panic(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	var names []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if name, ok := x["name"].(string); ok && x["url"] != nil && x["retrieved_at"] != nil {
				names = append(names, name)
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return names
}
