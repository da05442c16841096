package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/evaluation"
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
	pos, code, ok := positionals(fs, args, 1)
	if !ok {
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

// printTrip writes a trip evaluation for people (answertext.Text).
func printTrip(w io.Writer, r entrycheck.TripResult) {
	io.WriteString(w, answertext.Text(answertext.Trip(r)))
}
