package entrycheck_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestMakeRunTakesADDR: `make run ADDR=...` serves on that address and
// builds the site and the discovery documents for the matching base URL.
func TestMakeRunTakesADDR(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", "-n", "run", "ADDR=127.0.0.1:9000")
	cmd.Env = append(cmd.Environ(), "ENTRYCHECK_ADDR=", "ENTRYCHECK_BASE_URL=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	var build, serve bool
	for line := range strings.Lines(string(out)) {
		switch {
		case strings.Contains(line, "entrycheck build "):
			build = strings.Contains(line, "--base-url http://127.0.0.1:9000 ")
		case strings.Contains(line, "entrycheck serve "):
			serve = strings.Contains(line, "--addr 127.0.0.1:9000 ") && strings.Contains(line, "--base-url http://127.0.0.1:9000 ")
		}
	}
	if !build || !serve {
		t.Errorf("make run ADDR=127.0.0.1:9000: build for the base URL %v, serve on the address %v:\n%s", build, serve, out)
	}
}

// TestMakeTestKeepsTheHabits: `make test` runs, beside the test suite,
// staticcheck at the pinned version, the templ drift check, the race
// detector and the fuzz targets, each announced with an ==> line.
func TestMakeTestKeepsTheHabits(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command("make", "-n", "test").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n test: %v\n%s", err, out)
	}
	steps := []struct {
		what, command string
		announced     bool // by the line just before; else it follows a step that is
	}{
		{"staticcheck", "run honnef.co/go/tools/cmd/staticcheck@v", true},
		{"the templ drift check", "bash scripts/templ-check.sh", true},
		{"the whole test suite", "test -count=1 -timeout 30m ./...", true},
		{"the race detector on the concurrent packages", "test -race -count=1 -timeout 20m ./internal/store ", true},
		{"the race detector on internal/api's concurrency tests", "AnonymousQuotaUnderConcurrency", false},
		{"the fuzz targets", "bash scripts/fuzz.sh", true},
	}
	lines := strings.Split(string(out), "\n")
	for _, s := range steps {
		at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, s.command) })
		switch {
		case at < 0:
			t.Errorf("make test does not run %s (%q):\n%s", s.what, s.command, out)
		case s.announced && (at == 0 || !strings.HasPrefix(lines[at-1], `echo "==> `)):
			t.Errorf("make test runs %s without an ==> line just before it", s.what)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, " -race ") && strings.Contains(l, "internal/generator") {
			t.Errorf("make test runs the generator under -race, which CI cannot afford: %s", l)
		}
	}
}
