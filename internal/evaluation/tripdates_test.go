package evaluation

import (
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
)

// TestCalendarArithmeticAgreesWithTime: the day-number arithmetic gives what
// the time package gives, over four centuries and the month ends.
func TestCalendarArithmeticAgreesWithTime(t *testing.T) {
	start := time.Date(1899, 12, 25, 0, 0, 0, 0, time.UTC)
	for day := 0; day < 400*366; day += 7 {
		tm := start.AddDate(0, 0, day)
		d := entrycheck.DateOf(tm)
		if n := dayNumber(d); n != int(tm.Unix()/86400) || dateOfDay(n) != d {
			t.Fatalf("%s: day number %d, back %v", d, n, dateOfDay(n))
		}
		for _, m := range []int{0, 1, 3, 6, 12, 25} {
			if got, want := addMonths(d, m), entrycheck.DateOf(tm.AddDate(0, m, 0)); got != want {
				t.Fatalf("%s + %d months = %s, time says %s", d, m, got, want)
			}
		}
		if got, want := addDays(d, 89), entrycheck.DateOf(tm.AddDate(0, 0, 89)); got != want {
			t.Fatalf("%s + 89 days = %s, want %s", d, got, want)
		}
		if e := entrycheck.DateOf(tm.AddDate(0, 0, 1)); !dateBefore(d, e) || dateBefore(e, d) || dateBefore(d, d) {
			t.Fatalf("dateBefore(%s, %s)", d, e)
		}
	}
	if !addMonths(entrycheck.Date{}, 6).IsZero() {
		t.Error("an unknown date plus months must stay unknown")
	}
}

// TestParseDateAgreesWithTheDomain: the fast parser accepts exactly what entrycheck.ParseDate accepts.
func TestParseDateAgreesWithTheDomain(t *testing.T) {
	inputs := []string{"2026-11-22", "2024-02-29", "2023-02-29", "2100-02-29", "2000-02-29", "2026-04-31", "2026-12-31", "2026-13-01",
		"2026-00-10", "2026-01-00", "0000-01-01", "0001-01-01", "9999-12-31", "2026-1-01", "2026/01/01", "26-01-01", "2026-01-01T", " 2026-01-01",
		"２０２６-01-01", "2026-0a-01", "", "-026-01-01", "+026-01-01"}
	for y := 1999; y <= 2001; y++ {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				inputs = append(inputs, pad(y, 4)+"-"+pad(m, 2)+"-"+pad(d, 2))
			}
		}
	}
	for _, s := range inputs {
		want, err := entrycheck.ParseDate(s)
		got, ok := parseDate(s)
		if ok != (err == nil) || (ok && got != want) {
			t.Errorf("parseDate(%q) = %v, %v; ParseDate = %v, %v", s, got, ok, want, err)
		}
	}
}

func pad(n, width int) string {
	s := ""
	for ; width > 0; width-- {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
