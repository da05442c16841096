package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/cli"
)

func tripFile(name string) string {
	return filepath.Join("..", "evaluation", "testdata", "trips", name)
}

func TestTripForPeople(t *testing.T) {
	code, out, errOut := run(t, "trip", tripFile("yellow-fever.json"))
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Trip of 2 legs: ACTION NEEDED", "Leg 1: Kenya (KEN)", "Leg 2: Thailand (THA), 2027-02-10 to 2027-02-24", "[advisory, action needed] Yellow fever", "Why:", "Defaults applied:", "Advisory only"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTripJSONIsTheAPIResult(t *testing.T) {
	code, out, errOut := run(t, "trip", "--json", tripFile("schengen-over-90.json"))
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Summary struct {
			Status string `json:"status"`
		} `json:"summary"`
		Legs        []map[string]any `json:"legs"`
		Schengen    map[string]any   `json:"schengen"`
		EvaluatedAt string           `json:"evaluated_at"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.Summary.Status != "action_needed" || len(r.Legs) != 5 || r.Schengen["status"] != "not_met" || r.EvaluatedAt != "2026-11-27T12:00:00Z" {
		t.Errorf("summary %s, %d legs, schengen %v, evaluated_at %s", r.Summary.Status, len(r.Legs), r.Schengen["status"], r.EvaluatedAt)
	}
}

func TestTripFromStandardInput(t *testing.T) {
	f, err := os.Open(tripFile("unknown-leg.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdin := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = stdin }()
	code, out, errOut := run(t, "trip", "-")
	if code != cli.ExitOK || !strings.Contains(out, "Trip of 2 legs: UNKNOWN") || !strings.Contains(out, "Puerto Rico") {
		t.Errorf("exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
}

func TestInvalidTripListsEveryProblem(t *testing.T) {
	code, out, errOut := run(t, "trip", tripFile("invalid.json"))
	if code != cli.ExitUsage || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"(8 problems)", "/traveler/passports/0 [unknown_country_code]", "DEU (Germany)", "/traveler/passports/1/expires [invalid_date]",
		"/trip/legs/1/country [missing]", "/trip/legs/2/arrival [legs_out_of_order]"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [{"country": "THA", "arival": "2027-01-01"}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "trip", bad); code != cli.ExitUsage || !strings.Contains(errOut, "/trip/legs/0/arival [unknown_field]") {
		t.Errorf("unknown field: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := run(t, "trip", filepath.Join(t.TempDir(), "missing.json")); code != cli.ExitFailure || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := run(t, "trip"); code != cli.ExitUsage {
		t.Errorf("no file: exit %d", code)
	}
}
