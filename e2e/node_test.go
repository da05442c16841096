package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
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
