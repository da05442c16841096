package entrycheck_test

import (
	"os/exec"
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
