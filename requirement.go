package entrycheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
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

// requirementFacts is every requirement value with what each surface says
// of it, easiest for the traveller first (the order is the rank): the one
// place a requirement is described. Every method below, the OpenAPI enums,
// the MCP and agent texts and the widget's tones read it.
var requirementFacts = []struct {
	value Requirement
	// change names it in a list of changes ("visa-free -> e-visa"). Its
	// label, the name on its own ("E-visa required"), is message
	// requirement.<value>.label of each language's catalog, its name in a
	// title ("e-visa required") message words.requirement_short.<value>,
	// and its name inside a sentence about a trip leg message
	// trip.requirement.<value>.
	change string
	// document is what the traveller obtains ("e-visa"), or "" for none;
	// in other languages it is message trip.document.<value>.
	document string
	action   Action
	// tone is the colour and icon of a verdict: ok (nothing to obtain),
	// act (a document to obtain), no (a visa from an embassy, or no
	// admission), unknown (no reliable verdict).
	tone string
	// matrix marks the values the secondary matrix gives; the others say
	// there is no reliable verdict.
	matrix bool
}{
	{VisaFree, "visa-free", "", ActionNone, "ok", true},
	{VisaOnArrival, "visa on arrival", "visa on arrival", ActionObtainOnArrival, "act", true},
	{ETA, "ETA", "electronic travel authorisation (ETA)", ActionApplyBeforeTravel, "act", true},
	{EVisa, "e-visa", "e-visa", ActionApplyBeforeTravel, "act", true},
	{VisaRequired, "visa required", "visa", ActionApplyBeforeTravel, "no", true},
	{NoAdmission, "no admission", "", ActionEntryNotPermitted, "no", true},
	{Unknown, "unknown: no data for this route", "", ActionCheckOfficialAuthority, "unknown", false},
	{NeedsReview, "needs review: sources conflict", "", ActionCheckOfficialAuthority, "unknown", false},
}

// Requirements lists every requirement value, easiest first.
var Requirements = func() []Requirement {
	out := make([]Requirement, len(requirementFacts))
	for i, f := range requirementFacts {
		out[i] = f.value
	}
	return out
}()

// Names joins requirement values as the API writes them: "eta, e_visa".
func Names(rs []Requirement) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

// MatrixRequirements lists the values the secondary matrix gives, easiest
// (visa_free) first; the others (unknown, needs_review) are never a verdict.
func MatrixRequirements() []Requirement {
	var out []Requirement
	for _, f := range requirementFacts {
		if f.matrix {
			out = append(out, f.value)
		}
	}
	return out
}

// Tones lists the tone of every requirement value.
func Tones() map[Requirement]string {
	out := make(map[Requirement]string, len(requirementFacts))
	for _, f := range requirementFacts {
		out[f.value] = f.tone
	}
	return out
}

// facts returns r's row, and whether r is a requirement value.
func (r Requirement) facts() (int, bool) {
	for i, f := range requirementFacts {
		if f.value == r {
			return i, true
		}
	}
	return len(requirementFacts), false
}

// Valid reports whether r is one of the requirement values.
func (r Requirement) Valid() bool {
	_, ok := r.facts()
	return ok
}

// Label is the human-readable name of the requirement, in English.
func (r Requirement) Label() string { return r.LabelIn(English()) }

// LabelIn is the requirement's name in the language of c: "E-visa
// required", "Se requiere visado electrónico".
func (r Requirement) LabelIn(c *locale.Catalog) string {
	if !r.Valid() {
		return string(r)
	}
	return c.Text("requirement." + string(r) + ".label")
}

// ShortLabel names the requirement in a few words, for titles: "visa-free",
// "ETA required".
func (r Requirement) ShortLabel() string { return r.ShortLabelIn(English()) }

// ShortLabelIn is ShortLabel in the language of c: message
// words.requirement_short.<requirement>.
func (r Requirement) ShortLabelIn(c *locale.Catalog) string {
	if !r.Valid() {
		return string(r)
	}
	return c.Text("words.requirement_short." + string(r))
}

// Phrase names the requirement inside a sentence ("e-visa required",
// "unknown (no data)").
func (r Requirement) Phrase() string { return r.PhraseIn(English()) }

// PhraseIn is Phrase in the language of c: message trip.requirement.<value>.
func (r Requirement) PhraseIn(c *locale.Catalog) string {
	if !r.Valid() {
		return string(r)
	}
	return c.Text("trip.requirement." + string(r))
}

// ChangeLabel names the requirement in a list of changes ("visa-free ->
// ETA"); the allowed stay is added by the caller.
func (r Requirement) ChangeLabel() string {
	if i, ok := r.facts(); ok {
		return requirementFacts[i].change
	}
	return strings.ToLower(string(r))
}

// Document names the document the requirement asks for ("e-visa"), for use
// inside a sentence; requirements that ask for none are named as they are.
func (r Requirement) Document() string {
	if i, ok := r.facts(); ok && requirementFacts[i].document != "" {
		return requirementFacts[i].document
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

// DocumentIn is Document in the language of c: message
// trip.document.<value>.
func (r Requirement) DocumentIn(c *locale.Catalog) string {
	if !r.NeedsAction() {
		return string(r)
	}
	return c.Text("trip.document." + string(r))
}

// DocumentWithArticleIn is DocumentWithArticle in the language of c:
// message trip.document_with_article.<value>, which words the document as
// the object of a sentence ("you need an e-visa").
func (r Requirement) DocumentWithArticleIn(c *locale.Catalog) string {
	if !r.NeedsAction() {
		return r.DocumentWithArticle()
	}
	return c.Text("trip.document_with_article." + string(r))
}

// Tone groups requirements by what they ask of the traveller, for the
// colour and icon every surface gives a verdict: "ok" (nothing to obtain),
// "act" (a document to obtain), "no" (a visa from an embassy, or no
// admission) and "unknown" (no reliable verdict).
func (r Requirement) Tone() string {
	if i, ok := r.facts(); ok {
		return requirementFacts[i].tone
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

// Actions lists every action value.
var Actions = []Action{ActionNone, ActionObtainOnArrival, ActionApplyBeforeTravel, ActionEntryNotPermitted, ActionCheckOfficialAuthority}

// Action returns the action a requirement calls for. unknown and
// needs_review always send the traveller to the official authority.
func (r Requirement) Action() Action {
	if i, ok := r.facts(); ok {
		return requirementFacts[i].action
	}
	return ActionCheckOfficialAuthority
}

// NeedsAction reports whether the requirement asks the traveller to obtain a
// document, which is when an apply portal is worth showing.
func (r Requirement) NeedsAction() bool {
	i, ok := r.facts()
	return ok && requirementFacts[i].document != ""
}

// Rank orders requirements from easiest (0) to hardest for the traveller;
// unknown and needs_review rank last because they promise nothing.
func (r Requirement) Rank() int {
	i, _ := r.facts()
	return i
}

// Verdict is what an answer says of the requirement of one route: the
// value, its label and the allowed stay. The check, transit, matrix and
// trip answers embed it, so that each says it in the same words (their
// JSON has the three members inline).
type Verdict struct {
	Requirement      Requirement `json:"requirement"`
	RequirementLabel string      `json:"requirement_label" jsonschema:"The requirement in words, in the language of the answer (language)."`
	AllowedStayDays  Days        `json:"allowed_stay_days" jsonschema:"Allowed stay for visa_free; null when the matrix gives none ('visa free') and for every other requirement."`
}

// VerdictOfIn is the verdict of a requirement and allowed stay, labelled
// in the language of c.
func VerdictOfIn(c *locale.Catalog, r Requirement, stay Days) Verdict {
	return Verdict{Requirement: r, RequirementLabel: r.LabelIn(c), AllowedStayDays: stay}
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
