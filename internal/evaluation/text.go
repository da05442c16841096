package evaluation

import (
	"strconv"

	"github.com/entrycheck/entrycheck"
)

// The fixed wording of notes, assumptions and defaults. Keeping it in one
// place keeps every adapter's wording the same and keeps checks allocation-free.
const (
	noteSecondaryOnly = "The verdict comes from a secondary, aggregated visa table. It has not been confirmed by an official source of the destination."
	noteConflict      = "A curated official source states a different requirement for this route than the secondary visa table. Until the conflict is resolved the route is shown as needing review: check with the destination's official authority."
	noteCorroborated  = "The verdict comes from a secondary, aggregated visa table; an official statement in force on the travel date agrees with it. The statement's period and conditions are in its text."
	noteUpcoming      = "The verdict comes from a secondary, aggregated visa table. An official statement about this route takes effect after the travel date; it does not change the verdict yet."
	noteEnded         = "The verdict comes from a secondary, aggregated visa table. An official statement about this route has ended and is no longer applied; it is listed as history."
	noteEndedAgreed   = "The verdict comes from a secondary, aggregated visa table. An official statement that agreed with it ended after that edition of the table was published and is no longer applied: the verdict may still reflect the rule that ended. Check with the destination's official authority."
	noteNotInMatrix   = "This route is not covered by the secondary visa table, so there is no verdict: check with the destination's official authority."
	noteOwnCountry    = "Passport and destination are the same country: citizens may enter their own country, and the foreign-visitor rules below do not apply to them."

	noteNotCurated   = "The destination's entry rules have not been curated yet; only the yellow-fever table (when it covers the destination) is shown."
	noteNoCitations  = "The destination was researched but no official source could be read for any rule."
	noteRulesFlagged = "A cited source changed since it was verified; the rules it gave are being reviewed."
	noteStale        = "The oldest cited source has not been re-verified within the staleness threshold; the rules may be out of date."
	noteVerified     = "Every shown rule cites an official source read within the staleness threshold. Rules without a source are left out, not guessed."

	noteTransitPrograms   = "Advisory: the requirement is for entering the transit country. Staying airside on a connection may need no visa under the programmes listed; check each programme's conditions and your airline."
	noteTransitNoPrograms = "Advisory: the requirement is for entering the transit country. No transit-without-visa programme was found in official sources; airside transit rules may still apply, so check with your airline."
	noteTransitNotCurated = "Advisory: the requirement is for entering the transit country. Its transit programmes have not been curated; check with your airline and the transit country's authority."
)

// secondaryOnly is the verification of a verdict that only the matrix
// gives, with the note that says why.
func secondaryOnly(note string) entrycheck.VerdictVerification {
	return entrycheck.VerdictVerification{Status: entrycheck.VerdictSecondarySourceOnly, Note: note, OfficialStatements: []entrycheck.CheckedStatement{}}
}

var (
	defaultPurpose = entrycheck.Default{Field: "purpose", Value: entrycheck.PurposeTourism, Reason: "No purpose was given; the verdict is for a short tourist visit."}
	defaultDoc     = entrycheck.Default{Field: "document_type", Value: "ordinary_passport", Reason: "The verdict is for an ordinary passport; diplomatic, service, emergency and other travel documents have other rules."}
	defaultStay    = entrycheck.Default{Field: "stay_type", Value: "short_stay", Reason: "The verdict is for a short visit, not for work, study or residence."}
	defaultDate    = entrycheck.Default{Field: "travel_date", Value: "evaluated_at", Reason: "No travel date was given; the rules are those known on the day of the answer."}
	defaultOrigin  = entrycheck.Default{Field: "arriving_from", Value: "passport_country", Reason: "No itinerary was given; for yellow fever the traveller is assumed to arrive from the passport country (a transit country is taken into account)."}
	defaultHeld    = entrycheck.Default{Field: "held_documents", Value: "none", Reason: "No visas or residence permits of other countries were given; exemptions for their holders were not applied."}
)

// defaultsFor returns the defaults applied; the lists are shared and must not be changed.
var defaultLists = [2][2][]entrycheck.Default{
	{ // purpose given
		{defaultDoc, defaultStay, defaultDate, defaultOrigin, defaultHeld}, // no held documents
		{defaultDoc, defaultStay, defaultDate, defaultOrigin},
	},
	{ // purpose defaulted
		{defaultPurpose, defaultDoc, defaultStay, defaultDate, defaultOrigin, defaultHeld},
		{defaultPurpose, defaultDoc, defaultStay, defaultDate, defaultOrigin},
	},
}

func defaultsFor(purposeDefaulted, held bool) []entrycheck.Default {
	i, j := 0, 0
	if purposeDefaulted {
		i = 1
	}
	if held {
		j = 1
	}
	return defaultLists[i][j]
}

const (
	assumeValidPassport = "The passport is valid, undamaged and not reported lost or stolen."
	assumeMatrix        = "Requirements can change without notice; the verdict is as of the date of its source and has not been confirmed by the destination."
	assumeBusiness      = "Purpose business: the secondary visa table records short tourist visits. Business visits are often allowed under the same terms, but some destinations require a business visa; check with the official authority."
	assumeOwn           = "Passport and destination are the same country: the answer assumes a citizen entering their own country."
	assumeHeldUnused    = "The visas or residence permits given do not change this verdict: no curated exemption of the destination accepts them for this requirement."
	assumeHeldEnded     = "An exemption of the destination for holders of the visas or residence permits given is outside its period on the travel date (ended or not yet begun), so it was not applied."
	assumeExemption     = "A curated exemption was applied because of a held visa or residence permit (see the exemption applied); carry that document, valid, when you travel."
)

// assumeOld says that the verdict is older than VerdictOldAfterDays; it
// names the snapshot's date, so each evaluator words it once.
func assumeOld(asOf entrycheck.Date) string {
	return "The verdict is as of " + asOf.Long() + ", more than " + strconv.Itoa(entrycheck.VerdictOldAfterDays) +
		" days before this answer: the requirement may have changed since. Confirm it with the destination's official authority (embassy, consulate or immigration service) before you travel."
}

var baseAssumptions = []string{assumeValidPassport, assumeMatrix}

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

func newAssumptionTable(asOf entrycheck.Date) *assumptionTable {
	var t assumptionTable
	for flags := range t {
		list := append([]string(nil), baseAssumptions...)
		for _, f := range []struct {
			flag int
			text string
		}{{assumesOld, assumeOld(asOf)}, {assumesOwn, assumeOwn}, {assumesBusiness, assumeBusiness}, {assumesExemption, assumeExemption}, {assumesHeldUnused, assumeHeldUnused}, {assumesHeldEnded, assumeHeldEnded}} {
			if flags&f.flag != 0 {
				list = append(list, f.text)
			}
		}
		t[flags] = list
	}
	return &t
}

// assumptionsFor lists what the answer assumes. The lists are shared and
// must not be changed.
func (e *Evaluator) assumptionsFor(r *entrycheck.CheckResult, req entrycheck.CheckRequest, own, exemptionOutOfPeriod bool) []string {
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
		return e.assumptions[flags]
	}
	out := append([]string(nil), e.assumptions[flags]...)
	if req.ResidencePermitsText != "" {
		out = append(out, "residence_permits was given as free text (\""+req.ResidencePermitsText+"\") and was not interpreted: list the issuing countries in residence_permits_of (ISO3 codes or SCHENGEN) to have exemptions applied.")
	}
	if req.VisasHeldText != "" {
		out = append(out, "visas_held was given as free text (\""+req.VisasHeldText+"\") and was not interpreted: list the issuing countries in visas_of (ISO3 codes or SCHENGEN) to have exemptions applied.")
	}
	return out
}
