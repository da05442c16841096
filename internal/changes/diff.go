package changes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// The fields a matrix rule change can name.
const (
	FieldRequirement     = "requirement"
	FieldAllowedStayDays = "allowed_stay_days"
)

// RuleChange is the Details of a matrix_rule_changed event.
type RuleChange struct {
	Passport        string     `json:"passport"`
	Destination     string     `json:"destination"`
	PreviousVersion string     `json:"previous_version"`
	From            RouteValue `json:"from"`
	To              RouteValue `json:"to"`
}

// RouteValue is what the matrix states for a route in one snapshot.
type RouteValue struct {
	Requirement     entrycheck.Requirement `json:"requirement"`
	AllowedStayDays entrycheck.Days        `json:"allowed_stay_days"`
	// MatrixValue is the value as written in the matrix ("60", "e-visa").
	MatrixValue string `json:"matrix_value"`
}

// Diff compares two matrix snapshots route by route and returns one
// matrix_rule_changed event per route whose requirement or allowed stay
// differs, ordered by id (see CompareMatrices). cur may not be older than
// prev; a snapshot compared with itself gives no events.
//
// An event's id is "matrix/{cur version}/{passport}-{destination}": one
// event per route and snapshot, whatever it was compared with, so that
// recording a comparison again stores nothing new. Summaries use the
// country names of the matrix's registry.
func Diff(prev, cur *dataset.Matrix) ([]Event, error) {
	if prev == nil || cur == nil {
		return nil, fmt.Errorf("comparing matrix snapshots: both a previous and a current snapshot are needed")
	}
	if prev.Version() > cur.Version() {
		return nil, fmt.Errorf("comparing matrix snapshots: the previous snapshot %s is newer than the current %s", prev.Version(), cur.Version())
	}
	at, err := time.Parse(time.DateOnly, cur.Version())
	if err != nil {
		return nil, fmt.Errorf("comparing matrix snapshots: version %q is not a date: %w", cur.Version(), err)
	}
	routes, err := CompareMatrices(prev, cur)
	if err != nil {
		return nil, fmt.Errorf("comparing matrix snapshots %s and %s: %w", prev.Version(), cur.Version(), err)
	}
	events := make([]Event, 0, len(routes))
	for _, r := range routes {
		e, _, err := ruleChange(prev.Version(), cur.Version(), at, r.Passport, r.Destination, r.From, r.To)
		if err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	return events, nil
}

// RouteChange is a route whose requirement or allowed stay differs between
// two matrix snapshots.
type RouteChange struct {
	Passport, Destination entrycheck.Country
	From, To              dataset.Verdict
	// Fields names what differs: FieldRequirement, FieldAllowedStayDays.
	Fields []string
}

// CompareMatrices lists the routes whose requirement or allowed stay
// differs from prev to cur, ordered by passport then destination code. Both
// snapshots must cover the same countries (the order of their files may
// differ): a country added to or removed from the matrix is refused, not
// reported, because it changes every route of that country at once and
// needs review before a snapshot is pinned. The snapshots need not be
// pinned.
func CompareMatrices(prev, cur *dataset.Matrix) ([]RouteChange, error) {
	if err := sameCountries(prev, cur); err != nil {
		return nil, err
	}
	countries := cur.Countries()
	var out []RouteChange
	for cp, passport := range countries {
		pp, _ := prev.Position(passport.ISO3)
		for cd, destination := range countries {
			if cp == cd {
				continue
			}
			pd, _ := prev.Position(destination.ISO3)
			from, to := prev.Verdict(pp, pd), cur.Verdict(cp, cd)
			if fields := changedFields(from, to); len(fields) > 0 {
				out = append(out, RouteChange{Passport: passport, Destination: destination, From: from, To: to, Fields: fields})
			}
		}
	}
	slices.SortFunc(out, func(a, b RouteChange) int {
		if c := strings.Compare(a.Passport.ISO3, b.Passport.ISO3); c != 0 {
			return c
		}
		return strings.Compare(a.Destination.ISO3, b.Destination.ISO3)
	})
	return out, nil
}

// ruleChange is the event of one route whose verdict went from from to to,
// or false when neither the requirement nor the stay changed.
func ruleChange(prevVersion, version string, at time.Time, passport, destination entrycheck.Country, from, to dataset.Verdict) (Event, bool, error) {
	fields := changedFields(from, to)
	if len(fields) == 0 {
		return Event{}, false, nil
	}
	c := RuleChange{
		Passport:        passport.ISO3,
		Destination:     destination.ISO3,
		PreviousVersion: prevVersion,
		From:            routeValue(from),
		To:              routeValue(to),
	}
	details, err := json.Marshal(c)
	if err != nil {
		return Event{}, false, fmt.Errorf("route %s to %s: %w", passport.ISO3, destination.ISO3, err)
	}
	return Event{
		ID:             "matrix/" + version + "/" + passport.ISO3 + "-" + destination.ISO3,
		Kind:           KindMatrixRuleChanged,
		Time:           at,
		DatasetVersion: version,
		Destinations:   []string{destination.ISO3},
		Fields:         fields,
		Summary:        fmt.Sprintf("%s to %s: %s -> %s", passport.Name, destination.Name, describe(c.From), describe(c.To)),
		Details:        details,
	}, true, nil
}

// sameCountries refuses two snapshots whose country sets differ, naming the
// countries added and removed.
func sameCountries(prev, cur *dataset.Matrix) error {
	var added, removed []string
	for _, c := range cur.Countries() {
		if _, ok := prev.Position(c.ISO3); !ok {
			added = append(added, c.ISO3)
		}
	}
	for _, c := range prev.Countries() {
		if _, ok := cur.Position(c.ISO3); !ok {
			removed = append(removed, c.ISO3)
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	slices.Sort(added)
	slices.Sort(removed)
	return fmt.Errorf("the countries differ (added: %s; removed: %s); route-by-route changes need the same countries in both",
		listOrNone(added), listOrNone(removed))
}

func listOrNone(codes []string) string {
	if len(codes) == 0 {
		return "none"
	}
	return strings.Join(codes, ", ")
}

// changedFields names what differs between two verdicts of one route.
func changedFields(from, to dataset.Verdict) []string {
	var fields []string
	if from.Requirement != to.Requirement {
		fields = append(fields, FieldRequirement)
	}
	if from.Days != to.Days {
		fields = append(fields, FieldAllowedStayDays)
	}
	return fields
}

func routeValue(v dataset.Verdict) RouteValue {
	return RouteValue{Requirement: v.Requirement, AllowedStayDays: v.Days, MatrixValue: v.Raw}
}

// describe is a route value in a few words: "visa-free (30 days)", "ETA".
func describe(v RouteValue) string {
	label := v.Requirement.ChangeLabel()
	if v.Requirement != entrycheck.VisaFree || !v.AllowedStayDays.Valid {
		return label
	}
	if v.AllowedStayDays.N == 1 {
		return label + " (1 day)"
	}
	return fmt.Sprintf("%s (%d days)", label, v.AllowedStayDays.N)
}
