package entrycheck

import (
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// English is the reference catalog of wording (internal/locale): the words
// of every surface that does not take a language yet, and of the
// functions below without an In.
func English() *locale.Catalog { return locale.Embedded().English() }

// Thousands writes a count with comma separators, as people read it: 39,402.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural counts a noun in words: "1 blank page", "2 blank pages".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// JoinWords lists items as a sentence does: "a", "a and b", "a, b and c".
func JoinWords(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
