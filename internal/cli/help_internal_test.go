package cli

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
)

// runGuarded runs the command line and turns a panic into a test error,
// so that one command's panic does not hide the others'.
func runGuarded(t *testing.T, args []string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errOut, Clock: entrycheck.FixedClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("%s panics: %v", strings.Join(args, " "), p)
				code = -1
			}
		}()
		code = Run(env, args)
	}()
	return code, out.String(), errOut.String()
}

// TestEveryCommandAnswersHelp walks the command table, every command and
// each of its subcommands: -h and --help print the usage and exit 0, and do
// nothing else (no file is written where a command would write one).
func TestEveryCommandAnswersHelp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("ENTRYCHECK_DB", filepath.Join(dir, "entrycheck.db"))
	t.Setenv("ENTRYCHECK_PUBLIC", filepath.Join(dir, "public"))
	var lines [][]string
	for _, c := range commands() {
		lines = append(lines, []string{c.name})
		for _, sub := range c.subcommands {
			lines = append(lines, []string{c.name, sub})
		}
	}
	for _, line := range lines {
		for _, help := range []string{"-h", "--help"} {
			args := append(append([]string(nil), line...), help)
			code, out, errOut := runGuarded(t, args)
			if code != ExitOK || !strings.Contains(out+errOut, "Usage") {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want the usage and exit 0", strings.Join(args, " "), code, out, errOut)
			}
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*")); len(entries) != 0 {
		t.Errorf("help left files behind: %v", entries)
	}
}

// TestMissingArgumentsAreUsageErrors: a command or subcommand that needs
// arguments and is given none (or too few) exits 2 with its usage and
// says what it expected, instead of panicking or acting on nothing.
func TestMissingArgumentsAreUsageErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"check"}, "expected 2 arguments, got 0"},
		{[]string{"check", "DEU"}, "expected 2 arguments, got 1"},
		{[]string{"check", "DEU", "--json"}, "expected 2 arguments, got 1"},
		{[]string{"passport"}, "expected 1 argument, got 0"},
		{[]string{"trip"}, "expected 1 argument, got 0"},
		{[]string{"dataset", "diff", "OLD"}, "expected 2 arguments, got 1"},
		{[]string{"dataset", "pin"}, "expected 1 argument, got 0"},
		{[]string{"dataset"}, "Usage"},
		{[]string{"curation"}, "Usage"},
		{[]string{"review", "accept"}, "Usage"},
	} {
		code, _, errOut := runGuarded(t, c.args)
		if code != ExitUsage || !strings.Contains(errOut, c.says) || !strings.Contains(errOut, "Usage") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d saying %q and the usage", strings.Join(c.args, " "), code, errOut, ExitUsage, c.says)
		}
	}
	// A command added to the table must be sorted here: given cases above
	// when it takes arguments, or listed as one that runs without them.
	known := []string{"check", "passport", "trip", "dataset", "curation", "review", "build", "serve", "verify"}
	for _, c := range commands() {
		if !slices.Contains(known, c.name) {
			t.Errorf("command %s is not known to this test: add its missing-argument cases", c.name)
		}
	}
}
