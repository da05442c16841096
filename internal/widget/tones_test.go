package widget_test

import (
	"regexp"
	"testing"

	"github.com/entrycheck/entrycheck"
)

// The bundle colours every requirement value with its tone from the
// service's table (entrycheck.Tones), not from a list of its own.
func TestBundleKnowsEveryRequirementsTone(t *testing.T) {
	files, _ := bundle(t)
	js := string(files[0].Body)
	for r, tone := range entrycheck.Tones() {
		if !regexp.MustCompile(`\b` + string(r) + `:"` + tone + `"`).MatchString(js) {
			t.Errorf("embed.js does not give %s the tone %s", r, tone)
		}
	}
}
