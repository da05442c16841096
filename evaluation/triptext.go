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
