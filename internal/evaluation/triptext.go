package evaluation

import (
	"strings"

	"github.com/entrycheck/entrycheck"
)

// stayText describes an allowed stay.
func stayText(d entrycheck.Days) string {
	if !d.Valid {
		return "no stated limit"
	}
	return entrycheck.Plural(d.N, "day")
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
