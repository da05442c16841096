package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// TestMCPTextUsesNoDeniedWord reads the text content of
// check_entry_requirements for every route of the dataset and for the
// labelled requests (held visas, transit), and of plan_trip for every
// example trip, for the words of the deny list (datatest.DeniedWords). The
// names of cited pages and the request id are quoted, not our words.
func TestMCPTextUsesNoDeniedWord(t *testing.T) {
	ev := datatest.Evaluator(t)
	clock := entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))
	reqs := datatest.LabelledRequests()
	countries := ev.Snapshot().Matrix.Countries()
	for _, p := range countries {
		for _, d := range countries {
			reqs = append(reqs, entrycheck.CheckRequest{Passport: p.ISO3, Destination: d.ISO3})
		}
	}
	trips, err := filepath.Glob("../../evaluation/testdata/trips/*.json")
	if err != nil || len(trips) < 5 {
		t.Fatalf("trips %v: %v", trips, err)
	}
	tools := []struct {
		name  string
		texts func(yield func(what, text string, quoted []string))
		want  int
	}{
		{"check_entry_requirements", func(yield func(string, string, []string)) {
			for _, req := range reqs {
				r, err := ev.Check(req, clock)
				if err != nil {
					t.Fatal(err)
				}
				yield(req.Passport+" to "+req.Destination, checkText(r), append(datatest.CitedNames(r), r.RequestID))
			}
		}, len(reqs)},
		{"plan_trip", func(yield func(string, string, []string)) {
			for _, name := range trips {
				f, err := os.Open(name)
				if err != nil {
					t.Fatal(err)
				}
				req, err := evaluation.DecodeTripRequest(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				r, err := ev.EvaluateTrip(req, "req_plain", clock)
				if filepath.Base(name) == "invalid.json" {
					continue // refused: its text is response.ProblemsText
				}
				if err != nil {
					t.Fatal(err)
				}
				yield(filepath.Base(name), tripText(r), append(datatest.CitedNames(r), r.RequestID))
			}
		}, len(trips) - 1},
	}
	for _, tool := range tools {
		read, failures := 0, 0
		tool.texts(func(what, text string, quoted []string) {
			read++
			for _, w := range datatest.DeniedWordsIn(text, quoted...) {
				if failures++; failures <= 10 {
					t.Errorf("%s, %s: %s", tool.name, what, w)
				}
			}
		})
		if read != tool.want {
			t.Errorf("%s: read %d texts, want %d", tool.name, read, tool.want)
		}
		if failures > 10 {
			t.Errorf("%s: %d denied words in all", tool.name, failures)
		}
	}
}
