package mcpserver

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestMCPTextShowsEveryRuleField fails when the MCP text leaves out a rule
// field of entrycheck.RuleFields.
func TestMCPTextShowsEveryRuleField(t *testing.T) {
	text := checkText(entrycheck.CheckResult{EntryRules: datatest.FullEntryRules()})
	for _, l := range datatest.FullEntryRules().Lines() {
		for _, want := range []string{l.Label + ": ", l.Text, l.Detail, l.URL} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the MCP text lacks %q", l.Field, want)
			}
		}
	}
}
