package entrycheck

import "github.com/entrycheck/entrycheck/internal/locale"

// What people read for the statuses of an answer; JSON keeps the codes.
// Each status is message status.<kind>.<code>; a code no catalog names
// reads as it is.

// VerdictStatusWordsIn is a verdict_verification status in words. It is in
// the language of c.
func VerdictStatusWordsIn(c *locale.Catalog, status string) string {
	return wordsOr(c, "status.verdict."+status, status)
}

// RulesStatusWords is an entry_rules_verification status in words.
func RulesStatusWords(status string) string { return RulesStatusWordsIn(English(), status) }

// RulesStatusWordsIn is RulesStatusWords in the language of c.
func RulesStatusWordsIn(c *locale.Catalog, status string) string {
	return wordsOr(c, "status.rules."+status, status)
}

// Words is the coverage in words.
func (cv Coverage) Words() string { return cv.WordsIn(English()) }

// WordsIn is Words in the language of c.
func (cv Coverage) WordsIn(c *locale.Catalog) string {
	return wordsOr(c, "status.coverage."+string(cv), string(cv))
}

// wordsOr is message id of c, or code when c has no such message.
func wordsOr(c *locale.Catalog, id, code string) string {
	if !c.Has(id) {
		return code
	}
	return c.Text(id)
}
