package answertext

import (
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// Text frames an answer for people at a terminal: the verdict first, each
// part under its heading, one fact a line with its source on the line
// below, and every line, background included.
func Text(a Answer) string {
	var b strings.Builder
	c := a.words()
	if a.Age != "" {
		b.WriteString(a.Title + "\n\n  " + a.Verdict + ", " + a.Age + "\n")
	} else {
		b.WriteString(a.Title + ": " + a.Verdict + "\n")
	}
	for _, s := range a.Summary {
		b.WriteString("  " + s + "\n")
	}
	textLines(&b, c, a.Lines, 1)
	for _, s := range a.Sections {
		if len(s.Lines) == 0 && len(s.Lead) == 0 {
			continue
		}
		h := s.Heading
		for _, part := range []string{s.Subject, s.Status} {
			if part != "" {
				h += ": " + part
			}
		}
		if h == s.Heading {
			h += ":"
		}
		b.WriteString("\n" + h + "\n")
		for _, l := range s.Lead {
			b.WriteString("  " + l + "\n")
		}
		if s.Source != nil {
			b.WriteString("  " + citeIn(c, *s.Source) + "\n")
		}
		textLines(&b, c, s.Lines, 1)
	}
	b.WriteString("\n" + a.Footer + "\n\n" + a.Disclaimer + "\n")
	return b.String()
}

// textLines writes lines at a depth of indentation: "[status] Label:
// text detail <url>", the lines under it, then its source.
func textLines(b *strings.Builder, c *locale.Catalog, lines []Line, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, l := range lines {
		b.WriteString(indent)
		if l.Status != "" {
			b.WriteString("[" + l.Status + "] ")
		}
		switch w := l.words(); {
		case l.Label == "":
			b.WriteString("- " + w)
		case w == "":
			b.WriteString(l.Label + ":")
		default:
			b.WriteString(l.Label + ": " + w)
		}
		if l.URL != "" {
			b.WriteString(" <" + l.URL + ">")
		}
		b.WriteByte('\n')
		textLines(b, c, l.Items, depth+1)
		if l.Source != nil {
			b.WriteString(indent + "  " + citeIn(c, *l.Source) + "\n")
		}
	}
}
