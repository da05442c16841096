package evaluation

import (
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// textArena holds the texts of one trip evaluation in a few large buffers.
// A trip explains itself in several hundred short strings; allocating each
// one separately cost more than the rest of the evaluation, the checks
// included. The strings it returns share its buffers and never change.
type textArena struct {
	b strings.Builder
	// chunk is the size of a new buffer: about what the whole trip needs.
	chunk int
}

// textPerLeg is about the number of bytes of text a leg needs (a leg with
// every condition takes 1.2 to 1.8 KiB).
const textPerLeg = 2 << 10

func newTextArena(legs int) *textArena { return &textArena{chunk: legs * textPerLeg} }

// reserve makes room for n more bytes. It starts a new buffer rather than
// growing the current one: the strings already handed out keep the old
// buffer, so growing would copy them for nothing.
func (a *textArena) reserve(n int) {
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(n, a.chunk))
	}
}

// since returns what was written from start on.
func (a *textArena) since(start int) string { return a.b.String()[start:] }

// join returns the concatenation of parts; a single part is returned as it
// is, without a copy.
func (a *textArena) join(parts ...string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	a.reserve(n)
	start := a.b.Len()
	for _, p := range parts {
		a.b.WriteString(p)
	}
	return a.since(start)
}

// itoa writes a number.
func (a *textArena) itoa(n int) string {
	if n >= 0 && n < 100 {
		return strconv.Itoa(n) // a constant: strconv keeps the small numbers
	}
	var buf [20]byte
	b := strconv.AppendInt(buf[:0], int64(n), 10)
	a.reserve(len(b))
	start := a.b.Len()
	a.b.Write(b)
	return a.since(start)
}

// date writes a date as YYYY-MM-DD, as Date.String does; request dates
// have four-digit years.
func (a *textArena) date(d entrycheck.Date) string {
	y := d.Year
	b := [10]byte{byte('0' + y/1000%10), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + d.Month/10), byte('0' + d.Month%10), '-', byte('0' + d.Day/10), byte('0' + d.Day%10)}
	a.reserve(len(b))
	start := a.b.Len()
	a.b.Write(b[:])
	return a.since(start)
}

// plural writes "1 day" or "3 days".
func (a *textArena) plural(n int, noun string) string {
	if n == 1 {
		return a.join("1 ", noun)
	}
	return a.join(a.itoa(n), " ", noun, "s")
}

// legName is how texts name a leg: numbered from 1, as people count.
func (a *textArena) legName(l plannedLeg) string {
	return a.join("leg ", a.itoa(l.index+1), " (", l.country.Name, ")")
}

// stayText describes an allowed stay.
func (a *textArena) stayText(d entrycheck.Days) string {
	if !d.Valid {
		return "no stated limit"
	}
	return a.plural(d.N, "day")
}

func (a *textArena) months(n int) string { return a.plural(n, "month") }

// requirementPhrase is a requirement's label for use inside a sentence.
func requirementPhrase(r entrycheck.Requirement) string {
	switch r {
	case entrycheck.VisaFree:
		return "visa-free"
	case entrycheck.VisaOnArrival:
		return "visa on arrival"
	case entrycheck.ETA:
		return "electronic travel authorisation (ETA) required"
	case entrycheck.EVisa:
		return "e-visa required"
	case entrycheck.VisaRequired:
		return "visa required"
	case entrycheck.NoAdmission:
		return "no admission"
	case entrycheck.Unknown:
		return "unknown (no data)"
	case entrycheck.NeedsReview:
		return "needs review (sources conflict)"
	}
	return string(r)
}

// conditionLabel names a condition kind in a sentence.
func conditionLabel(kind string) string {
	switch kind {
	case entrycheck.ConditionSchengen:
		return "Schengen 90/180"
	case entrycheck.ConditionOtherHealth:
		return "health"
	}
	return strings.ReplaceAll(kind, "_", " ")
}
