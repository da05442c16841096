package entrycheck

import "encoding/json"

// RulesNotCited says which entry-rule fields of a destination no official
// source covers yet, as the line under the rules of a route page says it
// (NotCitedWords).
type RulesNotCited struct {
	// Label heads the sentence (LabelNotCited); empty when no rule is
	// cited at all and the sentence stands alone.
	Label string `json:"label,omitempty"`
	Text  string `json:"text"`
}

// RulesNotCited says which of the answer's entry-rule fields no official
// source covers yet; nil when every field is cited.
func (r CheckResult) RulesNotCited(lines []RuleLine) *RulesNotCited {
	label, words := NotCitedWords(r.Destination.Name, r.EntryRules.NotCitedNames(), len(lines) > 0)
	if words == "" {
		return nil
	}
	return &RulesNotCited{Label: label, Text: words}
}

// RuleLines are the lines of the answer's entry rules (EntryRules.Lines):
// for a citizen entering their own country, only those its source gives
// for that passport, since what official pages say for other passports
// is no hint to a citizen going home.
func (r CheckResult) RuleLines() []RuleLine {
	lines := r.EntryRules.Lines()
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
		RuleLines     []RuleLine     `json:"entry_rule_lines"`
		RulesNotCited *RulesNotCited `json:"entry_rules_not_cited"`
	}{answer(r), lines, r.RulesNotCited(lines)})
}
