package entrycheck

import "slices"

// CorroboratedBy lists the ids of the official statements in force on the
// travel date that agree with the verdict; none when a statement in force
// disagrees (the route needs review) or none is in force. A corroborated
// verdict is still the matrix's: the statement confirms it for the
// passports it names, not the whole answer.
func (v VerdictVerification) CorroboratedBy() []string {
	if v.Status == VerdictNeedsReview {
		return nil
	}
	var ids []string
	for _, s := range v.OfficialStatements {
		if s.Status == StatementInForce && s.AgreesWithMatrix {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// CorroborationReport compares every official statement with the matrix on
// one day, for a tourist visit (what the site's pages answer): how many
// routes a statement in force corroborates, how many it conflicts with, and
// which. Every surface that counts them (the transparency page, the review
// command) reads this one report.
type CorroborationReport struct {
	Day Date `json:"day"`
	// Corroborated counts the routes whose verdict a statement in force
	// agrees with and none contradicts; Conflicting the routes a statement
	// in force contradicts, which need review.
	Corroborated int                 `json:"corroborated_routes"`
	Conflicting  int                 `json:"conflicting_routes"`
	Statements   []StatementTally    `json:"statements"`
	Conflicts    []StatementConflict `json:"conflicts"`
}

// StatementTally is one official statement compared with the matrix on the
// report's day: the routes of the matrix it speaks of and, while it is in
// force, how many of them it agrees with and contradicts.
type StatementTally struct {
	ID          string      `json:"id"`
	Destination string      `json:"destination"`
	Requirement Requirement `json:"requirement"`
	Status      string      `json:"status"`
	Routes      int         `json:"routes"`
	Agreeing    int         `json:"agreeing"`
	Conflicting int         `json:"conflicting"`
	Source      Citation    `json:"source"`
}

// StatementConflict is a route on which a statement in force says another
// requirement or stay than the matrix.
type StatementConflict struct {
	Passport    Country `json:"passport"`
	Destination Country `json:"destination"`
	Statement   string  `json:"statement"`
	// Stated is what the statement says; Matrix what the matrix gives.
	Stated     Requirement `json:"stated"`
	StatedDays Days        `json:"stated_days"`
	Matrix     Requirement `json:"matrix"`
	MatrixDays Days        `json:"matrix_days"`
}

// Words says the conflict in a line: "Nicaragua to United Kingdom:
// GBR-2026-07-govuk-visa-nationals says visa required; the matrix gives
// electronic travel authorisation (ETA)".
func (c StatementConflict) Words() string {
	return c.Passport.Name + " to " + c.Destination.Name + ": " + c.Statement + " says " +
		InSentence(VerdictWords(c.Stated.Label(), c.Stated, c.StatedDays)) + "; the matrix gives " + InSentence(VerdictWords(c.Matrix.Label(), c.Matrix, c.MatrixDays))
}

// Tally finds the tally of statement id, if the report has it.
func (r CorroborationReport) Tally(id string) (StatementTally, bool) {
	i := slices.IndexFunc(r.Statements, func(t StatementTally) bool { return t.ID == id })
	if i < 0 {
		return StatementTally{}, false
	}
	return r.Statements[i], true
}
