package entrycheck_test

import (
	"encoding/json"
	"testing"

	"github.com/entrycheck/entrycheck"
)

func TestPassportHeldJSON(t *testing.T) {
	for _, c := range []struct {
		json string
		want entrycheck.PassportHeld
	}{
		{`"DEU"`, entrycheck.PassportHeld{Country: "DEU"}},
		{`{"country": "DEU", "expires": "2027-03-01"}`, entrycheck.PassportHeld{Country: "DEU", Expires: "2027-03-01"}},
		{`{"country": "DEU"}`, entrycheck.PassportHeld{Country: "DEU"}},
		{`null`, entrycheck.PassportHeld{}},
	} {
		var p entrycheck.PassportHeld
		if err := json.Unmarshal([]byte(c.json), &p); err != nil || p != c.want {
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", c.json, p, err, c.want)
		}
	}
	// A misspelt field would silently drop the expiry, so it is refused even by a lenient decoder.
	for _, bad := range []string{`{"country": "DEU", "expiry": "2027-03-01"}`, `42`, `["DEU"]`, `{"country": 276}`} {
		var p entrycheck.PassportHeld
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("Unmarshal(%s) accepted: %+v", bad, p)
		}
	}
	b, err := json.Marshal(entrycheck.TripRequest{
		Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: "DEU"}, {Country: "USA", Expires: "2030-01-31"}}},
		Trip:     entrycheck.Trip{Legs: []entrycheck.Leg{{Country: "THA", Transit: true}}},
	})
	want := `{"traveler":{"passports":[{"country":"DEU"},{"country":"USA","expires":"2030-01-31"}]},"trip":{"legs":[{"country":"THA","transit":true}]}}`
	if err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v; want %s", b, err, want)
	}
}
