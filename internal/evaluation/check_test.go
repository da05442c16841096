package evaluation_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// today is the controlled clock of the tests: the day the curated sources were read.
var today = entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))

func check(t *testing.T, req entrycheck.CheckRequest) entrycheck.CheckResult {
	t.Helper()
	r, err := datatest.Evaluator(t).Check(req, today)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return r
}

// checkPrevious checks a request on the previous snapshot, whose data shows
// what the current one does not: a route conflicting with an official
// statement.
func checkPrevious(t *testing.T, req entrycheck.CheckRequest) entrycheck.CheckResult {
	t.Helper()
	r, err := datatest.EvaluatorOf(t, datatest.Previous).Check(req, today)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return r
}

// TestAllRoutesAgreeWithTheCSV evaluates every route of the matrix and
// compares it with the CSV read independently here: the same requirement and
// days, except routes where a curated official statement conflicts (then
// needs_review).
func TestAllRoutesAgreeWithTheCSV(t *testing.T) {
	ev := datatest.Evaluator(t)
	f, err := os.Open(filepath.Join(datatest.MatrixDir(t, datatest.Current), "passport-index-tidy-iso3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	words := map[string]entrycheck.Requirement{
		"visa free": entrycheck.VisaFree, "visa on arrival": entrycheck.VisaOnArrival, "e-visa": entrycheck.EVisa,
		"eta": entrycheck.ETA, "visa required": entrycheck.VisaRequired, "no admission": entrycheck.NoAdmission,
	}
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	var recs [][]string
	for sc.Scan() {
		recs = append(recs, strings.Split(sc.Text(), ","))
	}
	_, conflicts := datatest.StatementRoutes(t, entrycheck.DateOf(today.Now()).String())
	routes, reviews := 0, 0
	for _, rec := range recs {
		if rec[2] == "-1" {
			continue
		}
		routes++
		want, days := words[rec[2]], entrycheck.Days{}
		if n, err := strconv.Atoi(rec[2]); err == nil {
			want, days = entrycheck.VisaFree, entrycheck.SomeDays(n)
		}
		r, err := ev.Check(entrycheck.CheckRequest{Passport: rec[0], Destination: rec[1]}, today)
		if err != nil {
			t.Fatalf("%s to %s: %v", rec[0], rec[1], err)
		}
		if r.Requirement == entrycheck.NeedsReview {
			reviews++
			if !conflicts[rec[0]+"-"+rec[1]] {
				t.Errorf("%s to %s is needs_review, but no statement in force conflicts with %q", rec[0], rec[1], rec[2])
			}
			if r.VerdictVerification.Status != entrycheck.VerdictNeedsReview || !hasConflict(r) {
				t.Errorf("%s to %s is needs_review without a conflicting official statement", rec[0], rec[1])
			}
			continue
		}
		if r.Requirement != want || r.AllowedStayDays != days {
			t.Errorf("%s to %s = %s %v, CSV says %q", rec[0], rec[1], r.Requirement, r.AllowedStayDays, rec[2])
		}
		if *r.Source.MatrixValue != rec[2] {
			t.Errorf("%s to %s: source.matrix_value %q, CSV %q", rec[0], rec[1], *r.Source.MatrixValue, rec[2])
		}
		if r.Action != want.Action() || r.RequirementLabel == "" || r.DatasetVersion != datatest.Current || r.Disclaimer == "" {
			t.Errorf("%s to %s: incomplete result %+v", rec[0], rec[1], r)
		}
	}
	if routes != 39402 {
		t.Errorf("%d routes evaluated, want 39402", routes)
	}
	if want := len(conflicts); reviews != want || want == 0 {
		t.Errorf("%d routes are needs_review, want %d (the routes where a statement in force conflicts with the CSV)", reviews, len(conflicts))
	}
}

func hasConflict(r entrycheck.CheckResult) bool {
	for _, s := range r.VerdictVerification.OfficialStatements {
		if !s.AgreesWithMatrix && s.Source.URL != "" {
			return true
		}
	}
	return false
}

func TestSpotChecks(t *testing.T) {
	cases := []struct {
		p, d   string
		req    entrycheck.Requirement
		days   entrycheck.Days
		action entrycheck.Action
	}{
		{"DEU", "THA", entrycheck.VisaFree, entrycheck.SomeDays(60), entrycheck.ActionNone},
		{"GBR", "USA", entrycheck.ETA, entrycheck.Days{}, entrycheck.ActionApplyBeforeTravel},
		{"ISR", "IRN", entrycheck.NoAdmission, entrycheck.Days{}, entrycheck.ActionEntryNotPermitted},
		{"FRA", "DEU", entrycheck.VisaFree, entrycheck.Days{}, entrycheck.ActionNone},
		{"USA", "CHN", entrycheck.VisaRequired, entrycheck.Days{}, entrycheck.ActionApplyBeforeTravel},
		{"DEU", "GBR", entrycheck.ETA, entrycheck.Days{}, entrycheck.ActionApplyBeforeTravel},
		{"USA", "BRA", entrycheck.EVisa, entrycheck.Days{}, entrycheck.ActionApplyBeforeTravel},
		{"IND", "PHL", entrycheck.VisaFree, entrycheck.SomeDays(14), entrycheck.ActionNone},
		{"DEU", "VNM", entrycheck.VisaFree, entrycheck.SomeDays(45), entrycheck.ActionNone},
		{"deu", "tha", entrycheck.VisaFree, entrycheck.SomeDays(60), entrycheck.ActionNone},
	}
	for _, c := range cases {
		r := check(t, entrycheck.CheckRequest{Passport: c.p, Destination: c.d})
		if r.Requirement != c.req || r.AllowedStayDays != c.days || r.Action != c.action {
			t.Errorf("%s to %s = %s %v %s, want %s %v %s", c.p, c.d, r.Requirement, r.AllowedStayDays, r.Action, c.req, c.days, c.action)
		}
		if r.Passport.ISO3 != strings.ToUpper(c.p) || r.Passport.ISO2 == "" || r.Destination.Name == "" {
			t.Errorf("%s to %s: countries %+v %+v", c.p, c.d, r.Passport, r.Destination)
		}
	}
}

// TestApplyOnlyWhereCurated: an apply object appears exactly when the
// requirement needs action and the destination has a portal for it.
func TestApplyOnlyWhereCurated(t *testing.T) {
	ev := datatest.Evaluator(t)
	snap := ev.Snapshot()
	gbrUSA := check(t, entrycheck.CheckRequest{Passport: "GBR", Destination: "USA"})
	if gbrUSA.Apply == nil || gbrUSA.Apply.URL != "https://esta.cbp.dhs.gov" || gbrUSA.Apply.Source.URL == "" {
		t.Errorf("GBR to USA (eta): apply = %+v, want the curated ESTA portal with its source", gbrUSA.Apply)
	}
	for _, p := range snap.Matrix.Countries() {
		for _, d := range snap.Matrix.Countries() {
			if p == d {
				continue
			}
			r := check(t, entrycheck.CheckRequest{Passport: p.ISO3, Destination: d.ISO3})
			portal := false
			if cur, ok := snap.Curated.Destinations[d.ISO3]; ok {
				for _, a := range cur.Apply {
					portal = portal || slices.Contains(a.Requirements, r.Requirement) && a.AppliesTo.Matches(p.ISO3, r.Requirement, inGroup(snap))
				}
			}
			if want := r.Requirement.NeedsAction() && portal; (r.Apply != nil) != want {
				t.Fatalf("%s to %s (%s): apply present = %v, want %v", p.ISO3, d.ISO3, r.Requirement, r.Apply != nil, want)
			}
		}
	}
}

// TestApplyHonoursAppliesTo: a portal whose applies_to names some
// passports is shown to them only, even where another passport has the
// requirement it serves.
func TestApplyHonoursAppliesTo(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	checked := 0
	for _, code := range snap.Curated.SortedCodes() {
		for _, a := range snap.Curated.Destinations[code].Apply {
			if a.AppliesTo == nil {
				continue
			}
			for _, p := range snap.Matrix.Countries() {
				r := check(t, entrycheck.CheckRequest{Passport: p.ISO3, Destination: code})
				if !slices.Contains(a.Requirements, r.Requirement) || r.Apply == nil || r.Apply.URL != a.URL {
					continue
				}
				checked++
				if !a.AppliesTo.Matches(p.ISO3, r.Requirement, inGroup(snap)) {
					t.Errorf("%s to %s: portal %s shown, but its applies_to is %+v", p.ISO3, code, a.URL, a.AppliesTo)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no portal with applies_to was shown to anyone: the test checks nothing")
	}
}

// inGroup resolves the named groups of the curated layer.
func inGroup(snap *dataset.Snapshot) func(group, code string) bool {
	return func(group, code string) bool { return slices.Contains(snap.Curated.Groups[group].Members, code) }
}

func TestUncoveredCodeIsUnknown(t *testing.T) {
	for _, c := range [][2]string{{"DEU", "PRI"}, {"PRI", "DEU"}, {"DEU", "GRL"}, {"ATA", "ATA"}} {
		r := check(t, entrycheck.CheckRequest{Passport: c[0], Destination: c[1]})
		if c[0] == c[1] {
			continue
		}
		if r.Requirement != entrycheck.Unknown || r.Action != entrycheck.ActionCheckOfficialAuthority || r.AllowedStayDays.Valid || r.Apply != nil || r.Source.MatrixValue != nil {
			t.Errorf("%s to %s = %s %s, want unknown with check_official_authority", c[0], c[1], r.Requirement, r.Action)
		}
	}
}

// TestCuratedConflictIsNeedsReview: in the previous snapshot the matrix
// gives USA to BRA 90 days visa-free where Brazil's official statement says
// e-visa; the current snapshot agrees with the statement.
func TestCuratedConflictIsNeedsReview(t *testing.T) {
	if r := check(t, entrycheck.CheckRequest{Passport: "USA", Destination: "BRA"}); r.Requirement != entrycheck.EVisa ||
		r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly || len(r.VerdictVerification.OfficialStatements) != 1 ||
		!r.VerdictVerification.OfficialStatements[0].AgreesWithMatrix {
		t.Errorf("USA to BRA in the current snapshot: %s %+v, want e_visa corroborated by the statement", r.Requirement, r.VerdictVerification)
	}
	r := checkPrevious(t, entrycheck.CheckRequest{Passport: "USA", Destination: "BRA"})
	if r.Requirement != entrycheck.NeedsReview || r.Action != entrycheck.ActionCheckOfficialAuthority {
		t.Fatalf("USA to BRA = %s %s, want needs_review, check_official_authority", r.Requirement, r.Action)
	}
	if r.AllowedStayDays.Valid || r.Apply != nil {
		t.Errorf("needs_review must not carry a guessed stay or portal: %v %+v", r.AllowedStayDays, r.Apply)
	}
	if r.VerdictVerification.Status != entrycheck.VerdictNeedsReview || !hasConflict(r) {
		t.Errorf("verdict_verification = %+v, want needs_review with the conflicting statement", r.VerdictVerification)
	}
	if *r.Source.MatrixValue != "90" {
		t.Errorf("the matrix value must still be reported, got %q", *r.Source.MatrixValue)
	}
	// An agreeing official statement corroborates without changing the
	// status: the United Kingdom's lists of ETA and visa nationals, New
	// Zealand's visa-waiver list.
	for _, tc := range []struct {
		p, d string
		want entrycheck.Requirement
	}{{"DEU", "GBR", entrycheck.ETA}, {"IND", "GBR", entrycheck.VisaRequired}, {"DEU", "NZL", entrycheck.ETA}} {
		r := check(t, entrycheck.CheckRequest{Passport: tc.p, Destination: tc.d})
		if r.Requirement != tc.want || r.VerdictVerification.Status != entrycheck.VerdictSecondarySourceOnly ||
			len(r.VerdictVerification.OfficialStatements) != 1 || !r.VerdictVerification.OfficialStatements[0].AgreesWithMatrix ||
			r.VerdictVerification.OfficialStatements[0].Status != entrycheck.StatementInForce {
			t.Errorf("%s to %s: %s %+v, want %s corroborated by a statement in force", tc.p, tc.d, r.Requirement, r.VerdictVerification, tc.want)
		}
	}
}

// TestOfficialListsConflictingWithTheMatrix: Italy's visa list names Nauru,
// and the United Kingdom moved Nicaragua and St Lucia to its visa list
// three days after the matrix snapshot; each route is needs_review with
// the list shown. Belarus to Vietnam has no statement: the one migrated
// from the first notes, open-ended though its text left Belarus out, is
// gone.
func TestOfficialListsConflictingWithTheMatrix(t *testing.T) {
	for _, tc := range []struct{ p, d, statement string }{
		{"NRU", "ITA", "ITA-2026-11-esteri-short-stay-visa-exempt"},
		{"NIC", "GBR", "GBR-2026-07-govuk-visa-nationals"},
		{"LCA", "GBR", "GBR-2026-07-govuk-visa-nationals"},
	} {
		r := check(t, entrycheck.CheckRequest{Passport: tc.p, Destination: tc.d})
		if r.Requirement != entrycheck.NeedsReview || !hasConflict(r) {
			t.Errorf("%s to %s: %s %+v, want needs_review with a conflicting statement", tc.p, tc.d, r.Requirement, r.VerdictVerification)
		}
		shown := false
		for _, s := range r.VerdictVerification.OfficialStatements {
			shown = shown || s.ID == tc.statement && s.Status == entrycheck.StatementInForce
		}
		if !shown {
			t.Errorf("%s to %s: statement %s in force is not shown: %+v", tc.p, tc.d, tc.statement, r.VerdictVerification.OfficialStatements)
		}
	}
	if r := check(t, entrycheck.CheckRequest{Passport: "BLR", Destination: "VNM"}); len(r.VerdictVerification.OfficialStatements) != 0 {
		t.Errorf("BLR to VNM: statements %+v, want none", r.VerdictVerification.OfficialStatements)
	}
}

// TestEntryRulesAreCited checks every route to every destination: each
// non-null rule field carries its own citation, and coverage follows curation.
func TestEntryRulesAreCited(t *testing.T) {
	ev := datatest.Evaluator(t)
	snap := ev.Snapshot()
	for _, d := range snap.Countries.All() {
		r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: d.ISO3})
		er := r.EntryRules
		var cites []entrycheck.Citation
		if x := er.PassportValidity; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.BlankPages; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.OnwardTicket; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.YellowFever; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.OtherHealth; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.TWOV; x != nil {
			cites = append(cites, x.Source)
		}
		if x := er.ResidencePermitExemptions; x != nil {
			cites = append(cites, x.Source)
		}
		for _, c := range cites {
			if c.Name == "" || !strings.HasPrefix(c.URL, "http") || c.RetrievedAt.IsZero() {
				t.Errorf("%s: rule with an incomplete citation %+v", d.ISO3, c)
			}
		}
		cur, curated := snap.Curated.Destinations[d.ISO3]
		want := entrycheck.CoverageBasic
		if curated && cur.Rules.Cited() {
			want = entrycheck.CoverageExtended
		}
		if er.Coverage != want {
			t.Errorf("%s: coverage %s, want %s", d.ISO3, er.Coverage, want)
		}
		if !curated && r.EntryRulesVerification.Status != entrycheck.RulesNotCurated {
			t.Errorf("%s: not curated but status %s", d.ISO3, r.EntryRulesVerification.Status)
		}
		if len(cites) > 0 && (er.LastVerified == nil || !er.StalenessDays.Valid) {
			t.Errorf("%s: cited rules without last_verified/staleness_days", d.ISO3)
		}
	}
}

// TestVerificationStateFollowsTheClock: the shipped rules were read from
// stored copies (or not recorded as read live), so they are stale whatever
// the day; read live, they are verified until the threshold and stale, not
// re-verified, after it.
func TestVerificationStateFollowsTheClock(t *testing.T) {
	ev := datatest.Evaluator(t)
	live := entrycheck.Verification{}
	for _, r := range ev.Snapshot().Curated.Records() {
		if r.Destination == "THA" {
			live[r.Key()] = entrycheck.RecordState{LastVerified: r.Source.RetrievedAt, Live: true}
		}
	}
	evLive := evaluation.NewVerified(ev.Snapshot(), live)
	req := entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}
	cases := []struct {
		at        time.Time
		ev        *evaluation.Evaluator
		status    string
		reason    string
		staleness int
	}{
		{time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC), ev, entrycheck.RulesStale, entrycheck.ReasonStoredCopy, 0},
		{time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC), ev, entrycheck.RulesStale, entrycheck.ReasonStoredCopy, 191},
		{time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC), evLive, entrycheck.RulesVerifiedOfficialSources, "", 0},
		{time.Date(2026, 12, 22, 0, 0, 0, 0, time.UTC), evLive, entrycheck.RulesVerifiedOfficialSources, "", 30},
		{time.Date(2026, 12, 23, 0, 0, 0, 0, time.UTC), evLive, entrycheck.RulesStale, entrycheck.ReasonNotReverified, 31},
		{time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC), evLive, entrycheck.RulesStale, entrycheck.ReasonNotReverified, 191},
	}
	for _, c := range cases {
		r, err := c.ev.Check(req, entrycheck.FixedClock(c.at))
		if err != nil {
			t.Fatal(err)
		}
		v := r.EntryRulesVerification
		if v.Status != c.status || v.Reason != c.reason || v.StalenessDays != entrycheck.SomeDays(c.staleness) || r.EntryRules.StalenessDays != v.StalenessDays {
			t.Errorf("at %s: %s (%s), %v days; want %s (%s), %d", c.at.Format(time.DateOnly), v.Status, v.Reason, v.StalenessDays, c.status, c.reason, c.staleness)
		}
		if v.LastVerified == nil || v.LastVerified.String() != "2026-11-22" || !r.EvaluatedAt.Equal(c.at) {
			t.Errorf("at %s: last_verified %v, evaluated_at %s", c.at, v.LastVerified, r.EvaluatedAt)
		}
	}
}

// TestShippedRulesAreNotVerifiedLive: with the shipped data and no live
// reading, no curated destination claims verified_official_sources: each
// with a cited rule is stale with the stored-copy reason, and its note
// names the day of its oldest rule reading that was not live.
func TestShippedRulesAreNotVerifiedLive(t *testing.T) {
	ev := datatest.Evaluator(t)
	snap := ev.Snapshot()
	oldest := map[string]entrycheck.Citation{}
	for _, r := range snap.Curated.Records() {
		if r.Destination == "" || r.Field == entrycheck.FieldOfficialStatement || r.Source.ReadFrom == entrycheck.ReadFromLive {
			continue
		}
		if o, ok := oldest[r.Destination]; !ok || r.Source.RetrievedAt.Before(o.RetrievedAt) {
			oldest[r.Destination] = r.Source
		}
	}
	now := entrycheck.FixedClock(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	for _, code := range snap.Curated.SortedCodes() {
		v, ok := ev.RulesVerification(code, now.Now())
		if !ok {
			t.Fatalf("%s: unknown", code)
		}
		c, cited := oldest[code]
		if !cited {
			if v.Status != entrycheck.RulesNotCurated {
				t.Errorf("%s: no cited rule but %s", code, v.Status)
			}
			continue
		}
		if v.Status != entrycheck.RulesStale || v.Reason != entrycheck.ReasonStoredCopy {
			t.Errorf("%s: %s (%s), want stale (stored_copy): %s", code, v.Status, v.Reason, v.Note)
		}
		if !strings.Contains(v.Note, c.RetrievedAt.Long()) || !strings.HasSuffix(v.Note, "not yet confirmed on the live page.") {
			t.Errorf("%s: note %q", code, v.Note)
		}
		if c.ReadFrom == entrycheck.ReadFromStoredCopy && !strings.HasPrefix(v.Note, "Rules read from a stored copy of unknown date on ") {
			t.Errorf("%s: note %q", code, v.Note)
		}
	}
}
