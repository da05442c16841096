package evaluation

import (
	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// The messages of notes and assumptions, by their ids in the catalogs
// (internal/locale): every language words them once, in newWords.
const (
	noteSecondaryOnly = "verdict.note.secondary_only"
	noteConflict      = "verdict.note.conflict"
	noteCorroborated  = "verdict.note.corroborated"
	noteUpcoming      = "verdict.note.upcoming"
	noteEnded         = "verdict.note.ended"
	noteEndedAgreed   = "verdict.note.ended_agreed"
	noteNotInMatrix   = "verdict.note.not_covered"
	noteOwnCountry    = "verdict.note.own_country"

	noteNotCurated   = "rules.note.not_curated"
	noteNoCitations  = "rules.note.no_citations"
	noteRulesFlagged = "rules.note.flagged"
	noteStale        = "rules.note.stale"
	noteVerified     = "rules.note.verified"

	noteTransitPrograms   = "transit.note.programs"
	noteTransitNoPrograms = "transit.note.no_programs"
	noteTransitNotCurated = "transit.note.not_curated"

	assumeValidPassport = "assumption.valid_passport"
	assumeMatrix        = "assumption.as_of_source"
	assumeBusiness      = "assumption.business"
	assumeOwn           = "assumption.own_country"
	assumeHeldUnused    = "assumption.held_unused"
	assumeHeldEnded     = "assumption.held_ended"
	assumeExemption     = "assumption.exemption"
	assumeOld           = "assumption.old"
	// The free-text fallbacks are echoed, never interpreted.
	assumeFreePermits = "assumption.free_text.residence_permits"
	assumeFreeVisas   = "assumption.free_text.visas_held"
)

// words is the wording of answers in one language: its catalog, and the
// lists every answer shares, worded once so that a check builds none.
type words struct {
	*locale.Catalog
	// index is the language's place in locale.Languages, where per-language
	// wording of a destination is kept.
	index       int
	disclaimer  string
	defaults    [2][2][]entrycheck.Default
	assumptions assumptionTable
}

// country names a country in the language of w.
func (w *words) country(c entrycheck.Country) string { return w.Country(c.ISO2, c.Name) }

func newWords(c *locale.Catalog, index int, asOf entrycheck.Date) *words {
	w := &words{Catalog: c, index: index, disclaimer: entrycheck.Disclaimer(c)}
	w.defaults = defaultLists(w)
	w.assumptions = newAssumptionTable(w, asOf)
	return w
}

// secondaryOnly is the verification of a verdict that only the matrix
// gives, with the note that says why.
func secondaryOnly(w *words, note string) entrycheck.VerdictVerification {
	return entrycheck.VerdictVerification{Status: entrycheck.VerdictSecondarySourceOnly, Note: w.Text(note), OfficialStatements: []entrycheck.CheckedStatement{}}
}

// The defaults an answer may apply, by the field left open; each reason
// is message default.<field>.
var (
	defaultPurpose = entrycheck.Default{Field: "purpose", Value: entrycheck.PurposeTourism}
	defaultDoc     = entrycheck.Default{Field: "document_type", Value: "ordinary_passport"}
	defaultStay    = entrycheck.Default{Field: "stay_type", Value: "short_stay"}
	defaultDate    = entrycheck.Default{Field: "travel_date", Value: "evaluated_at"}
	defaultOrigin  = entrycheck.Default{Field: "arriving_from", Value: "passport_country"}
	defaultHeld    = entrycheck.Default{Field: "held_documents", Value: "none"}
)

// reasoned is the default d with its reason in the language of w.
func (w *words) reasoned(d entrycheck.Default) entrycheck.Default {
	d.Reason = w.Text("default." + d.Field)
	return d
}

// defaultLists words every list of defaults an answer can apply: by
// whether the purpose was defaulted, then whether documents were held.
func defaultLists(w *words) [2][2][]entrycheck.Default {
	doc, stay, date, origin, held, purpose := w.reasoned(defaultDoc), w.reasoned(defaultStay), w.reasoned(defaultDate), w.reasoned(defaultOrigin), w.reasoned(defaultHeld), w.reasoned(defaultPurpose)
	return [2][2][]entrycheck.Default{
		{ // purpose given
			{doc, stay, date, origin, held}, // no held documents
			{doc, stay, date, origin},
		},
		{ // purpose defaulted
			{purpose, doc, stay, date, origin, held},
			{purpose, doc, stay, date, origin},
		},
	}
}

// defaultsFor returns the defaults applied; the lists are shared and must
// not be changed.
func (w *words) defaultsFor(purposeDefaulted, held bool) []entrycheck.Default {
	i, j := 0, 0
	if purposeDefaulted {
		i = 1
	}
	if held {
		j = 1
	}
	return w.defaults[i][j]
}

// Assumption flags; every combination has one shared list, so only free
// text (echoed verbatim) makes a check build a list of its own.
const (
	assumesOwn = 1 << iota
	assumesBusiness
	assumesExemption
	assumesHeldUnused
	assumesHeldEnded
	assumesOld
	assumptionCombinations
)

type assumptionTable [assumptionCombinations][]string

// newAssumptionTable words every list of assumptions; the old verdict's
// names the snapshot's date.
func newAssumptionTable(w *words, asOf entrycheck.Date) assumptionTable {
	var t assumptionTable
	old := w.Count(assumeOld, entrycheck.VerdictOldAfterDays, "date", asOf.LongIn(w.Catalog))
	for flags := range t {
		list := []string{w.Text(assumeValidPassport), w.Text(assumeMatrix)}
		for _, f := range []struct {
			flag int
			text string
		}{{assumesOld, old}, {assumesOwn, w.Text(assumeOwn)}, {assumesBusiness, w.Text(assumeBusiness)}, {assumesExemption, w.Text(assumeExemption)}, {assumesHeldUnused, w.Text(assumeHeldUnused)}, {assumesHeldEnded, w.Text(assumeHeldEnded)}} {
			if flags&f.flag != 0 {
				list = append(list, f.text)
			}
		}
		t[flags] = list
	}
	return t
}

// assumptionsFor lists what the answer assumes. The lists are shared and
// must not be changed.
func (w *words) assumptionsFor(r *entrycheck.CheckResult, req entrycheck.CheckRequest, own, exemptionOutOfPeriod bool) []string {
	flags := 0
	if own {
		flags |= assumesOwn
	}
	if r.VerdictVerification.Old {
		flags |= assumesOld
	}
	if req.Purpose != "" && upper(req.Purpose) == "BUSINESS" {
		flags |= assumesBusiness
	}
	switch {
	case r.ExemptionApplied != nil:
		flags |= assumesExemption
	case exemptionOutOfPeriod:
		flags |= assumesHeldEnded
	case heldDocuments(req):
		flags |= assumesHeldUnused
	}
	if req.ResidencePermitsText == "" && req.VisasHeldText == "" {
		return w.assumptions[flags]
	}
	out := append([]string(nil), w.assumptions[flags]...)
	if req.ResidencePermitsText != "" {
		out = append(out, w.Text(assumeFreePermits, "text", req.ResidencePermitsText))
	}
	if req.VisasHeldText != "" {
		out = append(out, w.Text(assumeFreeVisas, "text", req.VisasHeldText))
	}
	return out
}
