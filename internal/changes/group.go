package changes

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck/internal/country"
)

// groupRuleChanges makes one Atom entry per destination and matrix snapshot
// from the matrix_rule_changed events: a new snapshot can change thousands
// of routes at once, which one entry per route would bury every other
// entry under, while a destination's changes are what its travellers want
// to read together. The entry is dated by the snapshot (the events' time),
// titled "Thailand: 12 routes changed in the 2026-02-17 matrix", links the
// destination page, and lists each route in its summary and as a related
// link to the route page.
func groupRuleChanges(site FeedSite, names func(string) string, events []Event) []atomEntry {
	type key struct{ version, destination string }
	groups := map[key][]Event{}
	var order []key
	for _, e := range events {
		if e.Kind != KindMatrixRuleChanged || len(e.Destinations) != 1 {
			continue
		}
		k := key{e.DatasetVersion, e.Destinations[0]}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	entries := make([]atomEntry, 0, len(order))
	for _, k := range order {
		entries = append(entries, groupEntry(site, names, k.version, k.destination, groups[k]))
	}
	return entries
}

// groupEntry is the entry of one destination's rule changes in one snapshot.
func groupEntry(site FeedSite, names func(string) string, version, destination string, events []Event) atomEntry {
	type line struct{ passport, text, url string }
	var lines []line
	var previous []string
	at := events[0].Time
	for _, e := range events {
		if e.Time.After(at) {
			at = e.Time
		}
		c, err := DecodeDetails[RuleChange](e)
		if err != nil || c.Passport == "" {
			// Not a route's change after all: list it by its own summary.
			lines = append(lines, line{e.Summary, e.Summary, site.EventURL(e)})
			continue
		}
		if c.PreviousVersion != "" && !slices.Contains(previous, c.PreviousVersion) {
			previous = append(previous, c.PreviousVersion)
		}
		name := names(c.Passport)
		lines = append(lines, line{name, name + ": " + describe(c.From) + " -> " + describe(c.To), site.RouteURL(c.Passport, destination)})
	}
	slices.SortFunc(lines, func(a, b line) int {
		return cmp.Or(strings.Compare(a.passport, b.passport), strings.Compare(a.url, b.url))
	})
	slices.Sort(previous)
	texts, urls := make([]string, len(lines)), make([]string, len(lines))
	for i, l := range lines {
		texts[i], urls[i] = l.text, l.url
	}
	name := names(destination)
	compared := ""
	if len(previous) > 0 {
		compared = " compared with " + strings.Join(previous, " and ")
	}
	n := plural(len(lines), "route", "routes")
	return atomEntry{
		ID:    "matrix/" + version + "/" + destination,
		Time:  at.UTC(),
		Title: fmt.Sprintf("%s: %s changed in the %s matrix", name, n, version),
		Summary: fmt.Sprintf("%s changed for travellers to %s in the secondary visa matrix, snapshot %s%s. By passport: %s. Confirm with %s's official authority before travelling.",
			n, name, version, compared, strings.Join(texts, "; "), name),
		Link:    site.DestinationURL(destination),
		Related: urls,
	}
}

// sortEntries orders Atom entries newest first, by id within the same time.
func sortEntries(entries []atomEntry) {
	slices.SortStableFunc(entries, func(a, b atomEntry) int {
		return cmp.Or(b.Time.Compare(a.Time), strings.Compare(a.ID, b.ID))
	})
}

// countryNames names countries by ISO3 code for the feeds' summaries; an
// unknown code stands for itself.
func countryNames() (func(string) string, error) {
	r, err := country.New()
	if err != nil {
		return nil, fmt.Errorf("rendering the feeds: %w", err)
	}
	return func(iso3 string) string {
		if c, ok := r.ByISO3(iso3); ok {
			return c.Name
		}
		return iso3
	}, nil
}
