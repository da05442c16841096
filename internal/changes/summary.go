package changes

import (
	"cmp"
	"slices"
)

// DiffSummary is what changed between two matrix snapshots, in the few
// numbers a reviewer reads before pinning the newer one.
type DiffSummary struct {
	// Routes is the number of routes compared, the diagonal excluded.
	Routes int `json:"routes"`
	// Changed is the number of routes whose requirement or stay differs.
	Changed int `json:"changed"`
	// ByRequirement counts the changed routes by old and new requirement
	// ("visa_free -> eta"), most frequent first.
	ByRequirement []Count `json:"by_requirement"`
	// Destinations are the destinations with the most changed routes.
	Destinations []Count `json:"destinations"`
	// Sample is a few changed routes spread evenly over the ordered list,
	// the same on every run.
	Sample []SampleRoute `json:"sample"`
}

// Count is how many changed routes share a key.
type Count struct {
	Key   string `json:"key"`
	Name  string `json:"name,omitempty"`
	Count int    `json:"count"`
}

// SampleRoute is one changed route with its matrix values.
type SampleRoute struct {
	Passport    string `json:"passport"`
	Destination string `json:"destination"`
	From        string `json:"from"`
	To          string `json:"to"`
}

// Summarize sums up the changed routes of CompareMatrices out of routes
// compared: the top destinations and a sample of sample routes.
func Summarize(changed []RouteChange, routes, top, sample int) DiffSummary {
	s := DiffSummary{Routes: routes, Changed: len(changed)}
	byReq := map[string]int{}
	byDest := map[string]int{}
	names := map[string]string{}
	for _, r := range changed {
		byReq[string(r.From.Requirement)+" -> "+string(r.To.Requirement)]++
		byDest[r.Destination.ISO3]++
		names[r.Destination.ISO3] = r.Destination.Name
	}
	s.ByRequirement = counts(byReq, nil, len(byReq))
	s.Destinations = counts(byDest, names, top)
	n := min(sample, len(changed))
	for i := range n {
		r := changed[i*len(changed)/n]
		s.Sample = append(s.Sample, SampleRoute{Passport: r.Passport.ISO3, Destination: r.Destination.ISO3, From: r.From.Raw, To: r.To.Raw})
	}
	return s
}

// counts orders a tally by count, then key, and keeps the first limit.
func counts(tally map[string]int, names map[string]string, limit int) []Count {
	out := make([]Count, 0, len(tally))
	for k, n := range tally {
		out = append(out, Count{Key: k, Name: names[k], Count: n})
	}
	slices.SortFunc(out, func(a, b Count) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	return out[:min(limit, len(out))]
}
