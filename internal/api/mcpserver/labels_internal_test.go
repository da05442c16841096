package mcpserver

import (
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestMCPTextUsesTheSharedLabels: the text content of
// check_entry_requirements names every fact of real answers as the route
// pages do (datatest.AnswerWords), and the action with its label; it fails
// when the text gives a fact a label of its own.
func TestMCPTextUsesTheSharedLabels(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, req := range datatest.LabelledRequests() {
		r, err := ev.Check(req, entrycheck.SystemClock{})
		if err != nil {
			t.Fatal(err)
		}
		text := checkText(r)
		labels, phrases := datatest.AnswerWords(r)
		for _, m := range datatest.MissingWords(text, append(labels, entrycheck.LabelAction.String()), phrases) {
			t.Errorf("%s to %s (transit %q, visas of %v) lacks %s:\n%s", req.Passport, req.Destination, req.Transit, req.VisasOf, m, text)
		}
	}
}
