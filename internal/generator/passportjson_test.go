package generator_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
)

// TestPassportDocumentsAreTheMatrix: every passport's static document is
// the evaluator's passport matrix, the answer of GET /v1/passport/{iso3},
// without the request's id and time and with the verdicts' date instead
// of their age on the build day.
func TestPassportDocumentsAreTheMatrix(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	countries := ev.Snapshot().Matrix.Countries()
	for _, pc := range countries {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(generator.PassportDocument(pc.ISO3), "/"))))
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatalf("%s: %v", pc.ISO3, err)
		}
		var age map[string]json.RawMessage
		json.Unmarshal(raw["verdict_age"], &age)
		if _, ok := raw["request_id"]; ok || raw["evaluated_at"] != nil || age["age_days"] != nil || age["old"] != nil || age["old_from"] == nil {
			t.Errorf("%s: the document has %d keys, verdict_age %s", pc.ISO3, len(raw), raw["verdict_age"])
		}
		var got entrycheck.PassportMatrix
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", pc.ISO3, err)
		}
		want, err := ev.PassportMatrix(pc.ISO3, "", buildDay)
		if err != nil {
			t.Fatal(err)
		}
		want.RequestID, want.EvaluatedAt = "", time.Time{}
		want.VerdictAge = entrycheck.VerdictAge{VerdictDate: want.VerdictAge.VerdictDate}
		if len(got.Destinations) != len(countries)-1 || !reflect.DeepEqual(got, want) {
			t.Errorf("the static document of %s is not its matrix:\n got %+v\nwant %+v", pc.ISO3, got, want)
		}
	}
}
