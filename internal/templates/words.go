package templates

import "strings"

// sentence starts a phrase with a capital letter, for status words that
// open a sentence ("not verified on the live official pages").
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
