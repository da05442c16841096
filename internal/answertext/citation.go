package answertext

import "github.com/entrycheck/entrycheck"

// Cite is a citation on a line of its own: "Source: UK FCDO: Thailand
// entry requirements <https://...>, read 2026-11-22; read from a stored
// copy of unknown date".
func Cite(c entrycheck.Citation) string {
	return entrycheck.LabelSource + ": " + c.Name + " <" + c.URL + ">, " + c.ReadText("read")
}

// CiteInline is a citation closing a line: "[Source: UK FCDO: Thailand entry requirements, https://..., read
// 2026-11-22; read from a stored copy of unknown date]".
func CiteInline(c entrycheck.Citation) string {
	return "[" + entrycheck.LabelSource + ": " + c.Name + ", " + c.URL + ", " + c.ReadText("read") + "]"
}
