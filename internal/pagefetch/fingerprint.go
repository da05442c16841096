package pagefetch

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Fingerprint returns "sha256:<hex>" of text with the churn that is not
// content neutralised, so that it changes when the page's rules do and not
// when only its stamps, counters or date widgets do. Line by line:
//
//   - case and white space are normalised, empty lines dropped;
//   - a stamp line is dropped: a line that is only a "Last updated ...",
//     "Page last reviewed: ... Next review due: ...", "Updated: ...",
//     "Published ...", "First published ...", "Last modified ...",
//     "Reviewed ...", "Date of publication ...", "Printed on ...",
//     "Generated ...", "Refreshed at ...", "Still current at: ...",
//     "Correct as at ...", "Today is ...", "Version of ...", "Stand: ..."
//     or "As of <date>" stamp, its words all stamp words, dates and times;
//   - a line that is only a date and/or a time (with weekday, time zone,
//     "at", separators such as "|" or "·") becomes one token, whatever the
//     date, time or format;
//   - in a longer line, a date or time right after a stamp word ("News —
//     updated 3 March 2026: ...", "Page generated 22 November 2026 14:05",
//     "checked 22/11/2026 by ...") becomes one token, together with the
//     dates and times chained to it ("updated 3 March 2026 at 14:05");
//   - view counters ("viewed 1,234 times", "1234 views", "Page views: 5",
//     "Visitors: 12" alone at the end of a line) and copyright years
//     ("© Crown copyright 2026", "Copyright © 2019–2026") become tokens.
//
// Every other date and time is kept as written (after case and white space
// normalisation): on these pages a date in a sentence is usually part of a
// rule ("Travellers must register from 9 November 2025", "valid until
// 31/12/2026", "the border post opens at 08:00"), and a rule that changes
// only by its date is a change to report. The dates recognised are the
// common forms (2026-11-22, 2026/11/22, 22/11/2026, 22/11/26, 22.11.2026,
// 22 November 2026, November 22, 2026, Nov 22 2026, November 2026, with or
// without weekday, "Monday 22 November"); the times are 14:05, 2:05 pm,
// with seconds and time zone.
//
// A table row is one line (see Extract), so a date in a table of rules
// ("Effective from | 1 April 2026") is part of its row and counts; only a
// line that is nothing but a date, such as a stamp under the title, is
// churn.
func Fingerprint(text string) string {
	h := sha256.New()
	for line := range strings.Lines(text) {
		if n := neutralize(line); n != "" {
			h.Write([]byte(n))
			h.Write([]byte{'\n'})
		}
	}
	return sha256Hex([sha256.Size]byte(h.Sum(nil)))
}

// Placeholders of neutralised churn; '@' keeps them apart from words.
const (
	dateToken  = "@date@"
	timeToken  = "@time@"
	viewsToken = "@views@"
	yearToken  = "@year@"
)

// Kinds of churn, as marked in a line while it is neutralised.
const (
	kindDate  = 'd'
	kindTime  = 't'
	kindViews = 'v'
	kindYear  = 'y'
)

// Pieces of the churn patterns, all matched on lower-cased text.
const (
	monthPat   = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`
	weekdayPat = `(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?,?`
	dayPat     = `\d{1,2}(?:st|nd|rd|th)?`
	numberPat  = `\d(?:[\d,.]*\d)?`
	zonePat    = `(?:(?:utc|gmt)(?:\s?[+-]\d{1,2}(?::?\d{2})?)?|z|cet|cest|eet|eest|wet|west|bst|ist|est|edt|cst|cdt|mst|mdt|pst|pdt|aest|aedt|acst|awst|nzst|nzdt|jst|kst|hkt|sgt|msk)\b`
	// markPat is a date or time marked in a line (see churned.mark).
	markPat = "\x00[dt]\\d+\x00"
)

// churnRules mark churn in a line, in order: counters before dates (so
// "1.234 views" is not read as a date), full dates before partial ones,
// dates before times (so the time inside an ISO timestamp goes with its
// date). A rule with a group marks the group only. A rule is only tried on
// a line holding one of its need characters: most lines hold none, and
// regular expressions are the slow part of fingerprinting.
//
// Marking a date or time does not neutralise it: neutralize decides that
// from where it stands.
var churnRules = []struct {
	need string
	re   *regexp.Regexp
	kind byte
}{
	// Counters. "Visits" and "visitors" are rule words too ("2 visits per
	// year", "visitors 18 and over"): only "Visitors: 12" ending a line.
	{"", regexp.MustCompile(`\b(?:viewed|read|visited)\s+` + numberPat + `\s+times\b`), kindViews},
	{"", regexp.MustCompile(`\b` + numberPat + `\s+(?:page\s*(?:views|visits)|views|hits|reads)\b`), kindViews},
	{"", regexp.MustCompile(`\b(?:page\s*views|views|hits|view\s+count|visitor\s+count|number\s+of\s+views)\s*:?\s*` + numberPat + `\b`), kindViews},
	{":", regexp.MustCompile(`\b(?:visitors|visits)\s*:\s*` + numberPat + `$`), kindViews},
	// © 2026, © Crown copyright 2026, Copyright © 2019–2026: the years.
	{"", regexp.MustCompile(`(?:©|\bcopyright\b)(?:\s*(?:©|\bcrown\b|\bcopyright\b))*\s*((?:19|20)\d\d(?:\s*[-–—]\s*(?:19|20)\d\d)?)\b`), kindYear},
	// 2026-11-22, 2026-11-22T14:05:00+01:00
	{"-", regexp.MustCompile(`\b\d{4}-\d{1,2}-\d{1,2}(?:t\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b`), kindDate},
	// 2026/11/22, 2026.11.22
	{"./", regexp.MustCompile(`\b\d{4}[./]\d{1,2}[./]\d{1,2}\b`), kindDate},
	// 22/11/2026, 22.11.2026, 22-11-2026, 22/11/26 (two-digit years with
	// slashes only: "1.10.12" is more often a version or a section).
	{"./-", regexp.MustCompile(`\b\d{1,2}[./-]\d{1,2}[./-]\d{4}\b|\b\d{1,2}/\d{1,2}/\d{2}\b`), kindDate},
	// (Monday) 22 November 2026, the 22nd of Nov. 2026
	{"", regexp.MustCompile(`\b(?:` + weekdayPat + `\s+)?(?:the\s+)?` + dayPat + `\s+(?:of\s+)?` + monthPat + `,?\s+\d{4}\b`), kindDate},
	// (Monday,) November 22, 2026, Nov 22 2026
	{"", regexp.MustCompile(`\b(?:` + weekdayPat + `\s+)?` + monthPat + `\s+` + dayPat + `,?\s+\d{4}\b`), kindDate},
	// November 2026
	{"", regexp.MustCompile(`\b` + monthPat + `,?\s+\d{4}\b`), kindDate},
	// Monday 22 November, Monday, November 22: without a year only after
	// a weekday, since "18 may apply" is not a date.
	{"", regexp.MustCompile(`\b` + weekdayPat + `\s+(?:the\s+)?` + dayPat + `\s+(?:of\s+)?` + monthPat + `\b`), kindDate},
	{"", regexp.MustCompile(`\b` + weekdayPat + `\s+` + monthPat + `\s+` + dayPat + `\b`), kindDate},
	// Monday, 22/11/2026
	{"\x00", regexp.MustCompile(`\b` + weekdayPat + `\s+\x00d\d+\x00`), kindDate},
	// 14:05, 14:05:59, 2:05 pm, 2:05 p.m. utc+1, 14:05 cet
	{":", regexp.MustCompile(`\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?(?:a\.m\.|p\.m\.|am\b|pm\b))?(?:\s?` + zonePat + `)?`), kindTime},
}

// stampPhraseRE finds, in a marked line, a stamp word followed by a date
// or time (and the dates and times chained to it): "updated 3 march 2026",
// "page generated 22 november 2026 14:05", "date of publication:
// 2026-11-22", "correct as at 1 may 2026 at 09:00". The words are those
// that stamp a page, not a rule: "amended", "changed" or "effective" before
// a date say when a rule changed or applies, and stay content.
var stampPhraseRE = regexp.MustCompile(
	`\b(?:updated?|modified|reviewed|published|publication|revised|generated|printed|refreshed|retrieved|accessed|checked|posted|edited|created|current|correct|accurate|stand)\b` +
		`(?:\s*[:,–—-]\s*|\s+(?:on|at|as\s+(?:of|at)|of)\b|\s+)*` +
		markPat + `(?:[\s,;|·/–—-]*(?:(?:at|on)\s+)?` + markPat + `)*`)

// markRE finds any mark in a marked line.
var markRE = regexp.MustCompile("\x00([dtvy])(\\d+)\x00")

// churned holds what was marked in one line: the text behind mark i is
// text[i] (which may hold earlier marks), its kind kind[i].
type churned struct {
	text []string
	kind []byte
}

// mark replaces the churn in the lower-cased line l by marks
// "\x00<kind><i>\x00" (cleanLine leaves no NUL in a line) and returns it.
func (c *churned) mark(l string) string {
	for _, rule := range churnRules {
		if rule.need != "" && !strings.ContainsAny(l, rule.need) {
			continue
		}
		ms := rule.re.FindAllStringSubmatchIndex(l, -1)
		if ms == nil {
			continue
		}
		var b strings.Builder
		last := 0
		for _, m := range ms {
			start, end := m[0], m[1]
			if len(m) > 2 && m[2] >= 0 {
				start, end = m[2], m[3]
			}
			b.WriteString(l[last:start])
			fmt.Fprintf(&b, "\x00%c%d\x00", rule.kind, len(c.text))
			c.text = append(c.text, l[start:end])
			c.kind = append(c.kind, rule.kind)
			last = end
		}
		b.WriteString(l[last:])
		l = b.String()
	}
	return l
}

// render replaces the marks of l: a counter or copyright year by its
// token, a date or time by its token when neutral says so, else by the
// text it stands for.
func (c *churned) render(l string, neutral func(i int) bool) string {
	if len(c.text) == 0 {
		return l
	}
	return markRE.ReplaceAllStringFunc(l, func(m string) string {
		i, _ := strconv.Atoi(m[2 : len(m)-1])
		switch c.kind[i] {
		case kindViews:
			return viewsToken
		case kindYear:
			return yearToken
		}
		if !neutral(i) {
			return c.render(c.text[i], func(int) bool { return false })
		}
		if c.kind[i] == kindTime {
			return timeToken
		}
		return dateToken
	})
}

// neutralize is the form of a line that Fingerprint hashes and Summarize
// compares: cleaned, lower-cased, churn replaced (see Fingerprint); "" for
// a line with no content.
func neutralize(line string) string {
	l := strings.ToLower(cleanLine(line))
	var c churned
	// Every kind of churn has a number in it.
	if strings.ContainsAny(l, "0123456789") {
		l = c.mark(l)
	}
	all := strings.TrimSpace(c.render(l, func(int) bool { return true }))
	switch {
	case isStamp(all):
		return ""
	case isDateOnly(all):
		return dateToken
	}
	// Dates and times stay, but for the run of them after a stamp word,
	// which becomes one token.
	keep := func(int) bool { return false }
	var b strings.Builder
	last := 0
	for _, span := range stampPhraseRE.FindAllStringIndex(l, -1) {
		run := span[0] + markRE.FindStringIndex(l[span[0]:span[1]])[0]
		b.WriteString(c.render(l[last:run], keep))
		b.WriteString(dateToken)
		last = span[1]
	}
	b.WriteString(c.render(l[last:], keep))
	return strings.TrimSpace(b.String())
}

// stampVerbs say a line is a stamp of the page's history ...
var stampVerbs = map[string]bool{
	"updated": true, "update": true, "modified": true, "reviewed": true, "review": true,
	"published": true, "revised": true, "amended": true, "changed": true,
	"edited": true, "posted": true, "created": true, "current": true, "generated": true,
	"printed": true, "checked": true, "refreshed": true,
}

// ... and so do these, with a date or time beside them ("Today is Monday
// 22 November", "Version of 2026/11/22", "Stand: 22.11.2026", "Correct as
// at 1 May 2026", "Date of publication: 3 March 2026"), but not alone
// ("Version", "Correct") ...
var stampVerbsWithDate = map[string]bool{
	"today": true, "version": true, "stand": true, "correct": true, "accurate": true,
	"publication": true,
}

// ... when every other word is one of these, a month, a weekday, a year or
// a neutralised date or time. "As of" and "as at" are stamp words too.
var stampFiller = map[string]bool{
	"last": true, "latest": true, "first": true, "next": true, "due": true, "still": true,
	"this": true, "the": true, "page": true, "site": true, "website": true, "content": true,
	"document": true, "information": true, "was": true, "is": true, "on": true, "at": true,
	"by": true, "as": true, "of": true, "in": true, "date": true, "time": true, "see": true,
	"all": true, "and": true, "updates": true, "accessed": true, "retrieved": true,
	dateToken: true, timeToken: true,
}

var (
	stampMonthRE = regexp.MustCompile(`^` + monthPat + `$`)
	stampDayRE   = regexp.MustCompile(`^` + weekdayPat + `$`)
	stampYearRE  = regexp.MustCompile(`^(?:19|20)\d\d$`)
	stampZoneRE  = regexp.MustCompile(`^` + zonePat + `$`)
)

// lineWords are the words of a neutralised line; tokens are words.
func lineWords(l string) []string {
	return strings.FieldsFunc(l, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '@'
	})
}

// isStamp says whether a neutralised line is only a "Last updated ..."
// kind of stamp.
func isStamp(l string) bool {
	words := lineWords(l)
	if len(words) == 0 || len(words) > 24 {
		return false
	}
	verb, weakVerb, date := false, false, false
	for i, w := range words {
		switch {
		case stampVerbs[w]:
			verb = true
		case stampVerbsWithDate[w]:
			weakVerb = true
		case w == "as" && i+1 < len(words) && (words[i+1] == "of" || words[i+1] == "at"):
			weakVerb = true
		case w == dateToken || w == timeToken:
			date = true
		case stampFiller[w], stampMonthRE.MatchString(w), stampDayRE.MatchString(w), stampYearRE.MatchString(w):
		default:
			return false
		}
	}
	return verb || weakVerb && date
}

// isDateOnly says whether a neutralised line is only a date and/or a time:
// "monday, @date@ | @time@", "@date@ at @time@ cet".
func isDateOnly(l string) bool {
	date := false
	for _, w := range lineWords(l) {
		switch {
		case w == dateToken || w == timeToken:
			date = true
		case w == "at" || w == "on" || w == "the",
			stampMonthRE.MatchString(w), stampDayRE.MatchString(w), stampYearRE.MatchString(w), stampZoneRE.MatchString(w):
		default:
			return false
		}
	}
	return date
}

// sha256Hex is the "sha256:<hex>" form of a digest.
func sha256Hex(sum [sha256.Size]byte) string {
	return fmt.Sprintf("sha256:%x", sum[:])
}
