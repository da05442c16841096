package entrycheck_test

import (
	"testing"

	"github.com/entrycheck/entrycheck"
)

func TestTravellerTextLeavesOutCuratorsNotes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Six months. Two pages.", "Six months. Two pages."},
		{"A certificate is needed. Uruguay is therefore listed in extra_risk_countries; French Guiana is not a dataset country.",
			"A certificate is needed. French Guiana is not a dataset country."},
		{"A certificate from 9 months of age; see yellow-fever.json (NPL).", "A certificate from 9 months of age."},
		{"The stored copy could be read only up to item 23, so extra_risk_countries is not filled; an airport page lists Rwanda.",
			"An airport page lists Rwanda."},
	} {
		if got := entrycheck.TravellerText(c.in); got != c.want {
			t.Errorf("TravellerText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
