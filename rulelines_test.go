package entrycheck_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestEveryRuleFieldIsListed fails when EntryRules gains a rule field that
// RuleFields (what every surface walks) does not list, or when the test
// rules leave one unset.
func TestEveryRuleFieldIsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, f := range entrycheck.RuleFields() {
		listed[f.Name] = true
	}
	full := reflect.ValueOf(datatest.FullEntryRules())
	typ := full.Type()
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Type.Kind() != reflect.Pointer || name == "last_verified" {
			continue // the block's own dates and coverage, not a rule
		}
		if !listed[name] {
			t.Errorf("entry rule %s is not in entrycheck.RuleFields: no surface would show it", name)
		}
		if full.Field(i).IsNil() {
			t.Errorf("datatest.FullEntryRules leaves %s unset", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("RuleFields lists %s, which EntryRules does not have", name)
	}
}

// TestLinesCoverEveryField: rules with every field set give a line for
// each, with its text, label and source.
func TestLinesCoverEveryField(t *testing.T) {
	lines := datatest.FullEntryRules().Lines()
	for _, f := range entrycheck.RuleFields() {
		n := 0
		for _, l := range lines {
			if l.Field == f.Name {
				n++
				if l.Label == "" || l.Text == "" || l.Source.URL == "" {
					t.Errorf("%s: incomplete line %+v", f.Name, l)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s gives no line", f.Name)
		}
	}
	// A rule that does not hold for the passport says so instead of its value.
	r := datatest.FullEntryRules()
	r.OnwardTicket.Applies, r.OnwardTicket.Note = entrycheck.AppliesNotForThisPassport, "Does not apply to your passport: for non-EU passports."
	for _, l := range r.Lines() {
		if l.Field == entrycheck.FieldOnwardTicket && (l.Text != r.OnwardTicket.Note || l.Detail != "") {
			t.Errorf("onward ticket not for this passport: %+v", l)
		}
	}
}
