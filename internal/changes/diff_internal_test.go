package changes

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// Changes the shared snapshots do not have: stays, and requirement and stay together.
func TestRuleChangeFieldsAndSummary(t *testing.T) {
	deu := entrycheck.Country{ISO3: "DEU", ISO2: "DE", Name: "Germany"}
	tha := entrycheck.Country{ISO3: "THA", ISO2: "TH", Name: "Thailand"}
	days := func(n int) dataset.Verdict {
		return dataset.Verdict{Requirement: entrycheck.VisaFree, Days: entrycheck.SomeDays(n), Raw: strconv.Itoa(n)}
	}
	word := func(r entrycheck.Requirement, raw string) dataset.Verdict {
		return dataset.Verdict{Requirement: r, Raw: raw}
	}
	at := time.Date(2025, 1, 12, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		from, to dataset.Verdict
		fields   string
		summary  string
	}{
		{days(30), days(60), "allowed_stay_days", "Germany to Thailand: visa-free (30 days) -> visa-free (60 days)"},
		{days(30), word(entrycheck.VisaFree, "visa free"), "allowed_stay_days", "Germany to Thailand: visa-free (30 days) -> visa-free"},
		{word(entrycheck.VisaRequired, "visa required"), days(1), "requirement,allowed_stay_days", "Germany to Thailand: visa required -> visa-free (1 day)"},
		{word(entrycheck.VisaOnArrival, "visa on arrival"), word(entrycheck.NoAdmission, "no admission"), "requirement", "Germany to Thailand: visa on arrival -> no admission"},
		{word(entrycheck.EVisa, "e-visa"), word(entrycheck.EVisa, "e-visa"), "", ""},
	} {
		e, changed, err := ruleChange("2025-01-02", "2025-01-12", at, deu, tha, tc.from, tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if changed != (tc.fields != "") || strings.Join(e.Fields, ",") != tc.fields || e.Summary != tc.summary {
			t.Errorf("%s -> %s: changed %v, fields %v, summary %q; want %q, %q", tc.from.Raw, tc.to.Raw, changed, e.Fields, e.Summary, tc.fields, tc.summary)
			continue
		}
		if !changed {
			continue
		}
		var c RuleChange
		if err := json.Unmarshal(e.Details, &c); err != nil || c.From.AllowedStayDays != tc.from.Days || c.To.MatrixValue != tc.to.Raw {
			t.Errorf("details %s: %v", e.Details, err)
		}
		if e.ID != "matrix/2025-01-12/DEU-THA" {
			t.Errorf("id %s", e.ID)
		}
	}
}
