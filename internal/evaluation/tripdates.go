package evaluation

import (
	"time"

	"github.com/entrycheck/entrycheck"
)

// Calendar arithmetic on day numbers (days since 1970-01-01, proleptic
// Gregorian), after Howard Hinnant's days_from_civil: a trip evaluation does
// a few hundred date operations, and going through time.Time for each costs
// more than the rest of the arithmetic together.

// dayNumber returns the day number of d. A day beyond the end of its month
// rolls forward into the next, as time.Date normalises it.
func dayNumber(d entrycheck.Date) int {
	y, m := d.Year, int(d.Month)
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d.Day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// dateOfDay is the inverse of dayNumber.
func dateOfDay(n int) entrycheck.Date {
	n += 719468
	era := floorDiv(n, 146097)
	doe := n - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day := doy - (153*mp+2)/5 + 1
	month := mp + 3
	year := yoe + era*400
	if month > 12 {
		month -= 12
		year++
	}
	return entrycheck.Date{Year: year, Month: time.Month(month), Day: day}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// addDays returns the date n days after d.
func addDays(d entrycheck.Date, n int) entrycheck.Date { return dateOfDay(dayNumber(d) + n) }

// addMonths returns d plus m calendar months, the zero Date for the zero
// Date. A day that does not exist in the target month rolls forward (31
// August + 6 months is 3 March), as time.AddDate does, which asks for a
// little more validity, never less.
func addMonths(d entrycheck.Date, m int) entrycheck.Date {
	if d.IsZero() {
		return d
	}
	months := int(d.Month) - 1 + m
	first := entrycheck.Date{Year: d.Year + floorDiv(months, 12), Month: time.Month(months - floorDiv(months, 12)*12 + 1), Day: 1}
	return dateOfDay(dayNumber(first) + d.Day - 1)
}

// firstGiven returns a unless it is not given, else b.
func firstGiven(a, b *entrycheck.Date) *entrycheck.Date {
	if a != nil {
		return a
	}
	return b
}

// dateBefore reports whether a is an earlier day than b; both are real dates.
func dateBefore(a, b entrycheck.Date) bool {
	if a.Year != b.Year {
		return a.Year < b.Year
	}
	if a.Month != b.Month {
		return a.Month < b.Month
	}
	return a.Day < b.Day
}

// parseDate reads a YYYY-MM-DD date without going through time.Parse. It
// accepts exactly what entrycheck.ParseDate accepts (a test compares them);
// callers use ParseDate for the error when it fails.
func parseDate(s string) (entrycheck.Date, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return entrycheck.Date{}, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) {
		return entrycheck.Date{}, false
	}
	return entrycheck.Date{Year: year, Month: time.Month(month), Day: day}, true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
