package generator

import (
	"sync"

	"github.com/entrycheck/entrycheck"
)

// modified dates the pages for the sitemaps' lastmod and the route pages'
// dateModified: the day what a page shows last changed, from the event log,
// never the build's day (which would claim that every page changed with
// every build). A page without such a date has none.
type modified struct {
	mu     sync.Mutex
	byPath map[string]entrycheck.Date
	latest entrycheck.Date
}

func newModified() *modified { return &modified{byPath: map[string]entrycheck.Date{}} }

// note records that the page at path shows something that changed on day;
// a page keeps the latest day noted.
func (m *modified) note(day entrycheck.Date, paths ...string) {
	if day.IsZero() {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range paths {
		if old, ok := m.byPath[p]; !ok || old.Before(day) {
			m.byPath[p] = day
		}
	}
	if m.latest.Before(day) {
		m.latest = day
	}
}

// of returns the day of the page at path, zero when none was noted.
func (m *modified) of(path string) entrycheck.Date {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byPath[path]
}

// routeModified is the day the content of a route page last changed: the
// day of the data it shows (routeDataModified), or a later day on which
// the same data came to read differently with the build's day: the verdict
// grew old, an official statement came into force or ended, or the rules
// went stale. Never the day a source was merely re-read: a reading that
// finds the page as it was changes nothing a traveller reads.
func (s *site) routeModified(res entrycheck.CheckResult) entrycheck.Date {
	day := s.routeDataModified(res)
	today := entrycheck.DateOf(s.now)
	if res.VerdictVerification.Confirm != "" {
		day = laterOf(day, res.VerdictVerification.OldFrom)
	}
	for _, st := range res.VerdictVerification.OfficialStatements {
		if st.Status != entrycheck.StatementUpcoming {
			day = laterOf(day, *st.InForceFrom())
		}
		if st.Status == entrycheck.StatementEnded {
			day = laterOf(day, st.EffectiveUntil.AddDays(1))
		}
	}
	if v := res.EntryRulesVerification; v.Reason == entrycheck.ReasonNotReverified && v.LastVerified != nil {
		day = laterOf(day, v.LastVerified.AddDays(v.StaleAfterDays+1))
	}
	if today.Before(day) {
		return today
	}
	return day
}

// routeDataModified is the day of the data a route page shows: the day of
// the snapshot its verdict last changed in (else of the oldest snapshot
// recorded), or the latest day on which a source the page cites was read
// as cited, whichever is later. The destination's page, which shows the
// same rules, is dated by it too.
func (s *site) routeDataModified(res entrycheck.CheckResult) entrycheck.Date {
	version, ok := s.opts.History.Changed[[2]string{res.Passport.ISO3, res.Destination.ISO3}]
	if !ok {
		version = s.opts.History.Baseline
	}
	day, err := entrycheck.ParseDate(version)
	if err != nil {
		day = entrycheck.Date{} // a snapshot not named by its date dates nothing
	}
	for _, l := range res.EntryRules.Lines() {
		day = laterOf(day, l.Source.RetrievedAt)
	}
	if a := res.Apply; a != nil {
		day = laterOf(day, a.Source.RetrievedAt)
	}
	for _, st := range res.VerdictVerification.OfficialStatements {
		day = laterOf(day, st.Source.RetrievedAt)
	}
	return day
}

// laterOf returns the later of two days.
func laterOf(a, b entrycheck.Date) entrycheck.Date {
	if a.Before(b) {
		return b
	}
	return a
}
