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
// makes the answers of `check` needs_review, and is verified again once a
// curator accepts it.
func TestReviewFlow(t *testing.T) {
	db := filepath.Join(t.TempDir(), "events.db")
	var validity entrycheck.CitedRecord
	for _, r := range datatest.Evaluator(t).Snapshot().Curated.Records() {
		if r.Destination == "THA" && r.Field == entrycheck.FieldPassportValidity {
			validity = r
		}
	}
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
		Time: time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC), Destinations: []string{"THA"}, Fields: []string{"passport_validity"}, Summary: "flag", Details: flag}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut := run(t, "review", "--db", db)
	if code != cli.ExitOK || !strings.Contains(out, "flag/20261122T030000Z/THA/passport_validity/abc") || !strings.Contains(out, "three months") || !strings.Contains(out, "1 records need review") {
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
		return r.EntryRulesVerification.Status + " " + strings.Join(r.EntryRulesVerification.FlaggedFields, ",")
	}
	if s := status(); s != "needs_review passport_validity" {
		t.Fatalf("flagged: %s", s)
	}
	if code, _, errOut := run(t, "review", "accept", "flag/unknown", "--note", "x", "--db", db); code != cli.ExitUsage || !strings.Contains(errOut, "no open flag") {
		t.Fatalf("unknown flag: exit %d %s", code, errOut)
	}
	if code, _, errOut := run(t, "review", "accept", "flag/20261122T030000Z/THA/passport_validity/abc", "--db", db); code != cli.ExitUsage || !strings.Contains(errOut, "needs a note") {
		t.Fatalf("no note: exit %d %s", code, errOut)
	}
	code, out, errOut = run(t, "review", "accept", "flag/20261122T030000Z/THA/passport_validity/abc", "--note", "Still six months for visitors.", "--db", db)
	if code != cli.ExitOK || !strings.Contains(out, "review/flag/20261122T030000Z/THA/passport_validity/abc") {
		t.Fatalf("accept: exit %d\n%s%s", code, out, errOut)
	}
	if s := status(); s != "verified_official_sources " {
		t.Fatalf("accepted: %s", s)
	}
	if code, out, _ := run(t, "review", "--db", db); code != cli.ExitOK || !strings.Contains(out, "no record needs review") {
		t.Fatalf("after review: %s", out)
	}
}
