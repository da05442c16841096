package entrycheck

import (
	"regexp"
	"strings"
)

// curatorsWords finds what a curated text says to the curators rather than
// to the traveller: the name of a data field ("extra_risk_countries") or of
// a data file ("yellow-fever.json").
var curatorsWords = regexp.MustCompile(`\b[a-z0-9]+(_[a-z0-9]+)+\b|\b[\w-]+\.json\b`)

// TravellerText is a curated text as a traveller reads it: without the
// clauses (between semicolons) and sentences that name a data field or
// file, which are the curators' working notes. The answers' entry_rules
// keep the whole text; the lines every surface shows (EntryRules.Lines)
// read this one.
func TravellerText(s string) string {
	if !curatorsWords.MatchString(s) {
		return s
	}
	var kept []string
	for _, sentence := range strings.SplitAfter(s, ". ") {
		sentence = strings.TrimSpace(sentence)
		if !curatorsWords.MatchString(sentence) {
			kept = append(kept, sentence)
			continue
		}
		var clauses []string
		for _, c := range strings.Split(strings.TrimSuffix(sentence, "."), "; ") {
			if !curatorsWords.MatchString(c) {
				clauses = append(clauses, c)
			}
		}
		if len(clauses) > 0 {
			c := strings.Join(clauses, "; ")
			kept = append(kept, strings.ToUpper(c[:1])+c[1:]+".")
		}
	}
	return strings.Join(kept, " ")
}
