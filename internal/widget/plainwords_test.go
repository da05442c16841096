package widget_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

var (
	// literal is a string literal of the minified bundle: quoted or a
	// template, whose ${...} parts are code.
	literal     = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`(?:[^`\\\\]|\\\\.)*`")
	placeholder = regexp.MustCompile(`\$\{[^}]*\}`)
	// phrase is a literal a traveller reads: two words or more. A single
	// token ("visa_free", "aria-busy", "/free/check?passport=") is a code
	// value, an attribute or an address the script compares or sends.
	phrase = regexp.MustCompile(`[A-Za-z]{2,}[,.:;!?]? +[A-Za-z]{2,}`)
)

// TestWidgetStringsUseNoDeniedWord reads the phrases of the English
// checker, all given it by the build from the catalog, for the words of the
// (English) deny list (datatest.DeniedWords). The stylesheet, which the
// bundle holds as one string, is no traveller's reading.
func TestWidgetStringsUseNoDeniedWord(t *testing.T) {
	files, _ := bundle(t)
	body := string(checkers(t, files)[locale.English].Body)
	phrases := 0
	for _, lit := range literal.FindAllString(body, -1) {
		text := placeholder.ReplaceAllString(lit[1:len(lit)-1], " ")
		if !phrase.MatchString(text) || strings.Contains(text, "{") && strings.Contains(text, "}") && strings.Contains(text, ":host") {
			continue
		}
		phrases++
		for _, w := range datatest.DeniedWordsIn(text) {
			t.Errorf("the widget says %s", w)
		}
	}
	if phrases < 20 {
		t.Errorf("only %d phrases found in the bundle", phrases)
	}
}
