package answertext

import (
	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// citeIn is a citation on a line of its own, in the language of cat:
// "Source: UK FCDO: Thailand entry requirements <https://...>, read
// 2026-11-22; read from a stored copy of unknown date". The page's name is
// the source's.
func citeIn(cat *locale.Catalog, c entrycheck.Citation) string {
	return entrycheck.LabelSource.In(cat) + ": " + c.Name + " <" + c.URL + ">, " + c.ReadTextIn(cat)
}

// CiteInline is a citation closing a line: "[Source: UK FCDO: Thailand entry requirements, https://..., read
// 2026-11-22; read from a stored copy of unknown date]".
func CiteInline(c entrycheck.Citation) string { return citeInlineIn(entrycheck.English(), c) }

// citeInlineIn is CiteInline in the language of cat.
func citeInlineIn(cat *locale.Catalog, c entrycheck.Citation) string {
	return "[" + entrycheck.LabelSource.In(cat) + ": " + c.Name + ", " + c.URL + ", " + c.ReadTextIn(cat) + "]"
}
