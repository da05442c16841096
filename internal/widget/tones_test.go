package widget_test

import (
	"regexp"
	"testing"

	"github.com/entrycheck/entrycheck"
)

// Each language's checker colours every requirement value with its tone
// from the service's table (entrycheck.Tones), not from a list of its own.
func TestBundleKnowsEveryRequirementsTone(t *testing.T) {
	files, _ := bundle(t)
	for code, f := range checkers(t, files) {
		for r, tone := range entrycheck.Tones() {
			if !regexp.MustCompile(`\b` + string(r) + `:"` + tone + `"`).MatchString(string(f.Body)) {
				t.Errorf("the checker in %s does not give %s the tone %s", code, r, tone)
			}
		}
	}
}
