package entrycheck_test

import (
	"testing"

	"github.com/entrycheck/entrycheck"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 39402: "39,402", 1234567: "1,234,567", -39402: "-39,402"} {
		if got := entrycheck.Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
