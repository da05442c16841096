package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// lintDir holds the locked Redocly CLI and its configuration
// (redocly.yaml: the recommended rules).
const lintDir = "openapi-lint"

// lintReport is what `redocly lint --format=json` prints.
type lintReport struct {
	Totals struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Ignored  int `json:"ignored"`
	} `json:"totals"`
	Version  string `json:"version"`
	Problems []struct {
		RuleID   string `json:"ruleId"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Location []struct {
			Pointer string `json:"pointer"`
			Start   struct {
				Line int `json:"line"`
				Col  int `json:"col"`
			} `json:"start"`
		} `json:"location"`
	} `json:"problems"`
}

// TestOpenAPIDocumentLintsClean lints the generated API description, as
// the default configuration serves it, with Redocly CLI's recommended
// rules: any error or warning fails the test, each one named with its
// rule, message and place.
func TestOpenAPIDocumentLintsClean(t *testing.T) {
	bin := nodeFor(t, lintDir, "the OpenAPI lint test", "@redocly/cli")
	lintedDocument := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(lintedDocument, apidoc.For(apidoc.SiteOf(config.Default(), datatest.Evaluator(t))), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, filepath.Join("node_modules", ".bin", "redocly"), "lint", "--format=json", lintedDocument)
	cmd.Dir = lintDir
	// Offline and quiet: no usage reports, no update notice.
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	runErr := cmd.Run() // exits 1 when there are errors: the report says which
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("redocly lint timed out\nstderr: %.4000s", stderr.String())
	}
	var report lintReport
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("redocly lint (%v) printed no JSON report: %v\nstdout: %.4000s\nstderr: %.4000s", runErr, err, stdout.String(), stderr.String())
	}
	t.Logf("Redocly CLI %s linted /openapi.json in %s: %d errors, %d warnings",
		report.Version, time.Since(start).Round(time.Millisecond), report.Totals.Errors, report.Totals.Warnings)

	for _, p := range report.Problems {
		where := "/openapi.json"
		if len(p.Location) > 0 {
			l := p.Location[0]
			where = fmt.Sprintf("%s (/openapi.json:%d:%d)", l.Pointer, l.Start.Line, l.Start.Col)
		}
		t.Errorf("%s %s: %s at %s", p.Severity, p.RuleID, p.Message, where)
	}
	if report.Totals.Errors+report.Totals.Warnings > 0 {
		t.Errorf("%d errors and %d warnings: fix internal/apidoc (see https://redocly.com/docs/cli/rules for each rule)", report.Totals.Errors, report.Totals.Warnings)
	}
	if report.Totals.Ignored > 0 {
		t.Errorf("%d problems are ignored by a lint-ignore file: fix them in the document instead", report.Totals.Ignored)
	}
	if runErr != nil && report.Totals.Errors == 0 {
		t.Errorf("redocly lint failed without reporting an error: %v\nstderr: %.4000s", runErr, stderr.String())
	}
}
