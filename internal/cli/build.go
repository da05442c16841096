package cli

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
	"github.com/entrycheck/entrycheck/internal/widget"
)

func runBuild(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "build", "")
	cfg.RegisterBuild(fs)
	if code, ok := configured(env, &cfg, fs.Parse(args)); !ok {
		return code
	}
	if os.Getenv("GOMEMLIMIT") == "" && cfg.BuildMemoryMiB > 0 {
		// Restored after, for a process that goes on (the tests).
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(cfg.BuildMemoryMiB) << 20))
	}
	ctx := context.Background()
	snap, st, code := openData(ctx, cfg, env, "")
	if code != ExitOK {
		return code
	}
	defer st.Close()
	ev, opts, err := siteInputs(ctx, cfg, st, snap, env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitFailure
	}
	if isTerminal(env.Stderr) && os.Getenv("CI") == "" {
		opts.Progress = env.Stderr
	}
	codes := make([]string, len(opts.Languages))
	for i, l := range opts.Languages {
		codes[i] = l.Code
	}
	in := "in English"
	if len(codes) > 1 {
		in = fmt.Sprintf("in %d languages (%s)", len(codes), strings.Join(codes, ", "))
	}
	fmt.Fprintf(env.Stdout, "building the site into %s/ %s…\n", strings.TrimSuffix(cfg.PublicDir, "/"), in)
	report, err := generator.Build(ctx, ev, opts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: building the site: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintln(env.Stdout, buildSummary(cfg.PublicDir, report))
	return ExitOK
}

// buildSummary is the build's last line, for a person: where the site went,
// how much it holds, and what this run changed.
func buildSummary(dir string, r generator.Report) string {
	n := locale.Embedded().English().Number
	return fmt.Sprintf("built the site into %s/: %s files, %s (%s routes; %s written, %s unchanged, %s deleted) in %s",
		strings.TrimSuffix(dir, "/"), n(r.Files), size(r.Bytes), n(r.Routes),
		n(r.Written), n(r.Skipped), n(r.Deleted), r.Duration.Round(100*time.Millisecond))
}

// size writes a byte count in decimal units, as disks are sold and du -h
// --si prints: 451.9 MB, 4.8 GB.
func size(b int64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d bytes", b)
}

// siteInputs records the rule changes against the previous snapshot, if one
// is configured, and gathers what the generator needs: the evaluator with
// the records' verification state, the feeds and the verification activity
// from the event log, the discovery documents and the widget bundle.
func siteInputs(ctx context.Context, cfg config.Config, st *store.Store, snap *dataset.Snapshot, env Env) (*evaluation.Evaluator, generator.Options, error) {
	fail := func(err error) (*evaluation.Evaluator, generator.Options, error) {
		return nil, generator.Options{}, err
	}
	langs, err := locale.Embedded().Select(cfg.Languages)
	if err != nil {
		return fail(fmt.Errorf("--languages: %w", err))
	}
	if cfg.PreviousMatrixDir != "" {
		lock, err := dataset.LockAt(cfg.DataLock)
		if err != nil {
			return fail(err)
		}
		prev, err := dataset.LoadMatrix(cfg.PreviousMatrixDir, lock, snap.Countries)
		if err != nil {
			return fail(fmt.Errorf("loading the previous matrix: %w", err))
		}
		n, err := changes.Record(ctx, st, prev, snap.Matrix)
		if err != nil {
			return fail(fmt.Errorf("recording rule changes: %w", err))
		}
		if n > 0 {
			fmt.Fprintf(env.Stdout, "recorded %d rule changes from %s to %s\n", n, prev.Version(), snap.Version())
		}
	}
	events, err := changes.Load(ctx, st, 0)
	if err != nil {
		return fail(err)
	}
	state, open := verify.State(snap.Curated.Records(), events)
	ev := evaluation.NewVerified(snap, state)
	extra, err := feedFiles(cfg, snap.Version(), events)
	if err != nil {
		return fail(err)
	}
	baseline, changed := changes.History(events, snap.Version())
	site := apidoc.SiteOf(cfg, ev)
	extra = append(extra, generator.File{Path: "/openapi.json", Body: apidoc.For(site)})
	for _, d := range discovery.Documents(site) {
		extra = append(extra, generator.File{Path: d.Path, Body: d.Body, MediaType: d.MediaType, Link: d.Link})
	}
	embed, err := widget.Bundle(snap.Matrix.Countries())
	if err != nil {
		return fail(fmt.Errorf("bundling the widget: %w", err))
	}
	for _, f := range embed {
		extra = append(extra, generator.File{Path: f.Path, Body: f.Body, MediaType: f.MediaType})
	}
	return ev, generator.Options{
		OutDir:       cfg.PublicDir,
		GeoDir:       cfg.GeoDir,
		BaseURL:      cfg.BaseURL,
		Clock:        env.Clock,
		History:      generator.History{Baseline: baseline, Changed: changed},
		Extra:        extra,
		Verification: verify.Summarize(events, open),
		Languages:    langs,
	}, nil
}

// feedFiles renders /changes.json, the Atom feed and their monthly
// archives from the event log.
func feedFiles(cfg config.Config, datasetVersion string, events []changes.Event) ([]generator.File, error) {
	docs, err := changes.Documents(changes.FeedSite{BaseURL: cfg.BaseURL, DatasetVersion: datasetVersion}, events)
	if err != nil {
		return nil, err
	}
	files := make([]generator.File, len(docs))
	for i, d := range docs {
		files[i] = generator.File{Path: d.Path, Body: d.Body}
	}
	return files, nil
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
