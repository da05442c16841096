package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCheckTextShowsEveryRuleField fails when the text for people leaves
// out a rule field of entrycheck.RuleFields.
func TestCheckTextShowsEveryRuleField(t *testing.T) {
	var b bytes.Buffer
	printCheck(&b, entrycheck.CheckResult{EntryRules: datatest.FullEntryRules()})
	for _, l := range datatest.FullEntryRules().Lines() {
		for _, want := range []string{l.Label + ": ", l.Text, l.Detail, l.URL} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the text lacks %q", l.Field, want)
			}
		}
	}
}
