package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/pagefetch"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
)

func runVerify(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "verify", "Usage: entrycheck verify [options]\n\nRe-reads every source cited by the curated layer once, records what it found in the event log\n(re-verified, changed -> the records citing it need review, unreachable) and exits; for cron.\n`entrycheck serve` runs the same daily (--verify-at). Run `entrycheck build` afterwards to publish it.\n\nOptions:")
	cfg.RegisterVerify(fs)
	if code, ok := configured(env, &cfg, fs.Parse(args)); !ok {
		return code
	}
	ctx := context.Background()
	snap, st, code := openData(ctx, cfg, env, "\n(with SQLite, a running `entrycheck serve` owns the database and runs the verification itself, daily)")
	if code != ExitOK {
		return code
	}
	defer st.Close()
	runner, err := newRunner(cfg, st, snap, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitFailure
	}
	if isTerminal(env.Stderr) && os.Getenv("CI") == "" {
		runner.Progress = func(done, total int) { fmt.Fprintf(env.Stderr, "\rreading sources: %d/%d", done, total) }
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Verify.Timeout)
	defer cancel()
	rep, err := runner.Run(ctx)
	if runner.Progress != nil {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: verification: %v\n", err)
		return ExitFailure
	}
	if rep.Skipped {
		fmt.Fprintln(env.Stdout, "another instance is running the verification; nothing done")
		return ExitOK
	}
	for _, s := range rep.Sources {
		fmt.Fprintf(env.Stdout, "%-11s %s\n            %s\n", s.Outcome, s.URL, s.Detail)
	}
	fmt.Fprintf(env.Stdout, "run %s: %d sources: %d re-verified, %d read for the first time, %d changed (%d records flagged), %d unreachable\n",
		rep.ID, len(rep.Sources), rep.Reverified, rep.Baselined, rep.Changed, rep.Flagged, rep.Unreachable)
	return ExitOK
}

// newRunner wires the verification of snap's cited records.
func newRunner(cfg config.Config, st *store.Store, snap *dataset.Snapshot, env Env) (verify.Runner, error) {
	v := cfg.Verify
	f, err := pagefetch.New(pagefetch.Config{
		UserAgent:    cfg.UserAgent(),
		Timeout:      v.RequestTimeout,
		Retries:      noneIfZero(v.Retries),
		HostInterval: noneIfZero(v.HostInterval),
		Concurrency:  v.Concurrency,
	})
	if err != nil {
		return verify.Runner{}, err
	}
	return verify.Runner{Store: st, Fetcher: f, Records: snap.Curated.Records(),
		DatasetVersion: snap.Version(), Clock: env.Clock}, nil
}

// scheduleVerification starts serve's daily verification, unless it is
// off. After each run the evaluator is rebuilt from the event log and
// handed to setEvaluator, so that the API answers with the new state at
// once; the static pages show it from the next build. wait returns when
// the schedule has stopped, after ctx ends, so that the store outlives it.
func scheduleVerification(ctx context.Context, cfg config.Config, st *store.Store, snap *dataset.Snapshot, env Env, log *slog.Logger, setEvaluator func(*evaluation.Evaluator)) (wait func(), err error) {
	offset, on, err := cfg.Verify.VerifyClock()
	if err != nil || !on {
		return func() {}, err
	}
	runner, err := newRunner(cfg, st, snap, env)
	if err != nil {
		return nil, err
	}
	daily := verify.Daily{Offset: offset, Jitter: cfg.Verify.Jitter}
	log.Info("verification scheduled", "at_utc", cfg.Verify.At, "jitter", cfg.Verify.Jitter.String(),
		"next", daily.Next(env.Clock.Now(), 0).Format(time.RFC3339))
	done := make(chan struct{})
	go func() {
		defer close(done)
		daily.Loop(ctx, env.Clock.Now, func(ctx context.Context) { verifyAndReload(ctx, cfg, runner, snap, st, log, setEvaluator) })
	}()
	return func() { <-done }, nil
}

// verifyAndReload is one scheduled run.
func verifyAndReload(ctx context.Context, cfg config.Config, runner verify.Runner, snap *dataset.Snapshot, st *store.Store, log *slog.Logger, setEvaluator func(*evaluation.Evaluator)) {
	rctx, cancel := context.WithTimeout(ctx, cfg.Verify.Timeout)
	defer cancel()
	rep, err := runner.Run(rctx)
	switch {
	case err != nil:
		log.Error("verification failed", "error", err)
		return
	case rep.Skipped:
		log.Info("verification skipped: another instance holds the lock")
		return
	}
	log.Info("verification done", "run", rep.ID, "sources", len(rep.Sources), "reverified", rep.Reverified,
		"baselined", rep.Baselined, "changed", rep.Changed, "flagged", rep.Flagged, "unreachable", rep.Unreachable)
	// One reading of the log serves the new state and the feeds.
	events, err := changes.Load(ctx, st, 0)
	if err != nil {
		log.Error("reloading the verification state", "error", err)
		return
	}
	state, _ := verify.State(snap.Curated.Records(), events)
	setEvaluator(evaluation.NewVerified(snap, state))
	files, err := feedFiles(cfg, snap.Version(), events)
	if err == nil {
		err = generator.Update(cfg.PublicDir, files)
	}
	if err != nil {
		log.Error("publishing the feeds", "error", err)
	}
}

// noneIfZero maps a setting of 0 ("none", as the operator wrote it) to
// pagefetch's "none", where 0 means its default.
func noneIfZero[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}
