package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// verifiedEvaluator builds the evaluator of snap with the records'
// verification state from the event log of st.
func verifiedEvaluator(ctx context.Context, snap *dataset.Snapshot, st *store.Store) (*evaluation.Evaluator, []entrycheck.VerificationFlag, error) {
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
