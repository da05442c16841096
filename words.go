package entrycheck

import (
	"strconv"

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
func JoinWords(items []string) string { return JoinWordsIn(English(), items) }

// JoinWordsIn is JoinWords in the language of c.
func JoinWordsIn(c *locale.Catalog, items []string) string { return listIn(c, "list.and", items) }

// OrWordsIn lists alternatives as a sentence does in the language of c:
// "a", "a or b", "a, b or c".
func OrWordsIn(c *locale.Catalog, items []string) string { return listIn(c, "list.or", items) }

// listIn lists items in the language of c: every pair but the last joined
// by message list.comma ("{a}, {b}"), the last by message last ("{a} and
// {b}", "{a} or {b}"). A list is built from its end, so each pattern joins
// an item to the rest of the list.
func listIn(c *locale.Catalog, last string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := c.Text(last, "a", items[len(items)-2], "b", items[len(items)-1])
	for i := len(items) - 3; i >= 0; i-- {
		s = c.Text("list.comma", "a", items[i], "b", s)
	}
	return s
}
