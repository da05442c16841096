package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// transit looks up the passport's requirement in the transit country and
// that country's transit-without-visa programmes. It is advisory: whether a
// connection needs a visa depends on the airport, the airline and whether
// the traveller leaves the airside area.
func (e *Evaluator) transit(w *words, pc, tc entrycheck.Country, day entrycheck.Date) *entrycheck.Transit {
	t := &entrycheck.Transit{Country: tc, Programs: []entrycheck.TransitProgram{}}
	m := e.snap.Matrix
	pp, okP := m.Position(pc.ISO3)
	tp, okT := m.Position(tc.ISO3)
	switch {
	case pc.ISO3 == tc.ISO3:
		t.Requirement = entrycheck.VisaFree
	case okP && okT:
		v := m.Verdict(pp, tp)
		t.Requirement, t.AllowedStayDays = v.Requirement, v.Days
	default:
		t.Requirement = entrycheck.Unknown
	}
	t.RequirementLabel = t.Requirement.LabelIn(w.Catalog)
	d := e.destination(tc.ISO3)
	t.Coverage = d.rules.Coverage
	if twov := d.cur.TWOV; twov != nil {
		t.ProgramsSource = &twov.Source
		traveller := e.traveller(pc.ISO3, t.Requirement, day)
		for _, p := range twov.Value {
			t.Programs = append(t.Programs, entrycheck.TransitProgram{TWOVProgram: entrycheck.StampedOn(p, day), EligibleForThisPassport: traveller.ItemHolds(p.Scope)})
		}
		t.Note = w.Text(noteTransitPrograms)
	} else if d.curated {
		t.Note = w.Text(noteTransitNoPrograms)
	} else {
		t.Note = w.Text(noteTransitNotCurated)
	}
	return t
}
