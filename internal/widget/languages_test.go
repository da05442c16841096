package widget_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// inBundle reports whether a bundle holds text as a string, as it is or
// escaped in a literal (a text with both kinds of quotes).
func inBundle(body, text string) bool {
	q, _ := json.Marshal(text)
	return strings.Contains(body, text) || strings.Contains(body, string(q[1:len(q)-1]))
}

// TestCheckersSpeakTheirLanguage: each language's checker holds its
// catalog's widget messages, its language and direction (right to left
// for Arabic), and every country named in the language (CLDR's names, as
// the catalog gives them) in the order the language sorts them.
func TestCheckersSpeakTheirLanguage(t *testing.T) {
	files, countries := bundle(t)
	byCode := checkers(t, files)
	list := regexp.MustCompile(`"([A-Z]{3}[^"|]+(?:\|[A-Z]{3}[^"|]+)+)"`)
	for _, c := range locale.Embedded().List() {
		body := string(byCode[c.Code].Body)
		ids := 0
		for _, id := range c.IDs() {
			if strings.HasPrefix(id, "widget.") {
				ids++
				if !inBundle(body, c.Text(id)) {
					t.Errorf("the checker in %s lacks %s: %q", c.Code, id, c.Text(id))
				}
			}
		}
		if ids < 15 {
			t.Errorf("%s has only %d widget messages", c.Code, ids)
		}
		if !strings.Contains(body, `lang:"`+c.Code+`"`) || !strings.Contains(body, `dir:"`+c.Dir()+`"`) {
			t.Errorf("the checker in %s does not say its language and direction (%s)", c.Code, c.Dir())
		}
		m := list.FindStringSubmatch(body)
		if m == nil {
			t.Errorf("the checker in %s has no list of countries", c.Code)
			continue
		}
		entries := strings.Split(m[1], "|")
		if len(entries) != len(countries) {
			t.Errorf("the checker in %s lists %d countries, want %d", c.Code, len(entries), len(countries))
		}
		named := map[string]string{}
		for _, e := range entries {
			named[e[:3]] = e[3:]
		}
		for _, k := range countries {
			if want := c.Country(k.ISO2, k.Name); named[k.ISO3] != want {
				t.Errorf("the checker in %s names %s %q, want %q", c.Code, k.ISO3, named[k.ISO3], want)
			}
		}
		order := collate.New(c.Tag)
		for i := 1; i < len(entries); i++ {
			if order.CompareString(entries[i-1][3:], entries[i][3:]) > 0 {
				t.Errorf("the checker in %s lists %q before %q", c.Code, entries[i-1][3:], entries[i][3:])
			}
		}
	}
}

// messagePlaceholder is a {name} of a catalog message.
var messagePlaceholder = regexp.MustCompile(`\{\w+\}`)

// letters are the words of a message.
var letters = regexp.MustCompile(`\p{L}+`)

// englishPhrases are the phrases of an English message that no other
// language writes: each fragment between its placeholders that has a word
// of three letters or more, when it is one or two words, else each run of
// three words, so that an English sentence left in part is found too.
func englishPhrases(text string) []string {
	var out []string
	for _, part := range messagePlaceholder.Split(text, -1) {
		part = strings.TrimSpace(part)
		words := letters.FindAllStringIndex(part, -1)
		long := false
		for _, w := range words {
			long = long || w[1]-w[0] >= 3
		}
		switch {
		case !long:
		case len(words) < 3:
			out = append(out, part)
		default:
			for i := 0; i+2 < len(words); i++ {
				out = append(out, part[words[i][0]:words[i+2][1]])
			}
		}
	}
	return out
}

// TestNoEnglishWidgetStringInOtherLanguages looks for the phrases of the
// English catalog's widget messages (englishPhrases) in the string
// literals of the loader and of every other language's checker, as whole
// words: none may remain there. A message of one word that a language
// writes as English does ("Destination" in French) is that language's
// word too.
func TestNoEnglishWidgetStringInOtherLanguages(t *testing.T) {
	files, _ := bundle(t)
	cs := locale.Embedded()
	en := cs.English()
	var english []string
	for _, id := range en.IDs() {
		if !strings.HasPrefix(id, "widget.") {
			continue
		}
		for _, phrase := range englishPhrases(en.Text(id)) {
			english = append(english, id+"\x00"+phrase)
		}
	}
	if len(english) < 100 {
		t.Fatalf("only %d English widget strings", len(english))
	}
	for _, f := range files {
		if f.Language == locale.English {
			continue
		}
		c, checker := cs.Get(f.Language)
		literals := strings.Join(literal.FindAllString(string(f.Body), -1), "\n")
		for _, e := range english {
			id, part, _ := strings.Cut(e, "\x00")
			if checker && c.Text(id) == part && !strings.Contains(part, " ") {
				continue
			}
			if regexp.MustCompile(`(^|[^\p{L}])` + regexp.QuoteMeta(part) + `($|[^\p{L}])`).MatchString(literals) {
				t.Errorf("%s holds the English %q (%s)", f.Path, part, id)
			}
		}
	}
}
