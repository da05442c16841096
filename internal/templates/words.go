package templates

import (
	"context"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

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
// markdown open, in the page's language.
func homeIntro(v HomeView) string {
	c := v.Page.words()
	return c.Text("page.home.intro") + " " + c.Text("page.home.facts",
		"routes", c.Count("page.home.routes", v.Routes),
		"curated", c.Count("page.home.curated", v.Curated),
		"edition", entrycheck.EditionWordsIn(c, v.DatasetVersion))
}

// comma separates the items of a list in the page's language (", ",
// Arabic's "، ", Chinese's "、").
func comma(p Page) string { return p.T("list.comma", "a", "", "b", "") }

// Part is the markup a placeholder of a message stands for: a link, or a
// code element when it has no URL and Code is set.
type Part struct {
	Text string
	URL  string
	Code bool
}

// code is a code element holding text.
func code(text string) Part { return Part{Text: text, Code: true} }

// message renders text, a message of the catalog, as HTML: its words
// escaped, and each {placeholder} it names in parts as that link or code
// element. A translation moves a link within its sentence, so the
// sentence is one message rather than pieces around the link.
func message(text string, parts map[string]Part) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var b strings.Builder
		for {
			i := strings.IndexByte(text, '{')
			j := strings.IndexByte(text[max(i, 0):], '}')
			if i < 0 || j < 0 {
				break
			}
			name := text[i+1 : i+j]
			p, ok := parts[name]
			if !ok {
				b.WriteString(templ.EscapeString(text[:i+j+1]))
				text = text[i+j+1:]
				continue
			}
			b.WriteString(templ.EscapeString(text[:i]))
			switch {
			case p.URL != "":
				b.WriteString(`<a href="` + templ.EscapeString(p.URL) + `">` + templ.EscapeString(p.Text) + `</a>`)
			case p.Code:
				b.WriteString(`<code>` + templ.EscapeString(p.Text) + `</code>`)
			default:
				b.WriteString(templ.EscapeString(p.Text))
			}
			text = text[i+j+1:]
		}
		b.WriteString(templ.EscapeString(text))
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// markedEnglish renders text with its first part, a source's own English
// words inside the page's (a programme's name, the secondary visa table's
// value), marked as English; with part "" (on an English page) text is as
// it is.
func markedEnglish(text, part string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		before, after, found := strings.Cut(text, part)
		if part == "" || !found {
			_, err := io.WriteString(w, templ.EscapeString(text))
			return err
		}
		_, err := io.WriteString(w, templ.EscapeString(before)+`<span lang="en" dir="ltr">`+templ.EscapeString(part)+`</span>`+templ.EscapeString(after))
		return err
	})
}
