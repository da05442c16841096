package generator

import (
	"sync"

	"github.com/entrycheck/entrycheck"
)

// summary gathers, while routes render, what the other pages report.
type summary struct {
	mu           sync.Mutex
	byDest       map[string]map[entrycheck.Requirement]int
	byRequirment map[entrycheck.Requirement]int
	review       []reviewRoute
	lines        map[string][]string   // passport -> digest lines, in matrix order
	toDest       map[string][]mapPlace // destination -> its passports, for its map
}

type reviewRoute struct{ label, path string }

func newSummary() *summary {
	return &summary{byDest: map[string]map[entrycheck.Requirement]int{}, byRequirment: map[entrycheck.Requirement]int{}, lines: map[string][]string{}, toDest: map[string][]mapPlace{}}
}

func (s *summary) addRoute(r entrycheck.CheckResult, path string) {
	line := r.Destination.ISO3 + " " + r.Destination.Name + ": " + string(r.Requirement)
	if r.AllowedStayDays.Valid {
		line += " " + itoa(r.AllowedStayDays.N) + " days"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.byDest[r.Destination.ISO3]
	if d == nil {
		d = map[entrycheck.Requirement]int{}
		s.byDest[r.Destination.ISO3] = d
	}
	d[r.Requirement]++
	s.byRequirment[r.Requirement]++
	if r.Requirement == entrycheck.NeedsReview {
		s.review = append(s.review, reviewRoute{r.Passport.Name + " to " + r.Destination.Name, path})
	}
	s.lines[r.Passport.ISO3] = append(s.lines[r.Passport.ISO3], line)
	s.toDest[r.Destination.ISO3] = append(s.toDest[r.Destination.ISO3], mapPlace{country: r.Passport, req: r.Requirement, days: r.AllowedStayDays, url: path})
}
