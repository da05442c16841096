package templates

import (
	"time"

	"github.com/entrycheck/entrycheck"
)

// SourceChecks is the daily verification of cited sources as the
// transparency page shows it: the report as the event log gives it, and the
// links its destinations are shown with.
type SourceChecks struct {
	entrycheck.VerificationReport
	// Places link the destinations the flags and unreachable sources name,
	// by ISO3 code; "" names every destination (a shared fact).
	Places map[string]Link
}

// Place links the destination iso3; a code without a page is named as it is.
func (c SourceChecks) Place(iso3 string) Link {
	if l, ok := c.Places[iso3]; ok {
		return l
	}
	return Link{Label: iso3}
}

// CitedFor links the destinations whose records cite u; a page cited only
// for shared facts is cited for every destination.
func (c SourceChecks) CitedFor(u entrycheck.UnreachableSource) []Link {
	if len(u.Destinations) == 0 {
		return []Link{c.Place("")}
	}
	out := make([]Link, len(u.Destinations))
	for i, d := range u.Destinations {
		out[i] = c.Place(d)
	}
	return out
}

// LastRunAt is the newest run's time, "2026-11-22 03:12 UTC"; "" before
// the first run.
func (c SourceChecks) LastRunAt() string {
	if c.LastRun == nil {
		return ""
	}
	return c.LastRun.Time.UTC().Format("2006-01-02 15:04 UTC")
}

// Outcomes count the newest run's readings, labelled; none before the
// first run.
func (c SourceChecks) Outcomes() []Count {
	r := c.LastRun
	if r == nil {
		return nil
	}
	return []Count{
		{Label: "re-verified (unchanged)", N: r.Reverified},
		{Label: "read for the first time (baseline)", N: r.Baselined},
		{Label: "changed (records flagged)", N: r.Changed},
		{Label: "unreachable", N: r.Unreachable},
	}
}

// day is the UTC date of t, "2026-11-22".
func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }
