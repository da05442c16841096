package api_test

import (
	"net/http"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// TestVerificationStateSwap: after a verification run, serve hands the
// service an evaluator with the new records' state, and the next answers
// carry it.
func TestVerificationStateSwap(t *testing.T) {
	e := start(t, "")
	status := func() map[string]any {
		t.Helper()
		r := e.get("/free/check?passport=DEU&destination=THA")
		if r.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", r.StatusCode, r.body)
		}
		return r.json(t)["entry_rules_verification"].(map[string]any)
	}
	// The shipped rules were not read live: stale, and the answer says why.
	if v := status(); v["status"] != entrycheck.RulesStale || v["reason"] != entrycheck.ReasonStoredCopy {
		t.Fatalf("before: %v", v)
	}
	snap := datatest.Evaluator(t).Snapshot()
	state := entrycheck.Verification{}
	for _, r := range snap.Curated.Records() {
		if r.Destination == "THA" && r.Field == entrycheck.FieldPassportValidity {
			state[r.Key()] = entrycheck.RecordState{LastVerified: r.Source.RetrievedAt, Flagged: true}
		}
	}
	e.service.SetEvaluator(evaluation.NewVerified(snap, state))
	v := status()
	if v["status"] != entrycheck.RulesNeedsReview || len(v["flagged_fields"].([]any)) != 1 || v["flagged_fields"].([]any)[0] != entrycheck.FieldPassportValidity {
		t.Fatalf("after the swap: %v", v)
	}
	// Every record read live (a confirmed verifier reading): verified.
	for _, r := range snap.Curated.Records() {
		if r.Destination == "THA" {
			state[r.Key()] = entrycheck.RecordState{LastVerified: r.Source.RetrievedAt, Live: true}
		}
	}
	e.service.SetEvaluator(evaluation.NewVerified(snap, state))
	if v := status(); v["status"] != entrycheck.RulesVerifiedOfficialSources || v["reason"] != nil {
		t.Fatalf("read live: %v", v)
	}
}
