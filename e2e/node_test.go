package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nodeFor returns the node binary when the npm packages a test runs are
// installed in e2e/dir, or skips the test (fails on CI, where .ci/run
// installs them) saying what to run.
func nodeFor(t *testing.T, dir, test string, packages ...string) string {
	t.Helper()
	missing := func(what string) {
		msg := what + ": run `npm ci` in e2e/" + dir + " (needs Node.js 20+ and npm) to run " + test
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	for _, pkg := range packages {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			missing("e2e/" + dir + "/node_modules/" + pkg + " is missing")
		}
	}
	return bin
}

// TestEveryPeerIsListed: scripts/optional-suites.sh tells a developer how
// to install each JavaScript peer, so it names every folder that .ci/run
// installs (each e2e/ folder with a lock file).
func TestEveryPeerIsListed(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "scripts", "optional-suites.sh"))
	if err != nil {
		t.Fatal(err)
	}
	locks, err := filepath.Glob(filepath.Join("*", "package-lock.json"))
	if err != nil || len(locks) == 0 {
		t.Fatalf("no e2e/*/package-lock.json (%v)", err)
	}
	for _, lock := range locks {
		dir := filepath.Dir(lock)
		if !strings.Contains(string(script), `"`+dir+`:`) {
			t.Errorf("scripts/optional-suites.sh does not list e2e/%s", dir)
		}
	}
}
