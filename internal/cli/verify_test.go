package cli_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// TestVerifyReadsEverySource runs `entrycheck verify` against the real
// citations as an operator would from cron. Without internet access (CI)
// every source ends unreachable; with it, pages are read. Either way the
// command ends, names an outcome for every source and exits 0: unreadable
// pages are outcomes, not failures.
func TestVerifyReadsEverySource(t *testing.T) {
	t.Setenv("ENTRYCHECK_VERIFY_RETRIES", "0")
	t.Setenv("ENTRYCHECK_VERIFY_HOST_INTERVAL", "10ms")
	t.Setenv("ENTRYCHECK_VERIFY_REQUEST_TIMEOUT", "2s")
	t.Setenv("ENTRYCHECK_VERIFY_CONCURRENCY", "16")
	db := filepath.Join(t.TempDir(), "events.db")
	code, out, errOut := run(t, "verify", "--db", db, "--verify-timeout", "2m")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sources := len(verify.Sources(datatest.Evaluator(t).Snapshot().Curated.Records()))
	if !strings.Contains(out, fmt.Sprintf(": %d sources: ", sources)) {
		t.Fatalf("no summary for %d sources:\n%s", sources, out)
	}
	outcomes := 0
	for _, line := range strings.Split(out, "\n") {
		for _, o := range []string{verify.OutcomeReverified, verify.OutcomeBaselined, verify.OutcomeChanged, verify.OutcomeUnreachable} {
			if strings.HasPrefix(line, o+" ") {
				outcomes++
			}
		}
	}
	if outcomes != sources {
		t.Fatalf("%d outcome lines for %d sources:\n%s", outcomes, sources, out)
	}
}
