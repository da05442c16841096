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
	b      strings.Builder
	counts *counts
	// chunk is the size of a new buffer: about what the whole trip needs.
	chunk int
}

// An arena is sized for the usual trip: a leg writes 1.0 to 1.7 KiB of
// text (1.4 KiB at the median of varied trips), the trip as a whole up to
// 2 KiB more. A trip that writes more gets further, smaller buffers.
const (
	textPerLeg  = 1280
	textPerTrip = 2 << 10
)

func newTextArena(legs int, c *counts) *textArena {
	return &textArena{chunk: legs*textPerLeg + textPerTrip, counts: c}
}

// reserve makes room for n more bytes. It starts a new buffer rather than
// growing the current one: the strings already handed out keep the old
// buffer, so growing would copy them for nothing.
func (a *textArena) reserve(n int) {
	if a.b.Cap()-a.b.Len() < n {
		if a.b.Cap() > 0 {
			a.chunk = max(a.chunk/4, 1<<10) // what is left to write is a fraction
		}
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

// plural writes "1 day" or "3 days". Counts of days and months up to a
// year come from the evaluator's table, written once.
func (a *textArena) plural(n int, noun string) string {
	if s, ok := a.counts.of(n, noun); ok {
		return s
	}
	if n == 1 {
		return a.join("1 ", noun)
	}
	return a.join(a.itoa(n), " ", noun, "s")
}

// counts holds the texts of the counts trips name most: "1 day" to "366
// days", "1 month" to "24 months".
type counts struct {
	days   [367]string
	months [25]string
}

func newCounts() *counts {
	c := &counts{}
	for n := range c.days {
		c.days[n] = entrycheck.Plural(n, "day")
	}
	for n := range c.months {
		c.months[n] = entrycheck.Plural(n, "month")
	}
	return c
}

func (c *counts) of(n int, noun string) (string, bool) {
	switch {
	case n < 0:
	case noun == "day" && n < len(c.days):
		return c.days[n], true
	case noun == "month" && n < len(c.months):
		return c.months[n], true
	}
	return "", false
}

// nameLeg writes how texts name a leg: numbered from 1, as people count
// (plannedLeg.name).
func (a *textArena) nameLeg(l plannedLeg) string {
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
