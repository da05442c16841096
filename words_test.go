package entrycheck_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 39402: "39,402", 1234567: "1,234,567", -39402: "-39,402"} {
		if got := entrycheck.Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestRequirementWordsInEnglish keeps the documents of the requirement
// table and their words in the English catalog (trip.document.*,
// trip.document_with_article.*) one and the same, and names every
// requirement inside a sentence in every language.
func TestRequirementWordsInEnglish(t *testing.T) {
	en := entrycheck.English()
	for _, r := range entrycheck.Requirements {
		if got, want := r.DocumentIn(en), r.Document(); got != want {
			t.Errorf("%s: DocumentIn(en) = %q, Document() = %q", r, got, want)
		}
		if got, want := r.DocumentWithArticleIn(en), r.DocumentWithArticle(); got != want {
			t.Errorf("%s: DocumentWithArticleIn(en) = %q, DocumentWithArticle() = %q", r, got, want)
		}
		for _, c := range locale.Embedded().List() {
			if p := r.PhraseIn(c); p == "" || strings.HasPrefix(p, "[") {
				t.Errorf("%s in %s: phrase %q", r, c.Code, p)
			}
		}
	}
}
