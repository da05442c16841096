package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/entrycheck/entrycheck/api"
	"github.com/entrycheck/entrycheck/dataset"
	"github.com/entrycheck/entrycheck/evaluation"
	"github.com/entrycheck/entrycheck/generator"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/widget"
)

func runBuild(env Env, args []string) int {
	cfg := config.Default()
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	cfg.RegisterBuild(fs)
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	if err := cfg.Load(); err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitUsage
	}
	ev, err := loadEvaluator(cfg)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	ctx := context.Background()
	opts, err := siteInputs(ctx, cfg, ev, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitFailure
	}
	if isTerminal(env.Stderr) && os.Getenv("CI") == "" {
		opts.Progress = env.Stderr
	}
	report, err := generator.Build(ctx, ev, opts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: building the site: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(env.Stdout, "built %s: %s\n", cfg.PublicDir, report)
	return ExitOK
}

// siteInputs records the rule changes against the previous snapshot, if one
// is configured, and gathers what the generator needs: the feeds from the
// event log, the discovery documents and the widget bundle.
func siteInputs(ctx context.Context, cfg config.Config, ev *evaluation.Evaluator, env Env) (generator.Options, error) {
	st, err := store.Open(ctx, cfg.Database)
	if err != nil {
		return generator.Options{}, err
	}
	defer st.Close()
	snap := ev.Snapshot()
	if cfg.PreviousMatrixDir != "" {
		prev, err := dataset.LoadMatrix(cfg.PreviousMatrixDir, snap.Countries)
		if err != nil {
			return generator.Options{}, fmt.Errorf("loading the previous matrix: %w", err)
		}
		n, err := changes.Record(ctx, st, prev, snap.Matrix)
		if err != nil {
			return generator.Options{}, fmt.Errorf("recording rule changes: %w", err)
		}
		if n > 0 {
			fmt.Fprintf(env.Stdout, "recorded %d rule changes from %s to %s\n", n, prev.Version(), snap.Version())
		}
	}
	events, err := changes.Load(ctx, st, 0)
	if err != nil {
		return generator.Options{}, err
	}
	feed := changes.FeedSite{BaseURL: cfg.BaseURL, DatasetVersion: snap.Version()}
	changesJSON, err := changes.FeedJSON(feed, events)
	if err != nil {
		return generator.Options{}, err
	}
	atom, err := changes.FeedAtom(feed, events)
	if err != nil {
		return generator.Options{}, err
	}
	baseline, changed := changes.History(events, snap.Version())
	extra := []generator.File{
		{Path: "/openapi.json", Body: api.OpenAPIFor(cfg.BaseURL)},
		{Path: changes.DefaultJSONPath, Body: changesJSON},
		{Path: changes.DefaultAtomPath, Body: atom},
	}
	for _, d := range discovery.Documents(discovery.NewSite(cfg, snap.Version())) {
		extra = append(extra, generator.File{Path: d.Path, Body: d.Body, MediaType: d.MediaType, Link: d.Link})
	}
	embed, err := widget.Bundle(snap.Matrix.Countries())
	if err != nil {
		return generator.Options{}, fmt.Errorf("bundling the widget: %w", err)
	}
	for _, f := range embed {
		extra = append(extra, generator.File{Path: f.Path, Body: f.Body, MediaType: f.MediaType})
	}
	return generator.Options{
		OutDir:  cfg.PublicDir,
		BaseURL: cfg.BaseURL,
		Clock:   env.Clock,
		History: generator.History{Baseline: baseline, Changed: changed},
		Extra:   extra,
	}, nil
}

// isTerminal reports whether w is a terminal, where a progress line helps.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
