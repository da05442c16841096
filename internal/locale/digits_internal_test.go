package locale

import (
	"testing"

	"golang.org/x/text/number"
)

// TestDigitsAreCLDRs compares the looked-up digits with CLDR's formatting,
// in every language, for the numbers the pages write: days, years, counts.
func TestDigitsAreCLDRs(t *testing.T) {
	for _, c := range Embedded().List() {
		for _, n := range []int{0, 1, 7, 10, 31, 90, 365, 999, 1000, 2026, 39402, 123456} {
			if got, want := c.digits(n), c.numbers.Sprint(number.Decimal(n, number.NoSeparator())); got != want {
				t.Errorf("%s: digits(%d) = %q, CLDR writes %q", c.Code, n, got, want)
			}
			if got, want := c.Number(n), c.numbers.Sprint(number.Decimal(n)); got != want {
				t.Errorf("%s: Number(%d) = %q, CLDR writes %q", c.Code, n, got, want)
			}
		}
	}
}
