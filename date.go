package entrycheck

import (
	"fmt"
	"time"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// Date is a calendar day (UTC), written as YYYY-MM-DD.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDate reads a YYYY-MM-DD date and rejects anything else.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is not a date of the form YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// DateOf returns the UTC calendar day of t.
func DateOf(t time.Time) Date {
	y, m, d := t.UTC().Date()
	return Date{y, m, d}
}

// Time returns midnight UTC at the start of the day.
func (d Date) Time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// IsZero reports whether the date is unset.
func (d Date) IsZero() bool { return d == Date{} }

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool { return d.Time().Before(o.Time()) }

// DaysSince returns the whole days from d to the UTC day of t (negative when t is earlier).
func (d Date) DaysSince(t time.Time) int {
	return int(DateOf(t).Time().Sub(d.Time()) / (24 * time.Hour))
}

// AddDays returns the date n days later.
func (d Date) AddDays(n int) Date { return DateOf(d.Time().AddDate(0, 0, n)) }

func (d Date) String() string { return string(d.appendTo(make([]byte, 0, 10))) }

// appendTo appends YYYY-MM-DD; dates are marshalled on every answer, so this
// avoids fmt.
func (d Date) appendTo(b []byte) []byte {
	y := d.Year
	b = append(b, byte('0'+y/1000%10), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-')
	b = append(b, byte('0'+int(d.Month)/10), byte('0'+int(d.Month)%10), '-')
	return append(b, byte('0'+d.Day/10), byte('0'+d.Day%10))
}

// MarshalJSON writes the date as a YYYY-MM-DD string.
func (d Date) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 12)
	b = append(b, '"')
	return append(d.appendTo(b), '"'), nil
}

// UnmarshalJSON reads a YYYY-MM-DD string.
func (d *Date) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("a date must be a string of the form YYYY-MM-DD, not %s", b)
	}
	v, err := ParseDate(string(b[1 : len(b)-1]))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Long writes the date as people read it in English: "17 February 2026".
func (d Date) Long() string { return d.LongIn(English()) }

// LongIn writes the day in full in the language of c: "17 de febrero de 2026".
func (d Date) LongIn(c *locale.Catalog) string { return c.Date(d.Year, int(d.Month), d.Day) }

// FiguresIn writes the day in figures as the language of c does (message
// trip.date): 2027-03-01, 01/03/2027, 01.03.2027, as a trip's texts write
// the days of the plan.
func (d Date) FiguresIn(c *locale.Catalog) string {
	return c.Text("trip.date", "year", c.Digits(d.Year, 4), "month", c.Digits(int(d.Month), 2), "day", c.Digits(d.Day, 2))
}
