package response

import (
	"testing"

	"github.com/entrycheck/entrycheck"
)

// Every application error code has its answer in the one table.
func TestEveryErrorCodeIsAnswered(t *testing.T) {
	for _, code := range entrycheck.ErrorCodes {
		d, ok := domainErrors[code]
		if !ok || d.status < 400 || d.code == "" || d.oauth == "" {
			t.Errorf("error code %s: %+v", code, d)
		}
	}
	if len(domainErrors) != len(entrycheck.ErrorCodes) {
		t.Errorf("%d answers for %d codes", len(domainErrors), len(entrycheck.ErrorCodes))
	}
}
