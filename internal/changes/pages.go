package changes

import (
	"slices"
	"time"
)

// The feeds are paged as RFC 5005 archived feeds, by calendar month (UTC)
// of the entries' dates: the current documents (/changes.json and the Atom
// feed) hold the month of the newest event of the log, and each older month
// with entries has one archive document per feed. A month's archive lists
// the same entries at every rebuild, because it is made from that month's
// events alone; only its links to the neighbouring archives move when a new
// month is archived. Nothing is left out, and no document grows with the
// whole history.

// periodLayout formats a period: the month "2025-01".
const periodLayout = "2006-01"

// periodOf is the month that pages an entry dated t.
func periodOf(t time.Time) string { return t.UTC().Format(periodLayout) }

// currentPeriod is the month of the newest event, or with none the month of
// the site's dataset version; "" when neither exists.
func currentPeriod(site FeedSite, newestFirst []Event) string {
	if t, ok := updated(site, newestFirst); ok {
		return periodOf(t)
	}
	return ""
}

// page is the entries of one document of a feed, newest first.
type page[T any] struct {
	// Period is the month listed; Archive is false for the current document.
	Period  string
	Archive bool
	Entries []T
	// Prev and Next are the periods of the neighbouring archives, older and
	// newer, "" where there is none. The current document has Prev only.
	Prev, Next string
}

// paginate splits entries (newest first) into the current document, the
// entries of period current and any newer, and one archive per older month
// that has entries. It returns the current document first, then the
// archives newest first.
func paginate[T any](entries []T, at func(T) time.Time, current string) []page[T] {
	byPeriod := map[string][]T{}
	var periods []string
	cur := page[T]{Period: current}
	for _, e := range entries {
		p := periodOf(at(e))
		if p >= current {
			cur.Entries = append(cur.Entries, e)
			continue
		}
		if _, ok := byPeriod[p]; !ok {
			periods = append(periods, p)
		}
		byPeriod[p] = append(byPeriod[p], e)
	}
	slices.Sort(periods)
	slices.Reverse(periods) // newest first
	pages := []page[T]{cur}
	for i, p := range periods {
		a := page[T]{Period: p, Archive: true, Entries: byPeriod[p]}
		if i > 0 {
			a.Next = periods[i-1]
		}
		if i+1 < len(periods) {
			a.Prev = periods[i+1]
		}
		pages = append(pages, a)
	}
	if len(periods) > 0 {
		pages[0].Prev = periods[0]
	}
	return pages
}
