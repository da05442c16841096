package evaluation

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// Check computes the answer for one passport and destination (spec 2.1). It
// returns an *entrycheck.Error with code EINVALID, one problem per bad field
// and suggestions for codes it did not understand; data gaps are not errors
// but the requirements unknown and needs_review.
func (e *Evaluator) Check(req entrycheck.CheckRequest, clock entrycheck.Clock) (entrycheck.CheckResult, error) {
	pc, dc, tc, err := e.validate(&req)
	if err != nil {
		return entrycheck.CheckResult{}, err
	}
	if req.RequestID == "" {
		req.RequestID = newRequestID()
	}
	w, fallback := e.wordsFor(req.Language, req.AcceptLanguage)
	r := e.evaluate(w, pc, dc, tc, req, clock.Now().UTC())
	if fallback != nil {
		r.DefaultsApplied = append(append([]entrycheck.Default(nil), r.DefaultsApplied...), *fallback)
	}
	return r, nil
}

// evaluate computes the answer for resolved countries; req has been
// validated. The trip evaluator calls it for the passport chosen for each leg.
func (e *Evaluator) evaluate(w *words, pc, dc entrycheck.Country, tc *entrycheck.Country, req entrycheck.CheckRequest, now time.Time) entrycheck.CheckResult {
	dest := e.destination(dc.ISO3)
	if req.TravelDate.IsZero() {
		req.TravelDate = entrycheck.DateOf(now)
	}
	r := entrycheck.CheckResult{
		Passport:       pc,
		Destination:    dc,
		DatasetVersion: e.snap.Version(),
		EvaluatedAt:    now,
		RequestID:      req.RequestID,
		Source:         e.source,
		Disclaimer:     w.disclaimer,
		Language:       w.Code,
	}
	own, exemptionOutOfPeriod := e.requirement(w, &r, dest, pc, dc, req)
	held := heldDocuments(req)
	r.RequirementLabel = r.Requirement.LabelIn(w.Catalog)
	r.Action = r.Requirement.Action()
	r.ActionText = r.Action.SentenceIn(w.Catalog, r.Requirement, own)
	t := e.traveller(pc.ISO3, r.Requirement, req.TravelDate)
	// The notes of the rules are the answer's words, in its language; the
	// rest of t decides, and is the same in every language.
	t.Words, t.Describe = w.Catalog, func(a *entrycheck.AppliesTo) string { return e.describeIn(w.Catalog, a) }
	r.EntryRules = dest.rulesFor(t)
	if r.Requirement.NeedsAction() {
		r.Apply = dest.portal(t)
	}
	if dest.yf != nil {
		transit := ""
		if tc != nil {
			transit = tc.ISO3
		}
		r.EntryRules.YellowFever = dest.yf.forTraveller(w, pc.ISO3, transit)
	}
	r.EntryRules.StalenessDays, r.EntryRulesVerification = e.rulesVerification(w, dest, now)
	if tc != nil {
		r.Transit = e.transit(w, pc, *tc, req.TravelDate)
	}
	r.VerdictVerification.VerdictAge = e.VerdictAge(now)
	// Only a verdict the matrix gave can grow old: unknown and needs_review
	// already send the traveller to the official authority, and a citizen's
	// own country does not rest on the matrix.
	if r.VerdictVerification.Old && !own && reliable(r.Requirement) {
		r.VerdictVerification.Confirm = dest.confirmOld[w.index][r.Requirement]
	}
	r.DefaultsApplied = w.defaultsFor(req.Purpose == "", held)
	r.Assumptions = w.assumptionsFor(&r, req, own, exemptionOutOfPeriod)
	return r
}

// requirement settles the requirement of an answer: the matrix verdict, the
// official statements, then any exemption the held documents earn on the
// travel date. It reports whether the passport is the destination's own,
// and whether an exemption would accept the held documents but is outside
// its period.
func (e *Evaluator) requirement(w *words, r *entrycheck.CheckResult, dest *destination, pc, dc entrycheck.Country, req entrycheck.CheckRequest) (own, exemptionOutOfPeriod bool) {
	own = e.verdict(w, r, dest, pc, dc, req)
	if heldDocuments(req) && !own {
		exemptionOutOfPeriod = e.applyExemption(r, dest, req)
	}
	return own, exemptionOutOfPeriod
}

// requirementOnly computes only what ranking a trip's passports needs: the
// requirement, stay and exemption, and the destination's validity rule. The
// full answer is then computed for the chosen passport alone, so both read
// the rules as evaluate does: for this passport (an exemption may name the
// nationalities it holds for) and on the travel date, today when none is
// given.
func (e *Evaluator) requirementOnly(pc, dc entrycheck.Country, req entrycheck.CheckRequest, now time.Time) entrycheck.CheckResult {
	if req.TravelDate.IsZero() {
		req.TravelDate = entrycheck.DateOf(now)
	}
	r := entrycheck.CheckResult{Passport: pc, Destination: dc}
	dest := e.destination(dc.ISO3)
	e.requirement(e.words[0], &r, dest, pc, dc, req)
	r.EntryRules.PassportValidity = entrycheck.SelectVariant(dest.cur.PassportValidity, e.traveller(pc.ISO3, r.Requirement, req.TravelDate))
	return r
}

// verdict fills the requirement from the matrix and the curated official
// statements; it reports whether the passport is the destination's own.
func (e *Evaluator) verdict(w *words, r *entrycheck.CheckResult, dest *destination, pc, dc entrycheck.Country, req entrycheck.CheckRequest) (own bool) {
	m := e.snap.Matrix
	pp, okP := m.Position(pc.ISO3)
	dp, okD := m.Position(dc.ISO3)
	r.VerdictVerification = secondaryOnly(w, noteSecondaryOnly)
	if pc.ISO3 == dc.ISO3 {
		r.Requirement = entrycheck.VisaFree
		r.VerdictVerification = secondaryOnly(w, noteOwnCountry)
		if okP {
			r.Source.MatrixValue = m.RawValue(pp, dp)
		}
		return true
	}
	if !okP || !okD {
		r.Requirement = entrycheck.Unknown
		r.VerdictVerification = secondaryOnly(w, noteNotInMatrix)
		return false
	}
	v := m.Verdict(pp, dp)
	r.Requirement, r.AllowedStayDays = v.Requirement, v.Days
	r.Source.MatrixValue = m.RawValue(pp, dp)
	if !dest.statements {
		return false
	}
	pi, _ := country.Index3(pc.ISO3)
	di, _ := country.Index3(dc.ISO3)
	if stmts, ok := e.statements[routeKey{pi, di}]; ok {
		r.VerdictVerification = statementsOn(w, stmts, req.TravelDate, e.asOf, requestPurpose(req))
		if r.VerdictVerification.Status == entrycheck.VerdictNeedsReview {
			r.Requirement, r.AllowedStayDays = entrycheck.NeedsReview, entrycheck.Days{}
		}
	}
	return false
}

// VerdictAge says what date the verdicts are as of and how old that is at
// now, as every answer gives it.
func (e *Evaluator) VerdictAge(now time.Time) entrycheck.VerdictAge {
	return entrycheck.VerdictDateOf(e.asOf).On(now)
}

// requestPurpose is the request's purpose of travel in lower case, tourism by default.
func requestPurpose(req entrycheck.CheckRequest) string {
	if req.Purpose == "" {
		return entrycheck.PurposeTourism
	}
	return strings.ToLower(req.Purpose)
}

// rulesVerification computes the state of the curated layer for a
// destination from its sources' dates, review flags and the clock.
func (e *Evaluator) rulesVerification(w *words, d *destination, now time.Time) (entrycheck.Days, entrycheck.EntryRulesVerification) {
	v := entrycheck.EntryRulesVerification{
		LastVerified:   d.lastDate,
		StaleAfterDays: entrycheck.StaleAfterDays,
		FlaggedFields:  d.flagged,
	}
	if d.lastDate != nil {
		// A source read after the clock's day (a controlled clock) is 0
		// days old, not a negative age.
		v.StalenessDays = entrycheck.SomeDays(max(0, d.lastDate.DaysSince(now)))
	}
	switch {
	case !d.curated:
		v.Status, v.Note = entrycheck.RulesNotCurated, w.Text(noteNotCurated)
	case len(d.flagged) > 0:
		v.Status, v.Note, v.Reason = entrycheck.RulesNeedsReview, w.Text(noteRulesFlagged), entrycheck.ReasonFlagged
	case d.lastDate == nil:
		v.Status, v.Note = entrycheck.RulesNotCurated, w.Text(noteNoCitations)
	case d.notLive.reason != "":
		v.Status, v.Note, v.Reason = entrycheck.RulesStale, d.notLiveWords[w.index], d.notLive.reason
	case v.StalenessDays.N > entrycheck.StaleAfterDays:
		v.Status, v.Note, v.Reason = entrycheck.RulesStale, w.Text(noteStale), entrycheck.ReasonNotReverified
	default:
		v.Status, v.Note = entrycheck.RulesVerifiedOfficialSources, w.Text(noteVerified)
	}
	if v.FlaggedFields == nil {
		v.FlaggedFields = []string{}
	}
	return v.StalenessDays, v
}

func heldDocuments(req entrycheck.CheckRequest) bool {
	return len(req.ResidencePermitsOf) > 0 || len(req.VisasOf) > 0
}

// newRequestID returns a random identifier for a request that came without one.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	var out [4 + 24]byte
	copy(out[:], "req_")
	hex.Encode(out[4:], b[:])
	return string(out[:])
}

// upper returns s in upper case without allocating when it already is.
func upper(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'a' && s[i] <= 'z' {
			return strings.ToUpper(s)
		}
	}
	return s
}
