package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/evaluation"
	"github.com/entrycheck/entrycheck/internal/config"
)

const tripUsage = `Usage: entrycheck trip FILE.json [options]

Evaluates a whole itinerary, the body of POST /v1/trips/evaluate; FILE - reads standard input.
Example: {"traveler": {"passports": ["DEU"]}, "trip": {"legs": [{"country": "THA", "arrival": "2027-01-10", "departure": "2027-01-24"}]}}

Options:`

func runTrip(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "trip", tripUsage)
	cfg.RegisterAnswer(fs)
	asJSON := fs.Bool("json", false, "print the exact API JSON")
	pos, code := positionals(fs, args, 1)
	if code != ExitOK {
		return code
	}
	req, err := readTripRequest(pos[0])
	if err != nil {
		return reportTripError(env.Stderr, pos[0], err)
	}
	ev, err := loadEvaluator(context.Background(), cfg, env)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	res, err := ev.EvaluateTrip(req, "", env.Clock)
	if err != nil {
		return reportTripError(env.Stderr, pos[0], err)
	}
	if *asJSON {
		return writeJSON(env.Stdout, res)
	}
	printTrip(env.Stdout, res)
	return ExitOK
}

// readTripRequest decodes the request in a file, or in standard input for "-".
func readTripRequest(name string) (entrycheck.TripRequest, error) {
	if name == "-" {
		return evaluation.DecodeTripRequest(os.Stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return entrycheck.TripRequest{}, fmt.Errorf("reading the trip request: %w", err)
	}
	defer f.Close()
	return evaluation.DecodeTripRequest(f)
}

// reportTripError lists every problem of an invalid request with its JSON
// pointer and exits 2; other errors go to reportError.
func reportTripError(w io.Writer, file string, err error) int {
	var e *entrycheck.Error
	if !errors.As(err, &e) || e.Code != entrycheck.EINVALID {
		return reportError(w, err)
	}
	fmt.Fprintf(w, "entrycheck: %s: %s (%d problems)\n", file, e.Message, len(e.Problems))
	for _, p := range e.Problems {
		field := p.Field
		if field == "" {
			field = "(body)"
		}
		fmt.Fprintf(w, "  %s [%s]: %s\n", field, p.Code, p.Message)
	}
	return ExitUsage
}

// printTrip writes a trip evaluation for people.
func printTrip(w io.Writer, r entrycheck.TripResult) {
	s := r.Summary
	legs := "legs"
	if s.Counts.Legs == 1 {
		legs = "leg"
	}
	fmt.Fprintf(w, "Trip of %d %s: %s\n  %s\n", s.Counts.Legs, legs, strings.ToUpper(strings.ReplaceAll(string(s.Status), "_", " ")), s.Text)
	if len(s.Attention) > 0 {
		fmt.Fprintln(w, "\nAttention:")
		for _, a := range s.Attention {
			fmt.Fprintf(w, "  - %s\n", a)
		}
	}
	for _, l := range r.Legs {
		printLeg(w, l)
	}
	if sc := r.Schengen; sc != nil {
		fmt.Fprintf(w, "\nSchengen, %d days in any %d: %s\n  %s\n", sc.LimitDays, sc.WindowDays, strings.ReplaceAll(string(sc.Status), "_", " "), sc.Detail)
		for _, sl := range sc.Legs {
			days := "undated"
			if sl.Days.Valid {
				days = strconv.Itoa(sl.Days.N) + " days"
			}
			fmt.Fprintf(w, "  - leg %d %s, %s: %s\n", sl.Index+1, sl.Country, days, sl.Reason)
		}
		fmt.Fprintf(w, "    Source (Schengen states): %s\n", cite(sc.Source))
	}
	fmt.Fprintln(w, "\nDefaults applied:")
	for _, d := range r.DefaultsApplied {
		fmt.Fprintf(w, "  - %s = %s", d.Field, d.Value)
		if len(d.Indexes) > 0 {
			fmt.Fprintf(w, " (%s)", items(d.Field, d.Indexes))
		}
		fmt.Fprintf(w, ": %s\n", d.Reason)
	}
	fmt.Fprintln(w, "Assumptions:")
	for _, a := range r.Assumptions {
		fmt.Fprintf(w, "  - %s\n", a)
	}
	fmt.Fprintf(w, "\nRequest %s, evaluated %s, dataset %s\n\n%s\n", r.RequestID, r.EvaluatedAt.Format("2006-01-02 15:04:05 MST"), r.DatasetVersion, r.Disclaimer)
}

func printLeg(w io.Writer, l entrycheck.LegDecision) {
	kind := l.Purpose
	if l.Transit {
		kind = "transit"
	}
	fmt.Fprintf(w, "\nLeg %d: %s (%s), %s, %s: %s\n", l.Index+1, l.Country.Name, l.Country.ISO3, legDates(l), kind, strings.ToUpper(strings.ReplaceAll(string(l.Status), "_", " ")))
	verdict := l.RequirementLabel
	if l.AllowedStayDays.Valid {
		verdict += fmt.Sprintf(", up to %d days", l.AllowedStayDays.N)
	}
	fmt.Fprintf(w, "  %s passport: %s. Action: %s\n", l.Passport.Country.ISO3, verdict, strings.ReplaceAll(string(l.Action), "_", " "))
	fmt.Fprintln(w, "  Why:")
	for _, y := range l.Why {
		fmt.Fprintf(w, "    - %s\n", y)
	}
	fmt.Fprintln(w, "  Conditions:")
	for _, c := range l.Conditions {
		mark := string(c.Status)
		if c.ActionNeeded {
			mark += ", action needed"
		}
		fmt.Fprintf(w, "    [%s] %s: %s\n", mark, conditionName(c.Kind), c.Detail)
		if c.RuleText != "" {
			fmt.Fprintf(w, "      Rule: %s\n", c.RuleText)
		}
		if c.Source != nil {
			fmt.Fprintf(w, "      Source: %s\n", cite(*c.Source))
		}
	}
	if len(l.Alternatives) > 1 {
		parts := make([]string, len(l.Alternatives))
		for i, a := range l.Alternatives {
			parts[i] = fmt.Sprintf("#%d %s %s", a.Rank, a.Passport.Country.ISO3, a.Requirement)
			if a.AllowedStayDays.Valid {
				parts[i] += fmt.Sprintf(" (%d days)", a.AllowedStayDays.N)
			}
		}
		fmt.Fprintf(w, "  Passports considered: %s\n", strings.Join(parts, "; "))
	}
	fmt.Fprintf(w, "  Verdict: %s, %s; entry rules: %s\n", l.VerdictVerification.Status, l.VerdictVerification.AgeWords(), l.EntryRulesVerification.Status)
}

func conditionName(kind string) string {
	if kind == entrycheck.ConditionSchengen {
		return "Schengen 90/180"
	}
	return strings.ReplaceAll(kind, "_", " ")
}

func legDates(l entrycheck.LegDecision) string {
	switch {
	case l.Arrival != nil && l.Departure != nil:
		return l.Arrival.String() + " to " + l.Departure.String()
	case l.Arrival != nil:
		return "from " + l.Arrival.String()
	case l.Departure != nil:
		return "until " + l.Departure.String()
	}
	return "no dates"
}

// items names the legs or passports a default applied to, numbered from 1.
func items(field string, indexes []int) string {
	noun := "legs"
	if strings.HasPrefix(field, "traveler.passports") {
		noun = "passports"
	}
	nums := make([]string, len(indexes))
	for i, n := range indexes {
		nums[i] = strconv.Itoa(n + 1)
	}
	return noun + " " + strings.Join(nums, ", ")
}
