package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/verify"
)

const reviewUsage = `Usage:
  entrycheck review [options]                      list the flags and the baselines awaiting a curator
  entrycheck review accept ID --note TEXT [opts]   the records hold against the live page
  entrycheck review reject ID --note TEXT [opts]   they no longer hold: correct the curated layer

It first lists the routes where an official statement in force contradicts the matrix
(they are answered needs_review until the curated layer settles them). A record is flagged when the daily verification finds that its cited page changed. The
verifier's first reading of a page is a baseline: it verifies nothing until a curator confirms
that the live page says what the records citing it say. Accepting a flag or a baseline verifies
the records as of today; rejecting keeps them flagged until the curated record is corrected and
re-imported with a citation read after the review. Both are published as events with the note.

Options:`

func runReview(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "review", reviewUsage)
	cfg.RegisterAnswer(fs)
	note := fs.String("note", "", "what the curator checked (required to accept or reject)")
	positional, err := parseInterleaved(fs, args)
	if code, ok := configured(env, &cfg, err); !ok {
		return code
	}
	var accept bool
	switch {
	case len(positional) == 0 || (len(positional) == 1 && positional[0] == "list"):
	case len(positional) == 2 && (positional[0] == "accept" || positional[0] == "reject"):
		accept = positional[0] == "accept"
	default:
		fs.Usage()
		return ExitUsage
	}
	ctx := context.Background()
	snap, st, code := openData(ctx, cfg, env, "")
	if code != ExitOK {
		return code
	}
	defer st.Close()
	records := snap.Curated.Records()
	if len(positional) == 2 {
		ev, err := verify.Review(ctx, st, records, positional[1], accept, *note, snap.Version(), env.Clock.Now())
		if err != nil {
			fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
			return ExitUsage
		}
		fmt.Fprintf(env.Stdout, "recorded %s: %s\n", ev.ID, ev.Summary)
		return ExitOK
	}
	folded, err := verify.LoadFolded(ctx, st, records)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitFailure
	}
	open := folded.Open
	listConflicts(env, evaluation.New(snap).Corroboration(entrycheck.DateOf(env.Clock.Now())))
	listBaselines(env, folded.Baselines)
	if len(open) == 0 {
		fmt.Fprintln(env.Stdout, "no record needs review")
		return ExitOK
	}
	for _, f := range open {
		who := f.Record.Destination
		if who == "" {
			who = "(every destination)"
		}
		fmt.Fprintf(env.Stdout, "%s\n  record:  %s %s\n  source:  %s <%s>\n  changed: %s\n  since:   %s\n",
			f.ID, who, f.Record.Field, f.SourceName, f.Record.Source.URL, f.Change, f.Since.UTC().Format(time.RFC3339))
		if f.Rejected {
			fmt.Fprintf(env.Stdout, "  rejected: %s (correct the curated record)\n", f.Note)
		}
	}
	fmt.Fprintf(env.Stdout, "%d records need review\n", len(open))
	return ExitOK
}

// listConflicts lists the routes where an official statement in force
// contradicts the matrix, for a curator to settle, with the counts the
// transparency page gives.
func listConflicts(env Env, rep entrycheck.CorroborationReport) {
	fmt.Fprintf(env.Stdout, "official statements on %s: %s routes corroborated, %s in conflict with the matrix\n",
		rep.Day, entrycheck.Thousands(rep.Corroborated), entrycheck.Thousands(rep.Conflicting))
	for _, c := range rep.Conflicts {
		fmt.Fprintf(env.Stdout, "  conflict: %s\n", c.Words())
	}
}

// listBaselines lists the first readings awaiting a curator's confirmation.
func listBaselines(env Env, baselines []verify.Baseline) {
	for _, b := range baselines {
		fmt.Fprintf(env.Stdout, "%s\n  baseline: first live reading, awaiting confirmation\n  source:   %s <%s>\n  read:     %s\n",
			b.ID, b.SourceName, b.URL, b.Since.UTC().Format(time.RFC3339))
		for _, r := range b.Records {
			who := r.Destination
			if who == "" {
				who = "(every destination)"
			}
			fmt.Fprintf(env.Stdout, "  record:   %s %s\n", who, r.Field)
		}
	}
	if len(baselines) > 0 {
		fmt.Fprintf(env.Stdout, "%d baselines await confirmation\n", len(baselines))
	}
}
