package pagefetch

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck"
)

// Summary limits, in characters.
const (
	maxSummary = 300
	maxQuote   = 100
)

// Summarize says in one line of at most 300 characters what changed between
// two extracted texts, by lines: how many were added and removed, quoting
// the first of each, e.g.
//
//	2 lines added, 1 removed; added: "Passports must be valid for 3 months…"; removed: "Passports must be valid for 6 months…"
//
// Lines are compared in their neutralised form (see Fingerprint): a stamp
// line ("Last updated 3 March 2026"), a line that is only a date or time, a
// line whose only change is the date after a stamp word ("News — updated 3
// March 2026: ..."), a counter or a copyright year count as unchanged; a
// line whose only change is a date or time in its text ("Travellers must
// register from 9 November 2025" to "... from 10 April 2026") is a change,
// quoted like any other. The comparison is of multisets: a line moved
// elsewhere is not a change, and the counts need not be those of a minimal
// diff. Two texts without a content change give "no content change".
func Summarize(old, new string) string {
	oldLines, newLines := contentLines(old), contentLines(new)
	unmatched := make(map[string]int, len(oldLines))
	for _, l := range oldLines {
		unmatched[l.key]++
	}
	var added []string
	for _, l := range newLines {
		if unmatched[l.key] > 0 {
			unmatched[l.key]--
			continue
		}
		added = append(added, l.text)
	}
	var removed []string
	for _, l := range oldLines {
		if unmatched[l.key] > 0 {
			unmatched[l.key]--
			removed = append(removed, l.text)
		}
	}

	var b strings.Builder
	switch {
	case len(added) > 0 && len(removed) > 0:
		fmt.Fprintf(&b, "%s added, %d removed", entrycheck.Plural(len(added), "line"), len(removed))
	case len(added) > 0:
		fmt.Fprintf(&b, "%s added", entrycheck.Plural(len(added), "line"))
	case len(removed) > 0:
		fmt.Fprintf(&b, "%s removed", entrycheck.Plural(len(removed), "line"))
	default:
		return "no content change"
	}
	if len(added) > 0 {
		fmt.Fprintf(&b, `; added: "%s"`, truncate(added[0], maxQuote))
	}
	if len(removed) > 0 {
		fmt.Fprintf(&b, `; removed: "%s"`, truncate(removed[0], maxQuote))
	}
	return truncate(b.String(), maxSummary)
}

// diffLine is a content line as shown (text) and as compared (key).
type diffLine struct {
	text, key string
}

// contentLines returns the lines of s that have content once churn is
// neutralised.
func contentLines(s string) []diffLine {
	var lines []diffLine
	for l := range strings.Lines(s) {
		if key := neutralize(l); key != "" {
			lines = append(lines, diffLine{text: cleanLine(l), key: key})
		}
	}
	return lines
}

// truncate cuts s to at most n characters, the last being "…" when cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return s[:i] + "…"
}
