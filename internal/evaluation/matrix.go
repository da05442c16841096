package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// PassportMatrix returns the requirement of a passport for every other
// country of the matrix, in the matrix's order, by running Check for each
// route. A valid code outside the matrix gets an empty list, not an error.
func (e *Evaluator) PassportMatrix(passport, requestID string, clock entrycheck.Clock) (entrycheck.PassportMatrix, error) {
	if requestID == "" {
		requestID = newRequestID()
	}
	var problems []entrycheck.Problem
	pc, ok := e.code(&problems, "passport", passport, true)
	if !ok {
		return entrycheck.PassportMatrix{}, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
	}
	now := entrycheck.FixedClock(clock.Now().UTC())
	pm := entrycheck.PassportMatrix{
		Passport:       pc,
		DatasetVersion: e.snap.Version(),
		EvaluatedAt:    now.Now(),
		RequestID:      requestID,
		VerdictAge:     e.VerdictAge(now.Now()),
		Counts:         map[entrycheck.Requirement]int{},
		Destinations:   []entrycheck.MatrixEntry{},
		Source:         e.source,
		Disclaimer:     e.words[0].disclaimer,
	}
	for _, r := range entrycheck.Requirements {
		pm.Counts[r] = 0
	}
	if _, inMatrix := e.snap.Matrix.Position(pc.ISO3); !inMatrix {
		return pm, nil
	}
	for _, dc := range e.snap.Matrix.Countries() {
		if dc.ISO3 == pc.ISO3 {
			continue
		}
		r, err := e.Check(entrycheck.CheckRequest{Passport: pc.ISO3, Destination: dc.ISO3, RequestID: requestID}, now)
		if err != nil {
			return entrycheck.PassportMatrix{}, err
		}
		pm.Counts[r.Requirement]++
		pm.Destinations = append(pm.Destinations, entrycheck.MatrixEntry{
			Destination:                  r.Destination,
			Verdict:                      r.Verdict,
			Action:                       r.Action,
			Apply:                        r.Apply,
			VerdictVerificationStatus:    r.VerdictVerification.Status,
			CorroboratedBy:               r.VerdictVerification.CorroboratedBy(),
			EntryRulesVerificationStatus: r.EntryRulesVerification.Status,
			Coverage:                     r.EntryRules.Coverage,
		})
	}
	return pm, nil
}
