package cli_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCheckTextUsesTheSharedLabels: the text for people names every fact
// of real answers as the route pages do (datatest.AnswerWords), and the
// action with its label; it fails when the text gives a fact a label of
// its own.
func TestCheckTextUsesTheSharedLabels(t *testing.T) {
	for _, req := range datatest.LabelledRequests() {
		var args []string
		if req.Transit != "" {
			args = append(args, "--transit", req.Transit)
		}
		if len(req.VisasOf) > 0 {
			args = append(args, "--visas-of", strings.Join(req.VisasOf, ","))
		}
		out, r := checkOut(t, req, args...)
		labels, phrases := datatest.AnswerWords(r)
		for _, m := range datatest.MissingWords(out, append(labels, entrycheck.LabelAction.String()), phrases) {
			t.Errorf("check %s %s %v lacks %s:\n%s", req.Passport, req.Destination, args, m, out)
		}
	}
}
