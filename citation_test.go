package entrycheck_test

import (
	"testing"

	"github.com/entrycheck/entrycheck"
)

func TestCitationDetail(t *testing.T) {
	day := entrycheck.Date{Year: 2026, Month: 11, Day: 22}
	cases := []struct {
		c            entrycheck.Citation
		detail, read string
	}{
		{entrycheck.Citation{RetrievedAt: day}, "", "read 22 November 2026"},
		{entrycheck.Citation{RetrievedAt: day, ReadFrom: entrycheck.ReadFromLive}, "on the live page", "read 22 November 2026 on the live page"},
		{entrycheck.Citation{RetrievedAt: day, ReadFrom: entrycheck.ReadFromStoredCopy}, "from a stored copy of unknown date", "read 22 November 2026 from a stored copy of unknown date"},
		{entrycheck.Citation{RetrievedAt: day, ContentDate: "2019-11-25", ReadFrom: entrycheck.ReadFromStoredCopy},
			"from a stored copy of unknown date; the page is dated 25 November 2019", "read 22 November 2026 from a stored copy of unknown date; the page is dated 25 November 2019"},
		{entrycheck.Citation{RetrievedAt: day, ContentDate: "2024-12"}, "the page is dated December 2024", "read 22 November 2026; the page is dated December 2024"},
	}
	for _, c := range cases {
		if got := c.c.Detail(); got != c.detail {
			t.Errorf("%+v: detail %q, want %q", c.c, got, c.detail)
		}
		if got := c.c.ReadText(); got != c.read {
			t.Errorf("%+v: %q, want %q", c.c, got, c.read)
		}
	}
}
