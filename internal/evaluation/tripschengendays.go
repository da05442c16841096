package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
)

// The Schengen short-stay rule: at most schengenLimitDays days in any
// schengenWindowDays-day period, all Schengen states together.
const (
	schengenLimitDays  = 90
	schengenWindowDays = 180
)

// datedStay is a stay that counts toward the short-stay limit, with the
// dates the request gives: either may be nil. A stay with one date counts
// that day alone; one with none counts nothing.
type datedStay struct{ arrival, departure *entrycheck.Date }

// schengenDays is what the 90/180 rule makes of a trip's counted stays.
type schengenDays struct {
	// distinct is the number of distinct days counted: a day in two stays
	// (the day of a border crossing) counts once.
	distinct int
	// peak is the most days counted in any 180-day window ending on a day
	// of a stay, and peakEnd the last day of the first such window; zero
	// when no day is counted.
	peak    int
	peakEnd entrycheck.Date
	// stays are the stays' own counts, in the order given.
	stays []stayCount
	// exceeded is the index of the stay with the first day past the
	// limit, the earlier stay on a tie; undated the index of the last stay
	// lacking a date. Both are -1 when there is none.
	exceeded, undated int
}

// stayCount is one stay's part of the count.
type stayCount struct {
	// usedAtEnd is the number of days counted in the 180-day window ending
	// on the stay's last day; not valid unless both dates are given.
	usedAtEnd entrycheck.Days
	// firstOver is the stay's first day past the limit (the 91st day in
	// the window ending on it); the zero Date when there is none.
	firstOver entrycheck.Date
}

// span is a run of days, both ends included, as day numbers.
type span struct{ from, to int }

// countSchengenDays counts the stays under the 90/180 rule.
func countSchengenDays(stays []datedStay) schengenDays {
	d := schengenDays{stays: make([]stayCount, len(stays)), exceeded: -1, undated: -1}
	spans := make([]span, 0, len(stays))
	for i, st := range stays {
		if st.arrival == nil || st.departure == nil {
			d.undated = i
		}
		if s, ok := spanOf(st); ok {
			spans = append(spans, s)
		}
	}
	union := mergeSpans(spans)
	for _, s := range union {
		d.distinct += s.to - s.from + 1
	}
	exceededOn := 0
	for i, st := range stays {
		s, ok := spanOf(st)
		if !ok {
			continue
		}
		w := walkStay(union, s)
		if w.peak > d.peak {
			d.peak, d.peakEnd = w.peak, dateOfDay(w.peakEnd)
		}
		if w.over {
			d.stays[i].firstOver = dateOfDay(w.firstOver)
			if d.exceeded < 0 || w.firstOver < exceededOn {
				d.exceeded, exceededOn = i, w.firstOver
			}
		}
		if st.arrival != nil && st.departure != nil {
			d.stays[i].usedAtEnd = entrycheck.SomeDays(countIn(union, s.to-schengenWindowDays+1, s.to))
		}
	}
	return d
}

// spanOf is the days of a stay: a stay with one date lasts that day.
func spanOf(st datedStay) (span, bool) {
	first := firstGiven(st.arrival, st.departure)
	if first == nil {
		return span{}, false
	}
	return span{dayNumber(*first), dayNumber(*firstGiven(st.departure, st.arrival))}, true
}

// stayWalk is what the windows ending on each day of a stay hold.
type stayWalk struct {
	// peak is the most days in one of the windows, peakEnd the first day
	// whose window holds them.
	peak, peakEnd int
	// over is true when a window holds more than the limit; firstOver is
	// then the first day whose window does.
	over      bool
	firstOver int
}

// walkStay counts the days of union in the window ending on each day of s.
// Once a window lies wholly inside the stay, every later day of the stay
// counts a full window: the peak and the first day past the limit come
// before, so a long stay costs no more than 180 days.
func walkStay(union []span, s span) stayWalk {
	var w stayWalk
	for day := s.from; day <= min(s.to, s.from+schengenWindowDays-1); day++ {
		n := countIn(union, day-schengenWindowDays+1, day)
		if n > w.peak {
			w.peak, w.peakEnd = n, day
		}
		if n > schengenLimitDays && !w.over {
			w.over, w.firstOver = true, day
		}
	}
	return w
}

// mergeSpans returns the union of spans, sorted.
func mergeSpans(spans []span) []span {
	sorted := slices.SortedFunc(slices.Values(spans), func(a, b span) int { return a.from - b.from })
	var out []span
	for _, s := range sorted {
		if n := len(out); n > 0 && s.from <= out[n-1].to+1 {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// countIn counts the days of a sorted union of spans between lo and hi.
func countIn(union []span, lo, hi int) int {
	n := 0
	for _, s := range union {
		if a, b := max(s.from, lo), min(s.to, hi); a <= b {
			n += b - a + 1
		}
	}
	return n
}
