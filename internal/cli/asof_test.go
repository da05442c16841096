package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/cli"
)

// TestCheckSaysItsDate: the JSON and the text for people carry the date
// the verdict is as of, and the statement that overrides a verdict.
func TestCheckSaysItsDate(t *testing.T) {
	code, out, errOut := run(t, "check", "DEU", "GBR", "--json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r entrycheck.CheckResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	v := r.VerdictVerification
	if r.Requirement != entrycheck.ETA || r.DatasetVersion != "2026-02-17" || v.AsOf.String() != "2026-02-17" || v.AgeDays != 283 || !v.Old {
		t.Errorf("DEU GBR: %s, dataset %s, as of %s, %d days, old %v", r.Requirement, r.DatasetVersion, v.AsOf, v.AgeDays, v.Old)
	}
	_, text, _ := run(t, "check", "DEU", "GBR")
	if !strings.Contains(text, "required, as of 17 February 2026 (283 days old: older than 180 days, it may have changed") {
		t.Errorf("text:\n%s", text)
	}
	_, text, _ = run(t, "check", "SYR", "USA")
	for _, want := range []string{"Needs review", "Official statement, in force, from 1 January 2026; conflicts with the secondary visa table", "travel.state.gov"} {
		if !strings.Contains(text, want) {
			t.Errorf("check SYR USA lacks %q:\n%s", want, text)
		}
	}
}
