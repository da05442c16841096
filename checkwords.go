package entrycheck

import (
	"encoding/json"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// RulesNotCited says which entry-rule fields of a destination no official
// source covers yet, as the line under the rules of a route page says it
// (NotCitedWords).
type RulesNotCited struct {
	// Label heads the sentence (LabelNotCited); empty when no rule is
	// cited at all and the sentence stands alone.
	Label string `json:"label,omitempty" jsonschema:"Heads the sentence (\"Not cited yet\"); absent when no rule is cited and the sentence stands alone."`
	Text  string `json:"text"`
}

// Words is the catalog of the answer's language (Language): English when
// it is empty or not a language the service speaks.
func (r CheckResult) Words() *locale.Catalog {
	if c, ok := locale.Embedded().Get(r.Language); ok {
		return c
	}
	return English()
}

// RulesNotCited says which of the answer's entry-rule fields no official
// source covers yet, in the answer's language; nil when every field is
// cited.
func (r CheckResult) RulesNotCited(lines []RuleLine) *RulesNotCited {
	c := r.Words()
	label, words := NotCitedWordsIn(c, c.Country(r.Destination.ISO2, r.Destination.Name), r.EntryRules.NotCitedNamesIn(c), len(lines) > 0)
	if words == "" {
		return nil
	}
	return &RulesNotCited{Label: label, Text: words}
}

// RuleLines are the lines of the answer's entry rules (EntryRules.Lines),
// in the answer's language: for a citizen entering their own country, only
// those its source gives for that passport, since what official pages say
// for other passports is no hint to a citizen going home.
func (r CheckResult) RuleLines() []RuleLine {
	lines := r.EntryRules.LinesIn(r.Words())
	if r.Passport.ISO3 == r.Destination.ISO3 {
		return LinesForThisPassport(lines)
	}
	return lines
}

// MarshalJSON writes the answer with its entry rules in words beside their
// values: entry_rule_lines, the lines a route page shows
// (EntryRules.Lines), and entry_rules_not_cited, the sentence under them
// (RulesNotCited). A client that shows the rules to people, the widget
// among them, renders these words as they are rather than wording the
// values its own way. They are derived from entry_rules when the answer is
// written, so they cannot disagree with it, and a check that is not
// written (a trip's legs, the benchmarks) does not compute them.
func (r CheckResult) MarshalJSON() ([]byte, error) {
	type answer CheckResult // the fields, without this method
	lines := r.RuleLines()
	if lines == nil {
		lines = []RuleLine{}
	}
	return json.Marshal(struct {
		answer
		CheckResultWords
	}{answer(r), CheckResultWords{lines, r.RulesNotCited(lines)}})
}

// CheckResultWords are the fields MarshalJSON writes beside an answer's own.
type CheckResultWords struct {
	RuleLines     []RuleLine     `json:"entry_rule_lines" jsonschema:"The entry rules in words, one line per value or list item in the order of entry_rules, exactly as the route page shows them: derived from entry_rules, for clients that show the rules to people (the widget renders them as they are). Empty when no rule is cited."`
	RulesNotCited *RulesNotCited `json:"entry_rules_not_cited" jsonschema:"Which entry-rule fields no official source covers yet, as the route page says it under the rules; null when every field is cited."`
}
