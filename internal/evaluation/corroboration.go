package evaluation

import (
	"sort"

	"github.com/entrycheck/entrycheck"
)

// Corroboration compares every official statement with the matrix on day,
// for a tourist visit as the site's pages answer: the routes a statement in
// force corroborates, those it contradicts, and each statement's tally. It
// reads the same comparison as a check, so its counts are the answers'.
func (e *Evaluator) Corroboration(day entrycheck.Date) entrycheck.CorroborationReport {
	rep := entrycheck.CorroborationReport{Day: day, Statements: []entrycheck.StatementTally{}, Conflicts: []entrycheck.StatementConflict{}}
	tally := map[string]*entrycheck.StatementTally{}
	for i := range e.snap.Curated.Statements {
		s := &e.snap.Curated.Statements[i]
		rep.Statements = append(rep.Statements, entrycheck.StatementTally{ID: s.ID, Destination: s.Destination, Requirement: s.Requirement, Status: s.StatusOn(day), Source: s.Source})
	}
	for i := range rep.Statements {
		tally[rep.Statements[i].ID] = &rep.Statements[i]
	}
	for _, route := range e.statementRoutes {
		stmts := e.statements[route.key]
		vv := statementsOn(e.words[0], stmts, day, e.asOf, entrycheck.PurposeTourism)
		switch {
		case vv.Status == entrycheck.VerdictNeedsReview:
			rep.Conflicting++
		case len(vv.CorroboratedBy()) > 0:
			rep.Corroborated++
		}
		for _, s := range stmts {
			t := tally[s.src.ID]
			t.Routes++
			if t.Status != entrycheck.StatementInForce || !s.src.CoversPurpose(entrycheck.PurposeTourism) {
				continue
			}
			if s.checked.AgreesWithMatrix {
				t.Agreeing++
				continue
			}
			t.Conflicting++
			rep.Conflicts = append(rep.Conflicts, entrycheck.StatementConflict{
				Passport: route.passport, Destination: route.destination, Statement: s.src.ID,
				Stated: s.src.Requirement, StatedDays: s.src.AllowedStayDays,
				Matrix: route.matrix.Requirement, MatrixDays: route.matrix.Days,
			})
		}
	}
	sort.SliceStable(rep.Statements, func(i, j int) bool {
		a, b := rep.Statements[i], rep.Statements[j]
		if a.Destination != b.Destination {
			return a.Destination < b.Destination
		}
		return a.ID < b.ID
	})
	sort.SliceStable(rep.Conflicts, func(i, j int) bool {
		a, b := rep.Conflicts[i], rep.Conflicts[j]
		if a.Destination.Name != b.Destination.Name {
			return a.Destination.Name < b.Destination.Name
		}
		return a.Passport.Name < b.Passport.Name
	})
	return rep
}
