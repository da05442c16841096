package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// checkOut runs `entrycheck check` and the evaluator on the same request,
// so that expectations come from the data.
func checkOut(t *testing.T, req entrycheck.CheckRequest, args ...string) (string, entrycheck.CheckResult) {
	t.Helper()
	code, out, errOut := run(t, append([]string{"check", req.Passport, req.Destination}, args...)...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r, err := datatest.Evaluator(t).Check(req, testClock)
	if err != nil {
		t.Fatal(err)
	}
	return out, r
}

// TestCheckShowsTheRuleForThisPassport: the variant shown is the one that
// holds for the passport, with its own source.
func TestCheckShowsTheRuleForThisPassport(t *testing.T) {
	out, r := checkOut(t, entrycheck.CheckRequest{Passport: "FRA", Destination: "DEU"})
	pv := r.EntryRules.PassportValidity
	if pv == nil || pv.Applies != entrycheck.AppliesYes || *pv.Value.MinMonthsRemaining != 0 {
		t.Fatalf("FRA in DEU: %+v, want the EU citizens' variant", pv)
	}
	usaOut, usa := checkOut(t, entrycheck.CheckRequest{Passport: "USA", Destination: "DEU"})
	three := usa.EntryRules.PassportValidity.Value.Text
	if !strings.Contains(out, "Passport validity: "+pv.Value.Text) || !strings.Contains(out, pv.Source.URL) || strings.Contains(out, three) || strings.Contains(out, "renew") {
		t.Errorf("FRA in DEU shows:\n%s\nwant %q from %s and not the 3-month rule", out, pv.Value.Text, pv.Source.URL)
	}
	if *usa.EntryRules.PassportValidity.Value.MinMonthsRemaining != 3 || !strings.Contains(usaOut, "Passport validity: "+three) {
		t.Errorf("USA in DEU shows:\n%s\nwant the 3-month rule", usaOut)
	}
}

// TestCheckExemptionForListedNationals: Ireland's waiver for UK visa holders
// is not open to a Nigerian passport; for an Indian one it ended on 31
// October 2026, so on 27 November 2026 it is shown as ended and not
// applied.
func TestCheckExemptionForListedNationals(t *testing.T) {
	nga, ngaR := checkOut(t, entrycheck.CheckRequest{Passport: "NGA", Destination: "IRL", VisasOf: []string{"GBR"}}, "--visas-of", "GBR")
	_, plain := checkOut(t, entrycheck.CheckRequest{Passport: "NGA", Destination: "IRL"})
	if strings.Contains(nga, "Exemption: holding") || ngaR.Requirement != plain.Requirement {
		t.Errorf("NGA with a UK visa:\n%s\nwant the matrix's %s and no exemption", nga, plain.Requirement)
	}
	ind, indR := checkOut(t, entrycheck.CheckRequest{Passport: "IND", Destination: "IRL", VisasOf: []string{"GBR"}}, "--visas-of", "GBR")
	if indR.ExemptionApplied != nil || indR.Requirement != entrycheck.VisaRequired || strings.Contains(ind, "Exemption: holding") ||
		!strings.Contains(ind, "Ended on 31 October 2026; not applied: Short-Stay Visa Waiver Programme") {
		t.Errorf("IND with a UK visa on 2026-11-27:\n%s\nwant visa required and the waiver shown as ended", ind)
	}
}

// TestCheckDocumentedForOthers: Japan's blank-page fact is shown to a German
// passport as documented for British travellers.
func TestCheckDocumentedForOthers(t *testing.T) {
	out, r := checkOut(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "JPN"})
	bp := r.EntryRules.BlankPages
	if bp == nil || bp.Applies != entrycheck.AppliesDocumentedForOthers || !strings.Contains(out, "Blank pages: "+bp.Note+" "+bp.Value.Text) {
		t.Errorf("DEU in JPN:\n%s\nwant the blank-page fact documented for British travellers", out)
	}
}

// TestCheckNoComputedMargin: the United States' rule is shown as its text,
// which explains the exemption list; no margin is computed.
func TestCheckNoComputedMargin(t *testing.T) {
	out, r := checkOut(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "USA"})
	pv := r.EntryRules.PassportValidity
	if pv == nil || pv.Value.MinMonthsRemaining != nil || !strings.Contains(out, "Passport validity: "+pv.Value.Text) {
		t.Errorf("DEU to USA:\n%s\nwant the rule's text and no margin", out)
	}
}

// TestTripValidityForThePassport: a passport expiring three weeks after a
// stay in France needs renewing when American, not when German.
func TestTripValidityForThePassport(t *testing.T) {
	for _, c := range []struct {
		passport string
		renew    bool
	}{{"DEU", false}, {"USA", true}} {
		trip := `{"traveler": {"passports": [{"country": "` + c.passport + `", "expires": "2027-03-31"}]},
			"trip": {"legs": [{"country": "FRA", "arrival": "2027-03-01", "departure": "2027-03-10"}]}}`
		path := filepath.Join(t.TempDir(), "trip.json")
		if err := os.WriteFile(path, []byte(trip), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := run(t, "trip", path)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if strings.Contains(out, "renew") != c.renew {
			t.Errorf("%s passport, renewal %v expected:\n%s", c.passport, c.renew, out)
		}
	}
}
