package cli_test

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// testClock is the day of the tests: the day the newest curated sources were read.
var testClock = entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("ENTRYCHECK_DATA", datatest.MatrixDir(t, datatest.Current))
	t.Setenv("ENTRYCHECK_GEO", datatest.GeoDir(t))
	var out, errOut bytes.Buffer
	code = cli.Run(cli.Env{Stdout: &out, Stderr: &errOut, Clock: testClock}, args)
	return code, out.String(), errOut.String()
}

func TestCheckForPeople(t *testing.T) {
	code, out, errOut := run(t, "check", "DEU", "THA")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Passport of Germany (DEU) to Thailand (THA)", "Visa-free, up to 60 days", "Passport validity:", "Source: UK FCDO", "Advisory only"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckJSONIsTheAPIResult(t *testing.T) {
	code, out, errOut := run(t, "check", "GBR", "USA", "--transit", "CAN", "--json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"passport", "destination", "requirement", "requirement_label", "allowed_stay_days", "action", "apply", "entry_rules", "transit", "assumptions", "defaults_applied", "verdict_verification", "entry_rules_verification", "dataset_version", "evaluated_at", "request_id", "source", "disclaimer"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %s", k)
		}
	}
	if r["requirement"] != "eta" || r["evaluated_at"] != "2026-11-27T12:00:00Z" {
		t.Errorf("requirement %v, evaluated_at %v", r["requirement"], r["evaluated_at"])
	}
}

func TestInvalidCodesExitNonZeroWithSuggestions(t *testing.T) {
	cases := map[string][]string{
		"DEU (Germany)":        {"check", "GER", "THA"},
		"GBR (United Kingdom)": {"check", "DEU", "UK"},
	}
	for want, args := range cases {
		code, out, errOut := run(t, args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 suggesting %s", args, code, errOut, want)
		}
	}
	if code, _, _ := run(t, "check", "DEU"); code != cli.ExitUsage {
		t.Errorf("one argument: exit %d", code)
	}
	if code, _, _ := run(t, "nonsense"); code != cli.ExitUsage {
		t.Errorf("unknown command: exit %d", code)
	}
}

func TestBadDatasetExitsWithFailure(t *testing.T) {
	code, _, errOut := run(t, "check", "DEU", "THA", "--data", t.TempDir())
	if code != cli.ExitFailure || !strings.Contains(errOut, "passport-index-tidy-iso3.csv") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestPassportCommand(t *testing.T) {
	code, out, errOut := run(t, "passport", "DEU")
	if code != cli.ExitOK || !strings.Contains(out, "Visa-free (") || !strings.Contains(out, "THA Thailand (60 days)") {
		t.Errorf("exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
}

// TestHelpOnlyPrintsUsage: -h prints the command's usage and does nothing
// else: no build, no server, no verification run.
func TestHelpOnlyPrintsUsage(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	for _, cmd := range []string{"build", "serve", "verify", "review"} {
		code, _, stderr := run(t, cmd, "-h", "--public", public, "--db", filepath.Join(dir, "e.db"), "--addr", "127.0.0.1:1")
		if code != 0 || !strings.Contains(stderr, "Usage") && !strings.Contains(stderr, "usage") {
			t.Errorf("%s -h: exit %d, stderr %q", cmd, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("-h left %d files behind", len(entries))
	}
}

// TestServeStopsWhenItsPortIsTaken: serve exits non-zero with the bind
// error instead of waiting for its scheduled verification.
func TestServeStopsWhenItsPortIsTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	t.Setenv("ENTRYCHECK_IP_HASH_KEY", "a test key of at least thirty-two characters")
	t.Setenv("ENTRYCHECK_VERIFY_AT", "03:00")
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = run(t, "serve", "--addr", ln.Addr().String(), "--public", dir, "--db", filepath.Join(dir, "e.db"),
			"--data", datatest.MatrixDir(t, datatest.Current))
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("serve is still running a minute after its port was found taken")
	}
	if code == 0 || !strings.Contains(stderr, "listening on "+ln.Addr().String()) {
		t.Errorf("serve on a taken port: exit %d, stderr %q", code, stderr)
	}
}

// TestServeRefusesAnotherAddressHashKey: a database first served with one
// address-hash key is not served with another (each instance would count
// quotas apart), and is again with the first.
func TestServeRefusesAnotherAddressHashKey(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close() // serve stops at the taken port once the key is accepted
	dir := t.TempDir()
	t.Setenv("ENTRYCHECK_VERIFY_AT", "")
	serveWith := func(key string) string {
		t.Helper()
		t.Setenv("ENTRYCHECK_IP_HASH_KEY", key)
		code, _, stderr := run(t, "serve", "--addr", ln.Addr().String(), "--public", dir, "--db", filepath.Join(dir, "e.db"),
			"--data", datatest.MatrixDir(t, datatest.Current))
		if code == 0 {
			t.Fatalf("serve with key %q on a taken port exited 0", key)
		}
		return stderr
	}
	first, second := "the first key, of at least thirty-two characters", "another key, of at least thirty-two characters"
	for _, step := range []struct {
		key     string
		refused bool
	}{{first, false}, {second, true}, {first, false}} {
		stderr := serveWith(step.key)
		refused := strings.Contains(stderr, "another address-hash key")
		if refused != step.refused || !refused && !strings.Contains(stderr, "listening on") {
			t.Errorf("key %q: refused %v, want %v: %s", step.key, refused, step.refused, stderr)
		}
	}
}

// A price setting that names no paid route is a mistake to report, not to
// ignore.
func TestUnknownPriceSettingIsRefused(t *testing.T) {
	t.Setenv("ENTRYCHECK_PRICE_CHEK", "0.05")
	dir := t.TempDir()
	code, _, stderr := run(t, "serve", "--addr", "127.0.0.1:1", "--public", dir, "--db", filepath.Join(dir, "e.db"))
	if code != cli.ExitUsage || !strings.Contains(stderr, "ENTRYCHECK_PRICE_CHEK:") || !strings.Contains(stderr, "ENTRYCHECK_PRICE_CHECK") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
