package entrycheck_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
)

func TestDaysJSON(t *testing.T) {
	for _, c := range []struct {
		d    entrycheck.Days
		json string
	}{{entrycheck.SomeDays(60), "60"}, {entrycheck.Days{}, "null"}, {entrycheck.SomeDays(0), "0"}} {
		b, err := json.Marshal(c.d)
		if err != nil || string(b) != c.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", c.d, b, err, c.json)
		}
		var back entrycheck.Days
		if err := json.Unmarshal(b, &back); err != nil || back != c.d {
			t.Errorf("Unmarshal(%s) = %v, %v", b, back, err)
		}
	}
	var d entrycheck.Days
	if err := json.Unmarshal([]byte(`"60"`), &d); err == nil {
		t.Error("a string was accepted as days")
	}
}

func TestDate(t *testing.T) {
	d, err := entrycheck.ParseDate("2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.DaysSince(time.Date(2026, 12, 23, 23, 59, 0, 0, time.UTC)); got != 31 {
		t.Errorf("DaysSince = %d, want 31", got)
	}
	if b, _ := json.Marshal(d); string(b) != `"2026-11-22"` {
		t.Errorf("Marshal = %s", b)
	}
	for _, bad := range []string{"2026-13-01", "22.11.2026", ""} {
		if _, err := entrycheck.ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
}

func TestRequirementActions(t *testing.T) {
	want := map[entrycheck.Requirement]entrycheck.Action{
		entrycheck.VisaFree:      entrycheck.ActionNone,
		entrycheck.VisaOnArrival: entrycheck.ActionObtainOnArrival,
		entrycheck.ETA:           entrycheck.ActionApplyBeforeTravel,
		entrycheck.EVisa:         entrycheck.ActionApplyBeforeTravel,
		entrycheck.VisaRequired:  entrycheck.ActionApplyBeforeTravel,
		entrycheck.NoAdmission:   entrycheck.ActionEntryNotPermitted,
		entrycheck.Unknown:       entrycheck.ActionCheckOfficialAuthority,
		entrycheck.NeedsReview:   entrycheck.ActionCheckOfficialAuthority,
	}
	if len(want) != len(entrycheck.Requirements) {
		t.Fatalf("%d requirement values, the table covers %d", len(entrycheck.Requirements), len(want))
	}
	for _, r := range entrycheck.Requirements {
		if r.Action() != want[r] || !r.Valid() || r.Label() == string(r) {
			t.Errorf("%s: action %s, label %q", r, r.Action(), r.Label())
		}
	}
	if entrycheck.Requirement("visa free").Valid() {
		t.Error("a matrix word was accepted as a requirement value")
	}
}
