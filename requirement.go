package entrycheck

import (
	"fmt"
	"strconv"
	"strings"
)

// Requirement is the kind of permission a passport holder needs to enter a
// destination. The first six values come from the secondary matrix; unknown
// (no data) and needs_review (official sources conflict) are never guessed
// into one of the others.
type Requirement string

// The requirement values, in order of increasing difficulty for the traveller.
const (
	VisaFree      Requirement = "visa_free"
	VisaOnArrival Requirement = "visa_on_arrival"
	ETA           Requirement = "eta"
	EVisa         Requirement = "e_visa"
	VisaRequired  Requirement = "visa_required"
	NoAdmission   Requirement = "no_admission"
	Unknown       Requirement = "unknown"
	NeedsReview   Requirement = "needs_review"
)

// Requirements lists every requirement value.
var Requirements = []Requirement{VisaFree, VisaOnArrival, ETA, EVisa, VisaRequired, NoAdmission, Unknown, NeedsReview}

// Valid reports whether r is one of the eight requirement values.
func (r Requirement) Valid() bool {
	switch r {
	case VisaFree, VisaOnArrival, ETA, EVisa, VisaRequired, NoAdmission, Unknown, NeedsReview:
		return true
	}
	return false
}

// Label is the human-readable name of the requirement.
func (r Requirement) Label() string {
	switch r {
	case VisaFree:
		return "Visa-free"
	case VisaOnArrival:
		return "Visa on arrival"
	case ETA:
		return "Electronic travel authorisation (ETA) required"
	case EVisa:
		return "E-visa required"
	case VisaRequired:
		return "Visa required"
	case NoAdmission:
		return "No admission"
	case Unknown:
		return "Unknown: no data for this route"
	case NeedsReview:
		return "Needs review: sources conflict"
	}
	return string(r)
}

// ShortLabel names the requirement in a few words, for titles: "visa-free",
// "ETA required".
func (r Requirement) ShortLabel() string {
	switch r {
	case ETA:
		return "ETA required"
	case Unknown:
		return "unknown"
	case NeedsReview:
		return "needs review"
	}
	l := r.Label()
	return strings.ToLower(l[:1]) + l[1:]
}

// Document names the document the requirement asks for ("e-visa"), for use
// inside a sentence; requirements that ask for none are named as they are.
func (r Requirement) Document() string {
	switch r {
	case VisaOnArrival:
		return "visa on arrival"
	case ETA:
		return "electronic travel authorisation (ETA)"
	case EVisa:
		return "e-visa"
	case VisaRequired:
		return "visa"
	}
	return string(r)
}

// DocumentWithArticle is Document with its indefinite article ("an e-visa").
func (r Requirement) DocumentWithArticle() string {
	if !r.NeedsAction() {
		return "the " + string(r) + " requirement"
	}
	d := r.Document()
	if d[0] == 'e' {
		return "an " + d
	}
	return "a " + d
}

// Tone groups requirements by what they ask of the traveller, for the
// colour and icon every surface gives a verdict: "ok" (nothing to obtain),
// "act" (a document to obtain), "no" (a visa from an embassy, or no
// admission) and "unknown" (no reliable verdict).
func (r Requirement) Tone() string {
	switch r {
	case VisaFree:
		return "ok"
	case VisaOnArrival, ETA, EVisa:
		return "act"
	case VisaRequired, NoAdmission:
		return "no"
	}
	return "unknown"
}

// Action is what the traveller has to do about a requirement.
type Action string

// The action values.
const (
	ActionNone                   Action = "none"
	ActionApplyBeforeTravel      Action = "apply_before_travel"
	ActionObtainOnArrival        Action = "obtain_on_arrival"
	ActionEntryNotPermitted      Action = "entry_not_permitted"
	ActionCheckOfficialAuthority Action = "check_official_authority"
)

// Action returns the action a requirement calls for. unknown and
// needs_review always send the traveller to the official authority.
func (r Requirement) Action() Action {
	switch r {
	case VisaFree:
		return ActionNone
	case VisaOnArrival:
		return ActionObtainOnArrival
	case ETA, EVisa, VisaRequired:
		return ActionApplyBeforeTravel
	case NoAdmission:
		return ActionEntryNotPermitted
	}
	return ActionCheckOfficialAuthority
}

// NeedsAction reports whether the requirement asks the traveller to obtain a
// document, which is when an apply portal is worth showing.
func (r Requirement) NeedsAction() bool {
	switch r {
	case VisaOnArrival, ETA, EVisa, VisaRequired:
		return true
	}
	return false
}

// Rank orders requirements from easiest (0) to hardest for the traveller;
// unknown and needs_review rank last because they promise nothing.
func (r Requirement) Rank() int {
	for i, v := range Requirements {
		if v == r {
			return i
		}
	}
	return len(Requirements)
}

// Days is an optional number of days that marshals to null when absent.
type Days struct {
	N     int
	Valid bool
}

// SomeDays returns a present number of days.
func SomeDays(n int) Days { return Days{N: n, Valid: true} }

// MarshalJSON writes the number or null.
func (d Days) MarshalJSON() ([]byte, error) {
	if !d.Valid {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(d.N), 10), nil
}

// UnmarshalJSON reads a number or null.
func (d *Days) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = Days{}
		return nil
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return fmt.Errorf("days must be a whole number or null, not %s", b)
	}
	*d = SomeDays(n)
	return nil
}
