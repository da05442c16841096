package answertext_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var clock = entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))

// answers are real answers in words, by golden file name: the checks of
// datatest.LabelledRequests and trips of the evaluation's test data.
func answers(t *testing.T) map[string]answertext.Answer {
	t.Helper()
	ev := datatest.Evaluator(t)
	out := map[string]answertext.Answer{}
	for _, req := range datatest.LabelledRequests() {
		req.RequestID = "req_golden"
		r, err := ev.Check(req, clock)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.ToLower("check-"+req.Passport+"-"+req.Destination)] = answertext.Check(r)
	}
	for _, name := range []string{"yellow-fever", "transit", "schengen-over-90", "dual-passport"} {
		req := exampleTrip(t, name)
		r, err := ev.EvaluateTrip(req, "req_golden", clock)
		if err != nil {
			t.Fatal(err)
		}
		out["trip-"+name] = answertext.Trip(r)
	}
	return out
}

// TestFramesMatchGoldenFiles: the text for terminals and the compact text
// for agents of real answers, word for word; -update rewrites them after a
// change meant to show, to be read in the diff.
func TestFramesMatchGoldenFiles(t *testing.T) {
	for name, a := range answers(t) {
		for ext, got := range map[string]string{".txt": answertext.Text(a), ".compact.txt": answertext.Compact(a)} {
			path := filepath.Join("testdata", name+ext)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the answer rendered now (run go test -update and read the diff):\n%s", path, got)
			}
		}
	}
}

// TestCompactLeavesOutOnlyBackground: the compact text shows every line
// but the background ones (Secondary, or under a Secondary line or part);
// the text for terminals shows every line.
func TestCompactLeavesOutOnlyBackground(t *testing.T) {
	for name, a := range answers(t) {
		text, compact := answertext.Text(a), answertext.Compact(a)
		var walk func(lines []answertext.Line, background bool)
		walk = func(lines []answertext.Line, background bool) {
			for _, l := range lines {
				bg := background || l.Secondary
				if w := strings.TrimSpace(l.Text + " " + l.Detail); w != "" {
					if !strings.Contains(text, w) {
						t.Errorf("%s: the text lacks %q", name, w)
					}
					if shown := strings.Contains(compact, "- "+l.Inline()+"\n") || strings.HasSuffix(compact, "- "+l.Inline()); shown == bg {
						t.Errorf("%s: the compact text shows %v the line %q, background %v", name, shown, l.Inline(), bg)
					}
				}
				walk(l.Items, bg)
			}
		}
		walk(a.Lines, false)
		for _, s := range a.Sections {
			walk(s.Lines, s.Secondary)
		}
	}
}

// exampleTrip reads one of the evaluation's example trips.
func exampleTrip(t *testing.T, name string) entrycheck.TripRequest {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "evaluation", "testdata", "trips", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	req, err := evaluation.DecodeTripRequest(f)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
