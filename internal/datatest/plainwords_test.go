package datatest_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

func TestDeniedWordsInSkipsAddressesOnly(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Visa-free, no limit given by the source (https://example.org/visa_matrix/snapshot).", nil},
		{"See [the table](/passports/deu_x/).", nil},
		{"Allowed stay: not stated in the Matrix", []string{"matrix"}},
		{"The snapshot 2026-02-17 gives `visa_free`, a curator's note.", []string{"snapshot", "curator", "_", "`"}},
	} {
		got := datatest.DeniedWordsIn(c.text)
		if len(got) != len(c.want) {
			t.Errorf("DeniedWordsIn(%q) = %q, want %q", c.text, got, c.want)
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(got[i], w+" in ") {
				t.Errorf("DeniedWordsIn(%q)[%d] = %q, want %q", c.text, i, got[i], w)
			}
		}
	}
}
