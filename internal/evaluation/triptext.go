package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// stayText describes an allowed stay in the language of w.
func stayText(w *words, d entrycheck.Days) string {
	if !d.Valid {
		return w.Text("trip.stay.no_stated_limit")
	}
	return countDays(w, d.N)
}

// countDays counts days in the language of w: "1 day", "12 days".
func countDays(w *words, n int) string { return w.Count("stay.days", n) }

// dateText writes a day of the plan in figures, as the language of w
// writes a date: 2027-03-01, 01/03/2027, 01.03.2027.
func dateText(w *words, d entrycheck.Date) string { return d.FiguresIn(w.Catalog) }

// sentences joins sentences as the language of w does: with a space
// between them, or none where, as in Chinese, a sentence ends with a
// full-width stop.
func sentences(w *words, first string, more ...string) string {
	text := first
	for _, s := range more {
		text = w.Text("trip.sentences", "a", text, "b", s)
	}
	return text
}

// conditionLabel names a condition kind in a sentence, in the language of
// w: message trip.condition.<kind>.
func conditionLabel(w *words, kind string) string {
	return w.Text("trip.condition." + kind)
}
