package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// TestAnswersSayTheirDate: the free check and the paid matrix give the date
// their verdicts are as of, its age on the server's clock and whether it
// is old.
func TestAnswersSayTheirDate(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	want := entrycheck.DateOf(e.clock.Now())
	var r entrycheck.CheckResult
	if resp := e.get("/free/check?passport=DEU&destination=GBR"); resp.StatusCode != http.StatusOK || json.Unmarshal(resp.body, &r) != nil {
		t.Fatalf("%d %.300s", resp.StatusCode, resp.body)
	}
	v := r.VerdictVerification
	asOf, err := entrycheck.ParseDate(r.DatasetVersion)
	if err != nil || v.AsOf != asOf || v.AgeDays != asOf.DaysSince(want.Time()) || v.OldAfterDays != 180 || v.Old != (v.AgeDays > 180) {
		t.Errorf("verdict_verification %+v for dataset %s on %s", v.VerdictAge, r.DatasetVersion, want)
	}

	key := mustKey(t)
	path := "/v1/passport/DEU"
	acc := e.offerOf(path).Accepts[0]
	resp := e.get(path, x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key)))
	var m entrycheck.PassportMatrix
	if resp.StatusCode != http.StatusOK || json.Unmarshal(resp.body, &m) != nil {
		t.Fatalf("%d %.300s", resp.StatusCode, resp.body)
	}
	if m.VerdictAge != v.VerdictAge {
		t.Errorf("the matrix's verdict_age %+v, the check's %+v", m.VerdictAge, v.VerdictAge)
	}
}
