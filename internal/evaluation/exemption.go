package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// applyExemption eases the verdict when the traveller holds a visa or
// residence permit that a curated exemption of the destination accepts on
// the travel date. It never overrides no_admission, unknown or
// needs_review: those stay for the official authority to settle. It
// reports whether an exemption would have accepted the documents but is
// outside its period on that day.
func (e *Evaluator) applyExemption(r *entrycheck.CheckResult, d *destination, req entrycheck.CheckRequest) (outOfPeriod bool) {
	exempts := d.cur.ResidencePermitExemptions
	if exempts == nil {
		return false
	}
	switch r.Requirement {
	case entrycheck.NoAdmission, entrycheck.Unknown, entrycheck.NeedsReview, entrycheck.VisaFree:
		return false
	}
	var best *entrycheck.AppliedExemption
	// An exemption is open only to the nationalities its applies_to names,
	// and only inside its period.
	t := e.traveller(r.Passport.ISO3, r.Requirement, req.TravelDate)
	for _, x := range exempts.Value {
		held, ok := e.qualifies(x, req)
		if !ok || !x.AppliesTo.Matches(t.Passport, t.Requirement, t.InGroup) || x.Effect.Rank() >= r.Requirement.Rank() {
			continue
		}
		if !t.Open(x.Scope) {
			outOfPeriod = true
			continue
		}
		if best == nil || x.Effect.Rank() < best.Exemption.Effect.Rank() {
			best = &entrycheck.AppliedExemption{
				MatrixRequirement: r.Requirement,
				HeldDocument:      held,
				Exemption:         entrycheck.StampedOn(x, t.On),
				Source:            exempts.Source,
			}
		}
	}
	if best == nil {
		return outOfPeriod
	}
	r.ExemptionApplied = best
	r.Requirement = best.Exemption.Effect
	r.AllowedStayDays = best.Exemption.MaxStayDays
	if r.Requirement != entrycheck.VisaFree {
		r.AllowedStayDays = entrycheck.Days{}
	}
	return false
}

// qualifies reports whether a held document satisfies the exemption and names it.
func (e *Evaluator) qualifies(x entrycheck.Exemption, req entrycheck.CheckRequest) (string, bool) {
	kinds := []struct {
		doc   string
		codes []string
	}{
		{entrycheck.DocumentResidencePermit, req.ResidencePermitsOf},
		{entrycheck.DocumentVisa, req.VisasOf},
	}
	for _, k := range kinds {
		if x.Document != entrycheck.DocumentEither && x.Document != k.doc {
			continue
		}
		for _, held := range k.codes {
			held = upper(held)
			for _, accepted := range x.HoldersOf {
				if held == accepted || e.groups[accepted][held] {
					return k.doc + " of " + held, true
				}
			}
		}
	}
	return "", false
}
