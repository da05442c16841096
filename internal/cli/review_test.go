package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

// TestReviewFlow: a record flagged by the verification shows in `review`,
// makes the answers of `check` needs_review, and is verified on the live
// page once a curator accepts it; a first reading of another page shows as
// a baseline awaiting confirmation, and is confirmed the same way. The other
// rules, read from stored copies, keep the destination stale.
func TestReviewFlow(t *testing.T) {
	db := filepath.Join(t.TempDir(), "events.db")
	var validity, onward entrycheck.CitedRecord
	for _, r := range datatest.Evaluator(t).Snapshot().Curated.Records() {
		if r.Destination == "THA" && r.Field == entrycheck.FieldPassportValidity {
			validity = r
		}
		if r.Destination == "THA" && r.Field == entrycheck.FieldOnwardTicket {
			onward = r
		}
	}
	if onward.Source.URL == validity.Source.URL {
		t.Fatal("the test needs two pages")
	}
	baseline, _ := json.Marshal(changes.SourceCheck{URL: onward.Source.URL, SourceName: onward.Source.Name, RunID: "20261122T030000Z", HTTPStatus: 200,
		Records: []changes.RecordRef{{Destination: "THA", Field: entrycheck.FieldOnwardTicket}}})
	flag, _ := json.Marshal(changes.Flag{
		RecordRef: changes.RecordRef{Destination: "THA", Field: entrycheck.FieldPassportValidity},
		URL:       validity.Source.URL, SourceName: validity.Source.Name, ChangeEvent: "source/x", Change: `1 line added, 1 removed; added: "three months"`,
	})
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = changes.Append(ctx, st, []changes.Event{{ID: "flag/20261122T030000Z/THA/passport_validity/abc", Kind: changes.KindRuleFlagged,
		Time: time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC), Destinations: []string{"THA"}, Fields: []string{"passport_validity"}, Summary: "flag", Details: flag},
		{ID: "source/20261122T030000Z/onward", Kind: changes.KindSourceBaselined, Time: time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC),
			Destinations: []string{"THA"}, Fields: []string{"onward_ticket"}, Summary: "Read for the first time", Details: baseline}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut := run(t, "review", "--db", db)
	if code != cli.ExitOK || !strings.Contains(out, "flag/20261122T030000Z/THA/passport_validity/abc") || !strings.Contains(out, "three months") || !strings.Contains(out, "1 records need review") ||
		!strings.Contains(out, "source/20261122T030000Z/onward\n  baseline: first live reading, awaiting confirmation") || !strings.Contains(out, "  record:   THA onward_ticket\n") {
		t.Fatalf("review list: exit %d\n%s%s", code, out, errOut)
	}
	status := func() string {
		t.Helper()
		code, out, errOut := run(t, "check", "DEU", "THA", "--json", "--db", db)
		if code != cli.ExitOK {
			t.Fatalf("check: exit %d: %s", code, errOut)
		}
		var r entrycheck.CheckResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.EntryRulesVerification.Status + " " + r.EntryRulesVerification.Reason + " " + strings.Join(r.EntryRulesVerification.FlaggedFields, ",")
	}
	if s := status(); s != "needs_review flagged passport_validity" {
		t.Fatalf("flagged: %s", s)
	}
	if code, _, errOut := run(t, "review", "accept", "flag/unknown", "--note", "x", "--db", db); code != cli.ExitUsage || !strings.Contains(errOut, "no open flag or baseline") {
		t.Fatalf("unknown flag: exit %d %s", code, errOut)
	}
	if code, _, errOut := run(t, "review", "accept", "flag/20261122T030000Z/THA/passport_validity/abc", "--db", db); code != cli.ExitUsage || !strings.Contains(errOut, "needs a note") {
		t.Fatalf("no note: exit %d %s", code, errOut)
	}
	code, out, errOut = run(t, "review", "accept", "flag/20261122T030000Z/THA/passport_validity/abc", "--note", "Still six months for visitors.", "--db", db)
	if code != cli.ExitOK || !strings.Contains(out, "review/flag/20261122T030000Z/THA/passport_validity/abc") {
		t.Fatalf("accept: exit %d\n%s%s", code, out, errOut)
	}
	if s := status(); s != "stale stored_copy " {
		t.Fatalf("accepted: %s", s)
	}
	code, out, errOut = run(t, "review", "accept", "source/20261122T030000Z/onward", "--note", "The live page asks for a return ticket.", "--db", db)
	if code != cli.ExitOK || !strings.Contains(out, "review/source/20261122T030000Z/onward: Confirmed on the live page") {
		t.Fatalf("confirm: exit %d\n%s%s", code, out, errOut)
	}
	if s := status(); s != "stale stored_copy " {
		t.Fatalf("confirmed: %s", s)
	}
	if code, out, _ := run(t, "review", "--db", db); code != cli.ExitOK || !strings.Contains(out, "no record needs review") || strings.Contains(out, "baseline") {
		t.Fatalf("after review: %s", out)
	}
}

// TestCheckTextCitesPageDetail: the text answer cites the official
// statement's page with what is known of it, in the words every other
// place uses (entrycheck.Citation.Detail).
func TestCheckTextCitesPageDetail(t *testing.T) {
	r, err := datatest.Evaluator(t).Check(entrycheck.CheckRequest{Passport: "SYR", Destination: "USA"}, entrycheck.FixedClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)))
	if err != nil || len(r.VerdictVerification.OfficialStatements) == 0 {
		t.Fatalf("SYR to USA: %v, %+v", err, r.VerdictVerification)
	}
	src := r.VerdictVerification.OfficialStatements[0].Source
	if src.Detail() == "" {
		t.Fatalf("the statement's citation says nothing of its page: %+v", src)
	}
	code, out, errOut := run(t, "check", "SYR", "USA", "--db", filepath.Join(t.TempDir(), "e.db"))
	if code != cli.ExitOK || !strings.Contains(out, "Source: "+src.Name+" <"+src.URL+">, "+src.ReadText()+"\n") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
}

// TestReviewListsStatementConflicts: review gives the numbers of routes
// official statements corroborate and contradict on its day, as worked out
// from the curators' notes and the matrix, and names every conflict.
func TestReviewListsStatementConflicts(t *testing.T) {
	code, out, errOut := run(t, "review", "--db", filepath.Join(t.TempDir(), "events.db"))
	if code != cli.ExitOK {
		t.Fatalf("review: exit %d\n%s%s", code, out, errOut)
	}
	corroborated, conflicting := datatest.StatementRoutes(t, entrycheck.DateOf(testClock.Now()).String())
	want := "official statements on " + entrycheck.DateOf(testClock.Now()).String() + ": " + entrycheck.Thousands(len(corroborated)) +
		" routes corroborated, " + entrycheck.Thousands(len(conflicting)) + " in conflict with the matrix\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("review does not begin with %q:\n%s", want, out)
	}
	if got := strings.Count(out, "\n  conflict: "); got != len(conflicting) || len(conflicting) == 0 {
		t.Errorf("review lists %d conflicts, the data gives %d:\n%s", got, len(conflicting), out)
	}
	for _, name := range []string{"Nauru to Italy", "Nicaragua to United Kingdom", "Saint Lucia to United Kingdom"} {
		if !strings.Contains(out, "  conflict: "+name+": ") {
			t.Errorf("review does not list %s:\n%s", name, out)
		}
	}
}
