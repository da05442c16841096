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
	if !namesCuratorsWords(s) {
		return s
	}
	var kept []string
	for _, sentence := range strings.SplitAfter(s, ". ") {
		sentence = strings.TrimSpace(sentence)
		if !namesCuratorsWords(sentence) {
			kept = append(kept, sentence)
			continue
		}
		var clauses []string
		for _, c := range strings.Split(strings.TrimSuffix(sentence, "."), "; ") {
			if !namesCuratorsWords(c) {
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

// namesCuratorsWords reports whether s names a data field or file. Nearly
// no text does, and every page reads every rule text, so the texts without
// an underscore or ".json" skip the expression.
func namesCuratorsWords(s string) bool {
	if !strings.Contains(s, "_") && !strings.Contains(s, ".json") {
		return false
	}
	return curatorsWords.MatchString(s)
}
