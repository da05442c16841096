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
		{entrycheck.Citation{RetrievedAt: day}, "", "read 2026-11-22"},
		{entrycheck.Citation{RetrievedAt: day, ReadFrom: entrycheck.ReadFromLive}, "", "read 2026-11-22"},
		{entrycheck.Citation{RetrievedAt: day, ReadFrom: entrycheck.ReadFromStoredCopy}, "read from a stored copy of unknown date", "read 2026-11-22; read from a stored copy of unknown date"},
		{entrycheck.Citation{RetrievedAt: day, ContentDate: "2019-11-25", ReadFrom: entrycheck.ReadFromStoredCopy},
			"page dated 2019-11-25; read from a stored copy of unknown date", "read 2026-11-22; page dated 2019-11-25; read from a stored copy of unknown date"},
		{entrycheck.Citation{RetrievedAt: day, ContentDate: "2024-12"}, "page dated 2024-12", "read 2026-11-22; page dated 2024-12"},
	}
	for _, c := range cases {
		if got := c.c.Detail(); got != c.detail {
			t.Errorf("%+v: detail %q, want %q", c.c, got, c.detail)
		}
		if got := c.c.ReadText("read"); got != c.read {
			t.Errorf("%+v: %q, want %q", c.c, got, c.read)
		}
	}
}
