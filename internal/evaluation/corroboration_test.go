package evaluation_test

import (
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCorroborationMatchesTheData recomputes from the curators' notes and
// the matrix which routes official statements corroborate and contradict,
// and compares the report every surface counts from with it, route by
// route, and with each route's own answer.
func TestCorroborationMatchesTheData(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, day := range []entrycheck.Date{entrycheck.DateOf(today.Now()), {Year: 2026, Month: 3, Day: 1}, {Year: 2027, Month: 1, Day: 15}} {
		wantOK, wantConflict := datatest.StatementRoutes(t, day.String())
		rep := ev.Corroboration(day)
		if rep.Corroborated != len(wantOK) || rep.Conflicting != len(wantConflict) {
			t.Errorf("%s: report gives %d corroborated and %d conflicting routes, the data %d and %d", day, rep.Corroborated, rep.Conflicting, len(wantOK), len(wantConflict))
		}
		conflicts := map[string]bool{}
		for _, c := range rep.Conflicts {
			conflicts[c.Passport.ISO3+"-"+c.Destination.ISO3] = true
		}
		for route := range wantConflict {
			if !conflicts[route] {
				t.Errorf("%s: %s conflicts in the data but is not listed", day, route)
			}
		}
		agreeing, conflicting := 0, 0
		for _, s := range rep.Statements {
			agreeing += s.Agreeing
			conflicting += s.Conflicting
		}
		if conflicting != len(rep.Conflicts) || agreeing < rep.Corroborated {
			t.Errorf("%s: statements agree %d times and conflict %d times; %d conflicts listed, %d routes corroborated", day, agreeing, conflicting, len(rep.Conflicts), rep.Corroborated)
		}
	}
	if rep := ev.Corroboration(entrycheck.DateOf(today.Now())); rep.Corroborated < 500 || rep.Conflicting < 3 {
		t.Fatalf("the statements corroborate %d routes and contradict %d; the official lists cover about 520", rep.Corroborated, rep.Conflicting)
	}
	// Each route's answer says the same as the report.
	wantOK, wantConflict := datatest.StatementRoutes(t, entrycheck.DateOf(today.Now()).String())
	for route := range wantOK {
		r := check(t, entrycheck.CheckRequest{Passport: route[:3], Destination: route[4:]})
		if len(r.VerdictVerification.CorroboratedBy()) == 0 {
			t.Errorf("%s is corroborated in the data; its answer: %+v", route, r.VerdictVerification)
		}
	}
	for route := range wantConflict {
		if r := check(t, entrycheck.CheckRequest{Passport: route[:3], Destination: route[4:]}); r.Requirement != entrycheck.NeedsReview {
			t.Errorf("%s conflicts in the data; its answer is %s", route, r.Requirement)
		}
	}
}

// TestCorroboratedRoutesOfTheIssue: the official lists corroborate the
// United Kingdom's verdicts for Indian and German passports, New Zealand's
// for German ones and China's for Brazilian ones (the extension to 31
// December 2026).
func TestCorroboratedRoutesOfTheIssue(t *testing.T) {
	for _, tc := range []struct{ p, d, statement string }{
		{"IND", "GBR", "GBR-2026-07-govuk-visa-nationals"},
		{"DEU", "GBR", "GBR-2026-07-govuk-eta-nationals"},
		{"DEU", "NZL", "NZL-2026-11-visa-waiver-countries-nzeta"},
		{"BRA", "CHN", chinaExtension},
	} {
		r := check(t, entrycheck.CheckRequest{Passport: tc.p, Destination: tc.d})
		if by := r.VerdictVerification.CorroboratedBy(); len(by) != 1 || by[0] != tc.statement {
			t.Errorf("%s to %s: corroborated by %q, want %s", tc.p, tc.d, by, tc.statement)
		}
	}
}
