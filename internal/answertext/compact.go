package answertext

import (
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Compact frames an answer for agents: the verdict and its date first,
// each part as a paragraph opened by its heading, one fact a line with its
// source in brackets at its end, and no background (Secondary parts and
// lines): the structured content beside the text has the whole answer.
func Compact(a Answer) string {
	var b strings.Builder
	c := a.words()
	b.WriteString(a.Title + ": " + a.Verdict + ".")
	if a.Age != "" {
		b.WriteString("\n" + c.Text("words.verdict_age", "age", a.Age))
	}
	if len(a.Summary) > 0 {
		b.WriteString("\n" + strings.Join(a.Summary, " "))
	}
	compactLines(&b, c, a.Lines, 0)
	for _, s := range a.Sections {
		if s.Secondary || len(s.Lines) == 0 && len(s.Lead) == 0 {
			continue
		}
		h := s.Heading
		if s.Subject != "" {
			h += ", " + s.Subject
		}
		var parts []string
		if s.Status != "" {
			parts = append(parts, s.Status+".")
		}
		parts = append(parts, s.Lead...)
		if s.Source != nil {
			parts = append(parts, citeInlineIn(c, *s.Source))
		}
		b.WriteString("\n\n" + h + ":")
		if len(parts) > 0 {
			b.WriteString(" " + strings.Join(parts, " "))
		}
		compactLines(&b, c, s.Lines, 0)
	}
	b.WriteString("\n\n" + a.Footer + "\n\n" + a.Disclaimer)
	return b.String()
}

// compactLines writes the lines that are not background, each on its own
// line under a dash, indented by depth; a line that only heads background
// is left out with it.
func compactLines(b *strings.Builder, c *locale.Catalog, lines []Line, depth int) {
	for _, l := range lines {
		if l.Secondary || l.words() == "" && !foreground(l.Items) {
			continue
		}
		b.WriteString("\n" + strings.Repeat("  ", depth) + "- " + l.inline(c))
		compactLines(b, c, l.Items, depth+1)
	}
}

func foreground(lines []Line) bool {
	for _, l := range lines {
		if !l.Secondary {
			return true
		}
	}
	return false
}

// Inline is a line as one line of text: "Label (status): text detail
// <url> [source: ...]".
func (l Line) Inline() string { return l.inline(entrycheck.English()) }

// inline is Inline with the source cited in the language of c.
func (l Line) inline(c *locale.Catalog) string {
	s := l.Label
	if l.Status != "" {
		s += " (" + l.Status + ")"
	}
	switch w := l.words(); {
	case s == "":
		s = w
	case w != "":
		s += ": " + w
	default:
		s += ":"
	}
	if l.URL != "" {
		s += " <" + l.URL + ">"
	}
	if l.Source != nil {
		s += " " + citeInlineIn(c, *l.Source)
	}
	return s
}
