// Package answertext holds the text of answers: a check or a trip as
// labelled lines in the order people read them (Check, Trip), and the two
// frames that print them: Text for people at a terminal (the CLI) and
// Compact for agents (the text content of the MCP tools). The generator
// takes the same lines for the facts a route page shows (Rules, Apply,
// Statement) and the same lines and citations for llms-full.txt.
//
// Every label and word comes from the domain package (RuleFields, the
// Label constants and the words of each value), whose reference is the
// route pages: nothing here names a fact its own way. It depends on
// nothing of this module but the domain package.
package answertext

import (
	"unicode"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Answer is an answer in words.
type Answer struct {
	// Title says what was asked ("Germany (DEU) passport to Thailand
	// (THA)"), Verdict answers it in a few words ("Visa-free, up to 60
	// days") and Age says what date the verdict is as of and how old that
	// is (checks only).
	Title, Verdict, Age string
	// Summary are sentences under the verdict (a trip's summary).
	Summary []string
	// Lines are the verdict's own facts: the action, an exemption applied,
	// where to apply, the official statements.
	Lines    []Line
	Sections []Section
	// Footer identifies the answer: dataset, request and evaluation time.
	Footer     string
	Disclaimer string
	// Language is the catalog the answer is worded in, which words what
	// the frames add (citations); nil for English.
	Language *locale.Catalog
}

// words is the catalog of the answer's words.
func (a Answer) words() *locale.Catalog {
	if a.Language == nil {
		return entrycheck.English()
	}
	return a.Language
}

// Section is a part of an answer under its heading.
type Section struct {
	// Heading names the part ("Entry rules of Thailand", "Leg 1"); Subject
	// says what it is about where the heading does not ("Kenya (KEN),
	// 2027-02-01 to 2027-02-10, tourism"); Status is its verdict.
	Heading, Subject, Status string
	// Lead are sentences about the whole part, Source where they come from.
	Lead   []string
	Source *entrycheck.Citation
	Lines  []Line
	// Secondary parts are background a summary leaves out (assumptions).
	Secondary bool
}

// Line is one fact of an answer as people read it.
type Line struct {
	// Label names the fact ("Passport validity", "Action"); empty for a
	// sentence that stands alone.
	Label string
	// Status is the state of the fact, read beside its label ("advisory,
	// action needed", "this passport is eligible").
	Status string
	// Text is what holds; Detail what the answer computes from it.
	Text, Detail string
	// URL is an official link of the item itself, Source the page the
	// fact was read from.
	URL    string
	Source *entrycheck.Citation
	// Items are the lines under this one: a leg's reasons and conditions.
	Items []Line
	// Secondary lines are background a summary leaves out: the reasons
	// behind a leg, the conditions it meets, the rule texts.
	Secondary bool
}

// words joins the text and the detail of a line.
func (l Line) words() string {
	switch {
	case l.Text == "":
		return l.Detail
	case l.Detail == "":
		return l.Text
	}
	return l.Text + " " + l.Detail
}

// capital starts a phrase that opens a sentence with a capital letter.
func capital(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
