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

// routeModified is the day a route page last changed: the day of the
// snapshot its verdict last changed in (else of the oldest snapshot
// recorded), or the day its destination's entry rules were last verified
// as the page shows it, whichever is later. Both come from the event log.
func (s *site) routeModified(res entrycheck.CheckResult) entrycheck.Date {
	version, ok := s.opts.History.Changed[[2]string{res.Passport.ISO3, res.Destination.ISO3}]
	if !ok {
		version = s.opts.History.Baseline
	}
	day, err := entrycheck.ParseDate(version)
	if err != nil {
		day = entrycheck.Date{} // a snapshot not named by its date dates nothing
	}
	if r := res.EntryRulesVerification.LastVerified; r != nil && day.Before(*r) {
		day = *r
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
