package templates

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck"
)

// sentence starts a phrase with a capital letter, for status words that
// open a sentence ("not verified on the live official pages").
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// CorroborationSummary says in a sentence what the official statements say
// of the matrix on the report's day; the page, its markdown and llms.txt
// give it alike.
func CorroborationSummary(c Corroboration) string {
	return "On " + c.Day + ", official statements in force agree with the verdict of " + entrycheck.Thousands(c.Corroborated) +
		" routes and contradict it on " + entrycheck.Thousands(c.Conflicting) + " routes, which are shown as needing review until a curator settles them. " +
		"A statement that agrees confirms the requirement for the passports it names; it does not make the rest of an answer official."
}

// homeIntro says what the service answers, as the home page and its
// markdown open.
func homeIntro(v HomeView) string {
	return "entrycheck answers whether a holder of a passport may enter a country, under which requirement, with the destination's entry rules: " +
		"each rule with the official source it was read from, and the rules no official source covers yet named as such. " +
		entrycheck.Thousands(v.Routes) + " passport-to-destination routes; " + strconv.Itoa(v.Curated) + " destinations with cited entry rules; " +
		"verdicts from a secondary visa table as of " + entrycheck.EditionWords(v.DatasetVersion) + "."
}
