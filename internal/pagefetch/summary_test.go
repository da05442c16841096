package pagefetch_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"changed line",
			"Entry rules\nPassports must be valid for 6 months.\nLast updated 3 March 2026",
			"Entry rules\nPassports must be valid for 3 months.\nLast updated 9 May 2026",
			`1 line added, 1 removed; added: "Passports must be valid for 3 months."; removed: "Passports must be valid for 6 months."`},
		{"date-only rule change",
			"Entry rules\nTravellers must register from 9 November 2025.\nPassports must be valid until 31/12/2026.\nLast updated 3 March 2026",
			"Entry rules\nTravellers must register from 10 April 2026.\nPassports must be valid until 31/12/2026.\nLast updated 9 May 2026",
			`1 line added, 1 removed; added: "Travellers must register from 10 April 2026."; removed: "Travellers must register from 9 November 2025."`},
		{"date in a stamp phrase",
			"News — updated 3 March 2026: an ETA is required\nMonday, 2 March 2026 | 14:05 CET",
			"News — updated 9 May 2026: an ETA is required\nSaturday, 9 May 2026 | 09:41 CET",
			"no content change"},
		{"added only",
			"Entry rules",
			"Entry rules\nA return ticket is required.\nProof of funds may be requested.",
			`2 lines added; added: "A return ticket is required."`},
		{"removed only",
			"Entry rules\nA yellow fever certificate is required.",
			"Entry rules",
			`1 line removed; removed: "A yellow fever certificate is required."`},
		{"churn only",
			"Rules\nUpdated: 3 March 2026\nViewed 12 times\nToday is Monday 2 March",
			"Rules\nViewed 15 times\nToday is Friday 6 March",
			"no content change"},
		{"moved line",
			"a\nb\nc", "c\na\nb",
			"no content change"},
		{"duplicate line added",
			"a\nb", "a\nb\na",
			`1 line added; added: "a"`},
		{"whitespace only",
			"Passports  must be valid", "  Passports must be valid ",
			"no content change"},
		{"both empty", "", "", "no content change"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pagefetch.Summarize(tt.old, tt.new); got != tt.want {
				t.Errorf("Summarize:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestSummarizeTruncates(t *testing.T) {
	long := strings.Repeat("Travellers holding an ordinary passport ", 10)
	got := pagefetch.Summarize(long+"must apply online", long+"may apply on arrival")
	if n := utf8.RuneCountInString(got); n > 300 {
		t.Errorf("summary of %d characters: %q", n, got)
	}
	if !strings.HasPrefix(got, `1 line added, 1 removed; added: "Travellers holding`) {
		t.Errorf("summary %q", got)
	}
	// Each quote is cut to 100 characters, ending with an ellipsis.
	quote := strings.TrimPrefix(got, `1 line added, 1 removed; added: "`)
	quote, _, _ = strings.Cut(quote, `"`)
	if utf8.RuneCountInString(quote) != 100 || !strings.HasSuffix(quote, "…") {
		t.Errorf("quote %q (%d characters)", quote, utf8.RuneCountInString(quote))
	}
}

func FuzzSummarize(f *testing.F) {
	f.Add("a\nb", "a\nc")
	f.Add("Last updated 3 March 2026", strings.Repeat("é", 400))
	f.Add("Updated 3 March 2026: closed on Monday, 22/11/2026 at 14:05", "© 2026\nViewed 12 times\nMonday, 22 November 2026 | 14:05 CET")
	f.Fuzz(func(t *testing.T, old, new string) {
		got := pagefetch.Summarize(old, new)
		if utf8.RuneCountInString(got) > 300 || strings.Contains(got, "\n") {
			t.Fatalf("summary %q", got)
		}
		_ = pagefetch.Fingerprint(new)
	})
}
