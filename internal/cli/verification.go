package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/entrycheck/entrycheck/dataset"
	"github.com/entrycheck/entrycheck/evaluation"
	"github.com/entrycheck/entrycheck/generator"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// verifiedEvaluator builds the evaluator of snap with the records'
// verification state from the event log of st.
func verifiedEvaluator(ctx context.Context, snap *dataset.Snapshot, st *store.Store) (*evaluation.Evaluator, []verify.OpenFlag, error) {
	v, open, err := verify.Load(ctx, st, snap.Curated.Records())
	if err != nil {
		return nil, nil, fmt.Errorf("reading the verification events: %w", err)
	}
	return evaluation.NewVerified(snap, v), open, nil
}

// openData loads the snapshot and opens the store of cfg for the commands
// that work on both; on failure it has reported the problem and returns the
// exit code. The caller closes the store.
func openData(ctx context.Context, cfg config.Config, env Env, storeHint string) (*dataset.Snapshot, *store.Store, int) {
	snap, err := loadSnapshot(cfg)
	if err != nil {
		return nil, nil, reportError(env.Stderr, err)
	}
	st, err := store.Open(ctx, cfg.Database)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v%s\n", err, storeHint)
		return nil, nil, ExitFailure
	}
	return snap, st, ExitOK
}

// loadEvaluator is the evaluator of the check, passport and trip commands:
// with the verification state of the event log when there is one, else as
// the citations date the records (which is what an empty log gives). A
// database that exists but cannot be read (a running serve owns a SQLite
// file) is said on stderr.
func loadEvaluator(ctx context.Context, cfg config.Config, env Env) (*evaluation.Evaluator, error) {
	snap, err := loadSnapshot(cfg)
	if err != nil {
		return nil, err
	}
	if !isPostgres(cfg.Database) {
		if _, err := os.Stat(strings.TrimPrefix(cfg.Database, "sqlite://")); err != nil {
			return evaluation.New(snap), nil
		}
	}
	st, err := store.Open(ctx, cfg.Database)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: note: verification dates are the citations' (the event log is not readable: %v)\n", err)
		return evaluation.New(snap), nil
	}
	defer st.Close()
	ev, _, err := verifiedEvaluator(ctx, snap, st)
	return ev, err
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// verificationView digests the verification events for the transparency page.
func verificationView(events []changes.Event, open []verify.OpenFlag) generator.Verification {
	var out generator.Verification
	o := verify.Summarize(events)
	if r := o.LastRun; r != nil {
		out.LastRun = &generator.VerificationRun{ID: r.ID, Time: r.Time, Reverified: r.Reverified,
			Baselined: r.Baselined, Changed: r.Changed, Unreachable: r.Unreachable}
	}
	for _, d := range changes.VerificationDays(events) {
		out.Days = append(out.Days, generator.VerificationDay{Date: d.Date, Reverified: d.Reverified, Baselined: d.Baselined,
			Changed: d.Changed, Unreachable: d.Unreachable, Flagged: d.Flagged, Reviewed: d.Reviewed})
	}
	for _, f := range open {
		out.Flags = append(out.Flags, generator.VerificationFlag{ID: f.ID, Destination: f.Record.Destination, Field: f.Record.Field,
			SourceName: f.SourceName, URL: f.Record.Source.URL, Change: f.Change, Since: f.Since, Rejected: f.Rejected, Note: f.Note})
	}
	for _, u := range o.Unreachable {
		out.Unreachable = append(out.Unreachable, generator.UnreachableSource{SourceName: u.Name, URL: u.URL,
			Problem: u.Problem, Since: u.Since, Destinations: u.Destinations})
	}
	return out
}
