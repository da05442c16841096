package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
)

func runPassport(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "passport", "Usage: entrycheck passport PASSPORT [options]\n\nLists the requirement of one passport (ISO 3166-1 alpha-3) for every destination.\n\nOptions:")
	cfg.RegisterAnswer(fs)
	asJSON := fs.Bool("json", false, "print the exact API JSON")
	pos, code, ok := positionals(fs, args, 1)
	if !ok {
		return code
	}
	ev, err := loadEvaluator(context.Background(), cfg, env)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	pm, err := ev.PassportMatrix(pos[0], "", env.Clock)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	if *asJSON {
		return writeJSON(env.Stdout, pm)
	}
	printMatrix(env.Stdout, pm)
	return ExitOK
}

func printMatrix(w io.Writer, pm entrycheck.PassportMatrix) {
	fmt.Fprintf(w, "%s, dataset %s\n\n", entrycheck.PassportWords(pm.Passport.Name+" ("+pm.Passport.ISO3+")"), pm.DatasetVersion)
	if len(pm.Destinations) == 0 {
		fmt.Fprintln(w, "The secondary visa table does not cover this passport: every requirement is unknown. Check with each destination's official authority.")
	}
	for _, req := range entrycheck.Requirements {
		if pm.Counts[req] == 0 {
			continue
		}
		fmt.Fprintf(w, "%s (%d)\n", req.Label(), pm.Counts[req])
		for _, d := range pm.Destinations {
			if d.Requirement != req {
				continue
			}
			line := fmt.Sprintf("  %s %s", d.Destination.ISO3, d.Destination.Name)
			if d.AllowedStayDays.Valid {
				line += fmt.Sprintf(" (%d days)", d.AllowedStayDays.N)
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintf(w, "\n%s\n", pm.Disclaimer)
}
