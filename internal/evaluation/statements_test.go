package evaluation_test

import (
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// The US suspension of entry under Proclamation 10998, from 1 January 2026,
// and China's visa-free scheme for five Latin American passports, from
// 1 June 2025 to 31 May 2026, as the curators' notes cite them.
const (
	usSuspension = "USA-2026-01-full-suspension-p10998"
	usSource     = "https://travel.state.gov/"
	latamChina   = "CHN-2025-06-latam-visa-free"
	// chinaExtension extends China's visa exemption for 45 passports to 31
	// December 2026.
	chinaExtension = "CHN-2025-11-unilateral-visa-free-extension-45"
)

// TestStatementWithoutStartHoldsFromItsReading: Brazil's statement for
// Australian passports gives no start, so it is applied from the day its
// source was read (22 November 2026), and shown as upcoming before.
func TestStatementWithoutStartHoldsFromItsReading(t *testing.T) {
	const id = "BRA-2026-11-visit-e-visa-aus-can-usa"
	before := checkOn(t, on(2026, 11, 21), "AUS", "BRA")
	after := checkOn(t, on(2026, 11, 22), "AUS", "BRA")
	s, ok := statement(before, id)
	if !ok || s.Status != entrycheck.StatementUpcoming || s.EffectiveFrom != nil || !strings.Contains(s.Period(), "22 November 2026 (the day the source was read)") {
		t.Errorf("AUS to BRA on 2026-11-21: statement %+v, period %q; want upcoming until the day it was read", s, s.Period())
	}
	if before.VerdictVerification.Note == after.VerdictVerification.Note {
		t.Errorf("the note is the same before and after the reading: %q", after.VerdictVerification.Note)
	}
	if s, ok := statement(after, id); !ok || s.Status != entrycheck.StatementInForce {
		t.Errorf("AUS to BRA on 2026-11-22: statement %+v, want in force", s)
	}
}

func on(year int, month time.Month, day int) entrycheck.Clock {
	return entrycheck.FixedClock(time.Date(year, month, day, 9, 0, 0, 0, time.UTC))
}

func checkOn(t *testing.T, clock entrycheck.Clock, p, d string) entrycheck.CheckResult {
	t.Helper()
	r, err := datatest.Evaluator(t).Check(entrycheck.CheckRequest{Passport: p, Destination: d}, clock)
	if err != nil {
		t.Fatalf("%s to %s: %v", p, d, err)
	}
	return r
}

func statement(r entrycheck.CheckResult, id string) (entrycheck.CheckedStatement, bool) {
	for _, s := range r.VerdictVerification.OfficialStatements {
		if s.ID == id {
			return s, true
		}
	}
	return entrycheck.CheckedStatement{}, false
}

// TestVerdictAge: every answer says the date its verdict is as of, the age
// of that date and whether it is old, in a field and in plain words.
func TestVerdictAge(t *testing.T) {
	r := checkOn(t, on(2026, 11, 23), "DEU", "GBR")
	v := r.VerdictVerification
	if r.Requirement != entrycheck.ETA || r.DatasetVersion != "2026-02-17" || v.AsOf.String() != "2026-02-17" {
		t.Fatalf("DEU to GBR: %s, dataset %s, as of %s; want eta as of the 2026-02-17 snapshot", r.Requirement, r.DatasetVersion, v.AsOf)
	}
	if v.AgeDays != 279 || v.OldAfterDays != entrycheck.VerdictOldAfterDays || !v.Old {
		t.Errorf("age %d days (old after %d, old %v), want 279 days and old", v.AgeDays, v.OldAfterDays, v.Old)
	}
	if !contains(r.Assumptions, "as of 17 February 2026, more than 180 days") {
		t.Errorf("no assumption says the verdict is old: %q", r.Assumptions)
	}
	if v.Status != entrycheck.VerdictSecondarySourceOnly {
		t.Errorf("an old verdict's status is %s, want it to stay secondary_source_only", v.Status)
	}

	young := checkOn(t, on(2026, 5, 1), "DEU", "GBR")
	if y := young.VerdictVerification; y.AgeDays != 73 || y.Old || contains(young.Assumptions, "more than 180 days") {
		t.Errorf("on 2026-05-01: age %d, old %v, assumptions %q; want 73 days, not old", y.AgeDays, y.Old, young.Assumptions)
	}
	// old_from is the first day of age 181, the first that counts as old.
	if y := young.VerdictVerification; y.OldFrom.String() != "2026-08-17" {
		t.Errorf("old from %s, want 2026-08-17", y.OldFrom)
	}
	for day, old := range map[int]bool{16: false, 17: true} {
		if v := checkOn(t, on(2026, 8, day), "DEU", "GBR").VerdictVerification; v.Old != old || v.AgeDays != 164+day {
			t.Errorf("on 2026-08-%d: age %d, old %v", day, v.AgeDays, v.Old)
		}
	}
	// A clock before the snapshot (tests, replays) gives age 0, never negative.
	if early := checkOn(t, on(2025, 7, 1), "DEU", "GBR").VerdictVerification; early.AgeDays != 0 || early.Old {
		t.Errorf("before the snapshot: age %d, old %v", early.AgeDays, early.Old)
	}
	// The own-country answer and a route outside the matrix are dated too.
	for _, route := range [][2]string{{"DEU", "DEU"}, {"DEU", "PRI"}} {
		if v := checkOn(t, on(2026, 11, 23), route[0], route[1]).VerdictVerification; v.AsOf.String() != "2026-02-17" || v.AgeDays != 279 {
			t.Errorf("%s to %s: as of %s, %d days", route[0], route[1], v.AsOf, v.AgeDays)
		}
	}
}

// TestStatementInForceConflicts: on 23 November 2026 the US suspension is in
// force; where the matrix says visa required, the route needs review and the
// answer shows the statement; where the matrix agrees, it corroborates.
func TestStatementInForceConflicts(t *testing.T) {
	for _, p := range []string{"SYR", "LAO"} {
		r := checkOn(t, on(2026, 11, 23), p, "USA")
		s, ok := statement(r, usSuspension)
		if r.Requirement != entrycheck.NeedsReview || r.Action != entrycheck.ActionCheckOfficialAuthority ||
			r.VerdictVerification.Status != entrycheck.VerdictNeedsReview || !ok {
			t.Fatalf("%s to USA: %s, action %s, %s, statement found %v", p, r.Requirement, r.Action, r.VerdictVerification.Status, ok)
		}
		if s.Status != entrycheck.StatementInForce || s.AgreesWithMatrix || s.Requirement != entrycheck.NoAdmission ||
			s.EffectiveFrom == nil || s.EffectiveFrom.String() != "2026-01-01" || !strings.HasPrefix(s.Source.URL, usSource) || s.Text == "" {
			t.Errorf("%s to USA: statement %+v", p, s)
		}
		if *r.Source.MatrixValue != "visa required" || r.AllowedStayDays.Valid {
			t.Errorf("%s to USA: matrix value %q, stay %v", p, *r.Source.MatrixValue, r.AllowedStayDays)
		}
	}
	r := checkOn(t, on(2026, 11, 23), "AFG", "USA")
	s, ok := statement(r, usSuspension)
	if r.Requirement != entrycheck.NoAdmission || r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly ||
		!ok || !s.AgreesWithMatrix || s.Status != entrycheck.StatementInForce {
		t.Errorf("AFG to USA: %s, %s, statement %+v; want no_admission corroborated", r.Requirement, r.VerdictVerification.Status, s)
	}
	if !strings.Contains(r.VerdictVerification.Note, "agrees") || strings.Contains(strings.ToLower(r.VerdictVerification.Note), "officially verified") {
		t.Errorf("AFG to USA note: %q", r.VerdictVerification.Note)
	}
	// A passport the statement does not name is untouched.
	if r := checkOn(t, on(2026, 11, 23), "DEU", "USA"); len(r.VerdictVerification.OfficialStatements) != 0 || r.Requirement != entrycheck.ETA {
		t.Errorf("DEU to USA: %s with statements %+v", r.Requirement, r.VerdictVerification.OfficialStatements)
	}
}

// TestStatementUpcoming: before 1 January 2026 the suspension is shown as
// upcoming and the matrix verdict stands.
func TestStatementUpcoming(t *testing.T) {
	r := checkOn(t, on(2025, 12, 1), "SYR", "USA")
	s, ok := statement(r, usSuspension)
	if r.Requirement != entrycheck.VisaRequired || r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly ||
		!ok || s.Status != entrycheck.StatementUpcoming {
		t.Fatalf("SYR to USA on 2025-12-01: %s, %s, statement %+v", r.Requirement, r.VerdictVerification.Status, s)
	}
	if !strings.Contains(r.VerdictVerification.Note, "takes effect after the travel date") {
		t.Errorf("note %q", r.VerdictVerification.Note)
	}
}

// TestStatementPeriod: China's scheme for Brazilians corroborates the
// matrix while in force and is history, not applied, once ended.
func TestStatementPeriod(t *testing.T) {
	r := checkOn(t, on(2025, 7, 1), "BRA", "CHN")
	s, ok := statement(r, latamChina)
	if r.Requirement != entrycheck.VisaFree || r.AllowedStayDays != entrycheck.SomeDays(30) || !ok ||
		s.Status != entrycheck.StatementInForce || !s.AgreesWithMatrix || r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly {
		t.Fatalf("BRA to CHN on 2025-07-01: %s %v, statement %+v", r.Requirement, r.AllowedStayDays, s)
	}
	if !strings.Contains(r.VerdictVerification.Note, "in force on the travel date agrees") {
		t.Errorf("note %q", r.VerdictVerification.Note)
	}
	// It ended on 31 May 2026; China's extension to 31 December 2026 for
	// 45 passports, Brazil's among them, corroborates the verdict since.
	r = checkOn(t, on(2026, 11, 27), "BRA", "CHN")
	s, ok = statement(r, latamChina)
	ext, extOK := statement(r, chinaExtension)
	if !ok || s.Status != entrycheck.StatementEnded || !extOK || ext.Status != entrycheck.StatementInForce || !ext.AgreesWithMatrix ||
		r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly || !strings.Contains(r.VerdictVerification.Note, "in force on the travel date agrees") ||
		r.Requirement != entrycheck.VisaFree {
		t.Errorf("BRA to CHN on 2026-11-27: %s, note %q, statements %+v", r.Requirement, r.VerdictVerification.Note, r.VerdictVerification.OfficialStatements)
	}
	// Once the extension ends too, after the 2026-02-17 snapshot that
	// agreed with both, the verdict may still reflect a rule that ended.
	r = checkOn(t, on(2027, 1, 15), "BRA", "CHN")
	if ext, ok := statement(r, chinaExtension); !ok || ext.Status != entrycheck.StatementEnded ||
		!strings.Contains(r.VerdictVerification.Note, "may still reflect the rule that ended") || r.Requirement != entrycheck.VisaFree {
		t.Errorf("BRA to CHN on 2027-01-15: %s, note %q, statements %+v", r.Requirement, r.VerdictVerification.Note, r.VerdictVerification.OfficialStatements)
	}
	// China's 2023 trial for six passports ended before the snapshot: history only.
	r = checkOn(t, on(2026, 11, 23), "DEU", "CHN")
	if s, ok := statement(r, "CHN-2023-12-six-country-visa-free-trial"); !ok || s.Status != entrycheck.StatementEnded {
		t.Errorf("DEU to CHN: the 2023 trial is %+v", s)
	}
	if s, ok := statement(r, "CHN-2024-12-unilateral-visa-free-38"); !ok || s.Status != entrycheck.StatementInForce || !s.AgreesWithMatrix ||
		!strings.Contains(r.VerdictVerification.Note, "agrees") {
		t.Errorf("DEU to CHN: the 2024 scheme is %+v; note %q", s, r.VerdictVerification.Note)
	}
}

// TestTripStatementsOnLegDates: a trip compares statements on each leg's
// arrival, not on the day it is evaluated.
func TestTripStatementsOnLegDates(t *testing.T) {
	req, err := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler": {"passports": ["SYR"]},
		"trip": {"legs": [{"country": "USA", "arrival": "2025-12-20", "departure": "2025-12-24"},
		                  {"country": "USA", "arrival": "2026-01-10", "departure": "2026-01-12"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := datatest.Evaluator(t).EvaluateTrip(req, "", on(2025, 12, 1))
	if err != nil {
		t.Fatal(err)
	}
	before, after := res.Legs[0], res.Legs[1]
	if before.Requirement != entrycheck.VisaRequired || after.Requirement != entrycheck.NeedsReview {
		t.Errorf("leg before 2026-01-01: %s, leg after: %s; want visa_required then needs_review", before.Requirement, after.Requirement)
	}
	if s := before.VerdictVerification.OfficialStatements; len(s) != 1 || s[0].Status != entrycheck.StatementUpcoming {
		t.Errorf("first leg's statements: %+v", s)
	}
	if before.VerdictVerification.AsOf.String() != "2026-02-17" {
		t.Errorf("a leg's verdict is as of %s", before.VerdictVerification.AsOf)
	}
	if !contains(after.Why, usSuspension) {
		t.Errorf("the second leg's why does not name the statement: %q", after.Why)
	}
}
