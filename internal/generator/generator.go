// Package generator renders the whole public tree at build time: a page and
// its markdown variant for every passport, destination and route, the
// indexes, the transparency report, the guides, sitemaps, robots.txt,
// llms.txt and llms-full.txt, plus the files other packages hand it
// (discovery documents, feeds, the OpenAPI description). Every verdict comes
// from the evaluation core; templates only present computed view models.
//
// It depends on the domain, the dataset and the evaluation core, the words
// (answertext, locale), the templates, the world map, the discovery
// documents, the site tree's layout and the compression of its files;
// only the command imports it, never the API.
package generator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// File is a file to write into the tree as it is, such as a discovery document.
type File struct {
	Path string // from the site root, with a leading slash
	Body []byte
	// MediaType and Link, when set, are served as Content-Type and Link
	// for this file (see sitetree.HeadersFile); otherwise the name decides.
	MediaType, Link string
}

// Options configure a build.
type Options struct {
	OutDir  string
	BaseURL string
	Clock   entrycheck.Clock
	// History dates each route's verdict: since which snapshot it holds.
	History History
	// Extra files are written as they are.
	Extra []File
	// Verification is the verification activity the transparency page shows.
	Verification entrycheck.VerificationReport
	// GeoDir holds the world map's country shapes (world-atlas 2.0.2).
	GeoDir string
	// Languages are the languages pages are rendered in, English first
	// (locale.Catalogs.Select); nil renders English only.
	Languages []*locale.Catalog
	// Progress receives a progress line while routes render; nil for none.
	Progress io.Writer
	Workers  int
}

// History says since which matrix snapshot each route's verdict holds.
// Routes not in Changed hold since Baseline, the oldest snapshot recorded.
type History struct {
	Baseline string
	Changed  map[[2]string]string // {passport, destination} -> snapshot of the last change
}

// Report counts what a build did.
type Report struct {
	Files, Written, Skipped, Deleted int
	Bytes                            int64
	Routes                           int
	Duration                         time.Duration
}

// site is one build in progress.
type site struct {
	ev       *evaluation.Evaluator
	opts     Options
	w        *writer
	now      time.Time
	assets   assets
	worldMap worldMap
	social   socialImages
	summary  *summary
	modified *modified
	// translated holds the English paths of the pages published in other
	// languages too (publish), whose versions the sitemap lists.
	translated sync.Map
	// countries are what the search forms offer; officialPages the
	// destinations' official pages (see officialPagesOf), both by language
	// code, computed once a build rather than once a page.
	countries     map[string][]templates.CountryOption
	officialPages map[string]map[string][]officialPage
	// langs are the languages of the build, English first.
	langs []*locale.Catalog
}

// Build renders the tree into opts.OutDir, writing only files whose content changed.
func Build(ctx context.Context, ev *evaluation.Evaluator, opts Options) (Report, error) {
	start := time.Now()
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.Clock == nil {
		opts.Clock = entrycheck.SystemClock{}
	}
	if opts.History.Baseline == "" {
		opts.History.Baseline = ev.Snapshot().Version()
	}
	w, err := newWriter(opts.OutDir)
	if err != nil {
		return Report{}, err
	}
	s := &site{ev: ev, opts: opts, w: w, now: opts.Clock.Now().UTC(), summary: newSummary(), modified: newModified(), langs: opts.Languages}
	if len(s.langs) == 0 {
		s.langs = []*locale.Catalog{entrycheck.English()}
	}
	s.countries = map[string][]templates.CountryOption{}
	s.officialPages = map[string]map[string][]officialPage{}
	for _, c := range s.langs {
		s.countries[c.Code] = templates.CountryOptionsIn(c, ev.Snapshot().Matrix.Countries(), ev.Snapshot().Countries.Aliases)
		s.officialPages[c.Code] = officialPagesOf(c, ev.Snapshot().Curated.Destinations)
	}
	if s.assets, err = s.writeAssets(); err != nil {
		return Report{}, err
	}
	if s.social, err = s.writeSocialImages(); err != nil {
		return Report{}, err
	}
	if s.worldMap, err = s.writeWorldMap(); err != nil {
		return Report{}, fmt.Errorf("drawing the world map: %w", err)
	}
	routes, err := s.renderRoutes(ctx)
	if err != nil {
		return Report{}, err
	}
	steps := []func() error{s.renderPassportDocuments, s.renderDestinations, s.renderIndexes, s.renderHome, s.renderTransparency, s.renderDocuments, s.renderCrawlerFiles}
	for _, step := range steps {
		if err := step(); err != nil {
			return Report{}, err
		}
	}
	headers := map[string]sitetree.FileHeaders{}
	for _, f := range opts.Extra {
		if err := w.write(trimSlash(f.Path), f.Body); err != nil {
			return Report{}, err
		}
		if f.MediaType != "" || f.Link != "" {
			headers[trimSlash(f.Path)] = sitetree.FileHeaders{ContentType: f.MediaType, Link: f.Link}
		}
	}
	hb, err := json.MarshalIndent(headers, "", "  ")
	if err != nil {
		return Report{}, err
	}
	if err := w.write(sitetree.HeadersFile, append(hb, '\n')); err != nil {
		return Report{}, err
	}
	info, err := json.MarshalIndent(sitetree.Info{BaseURL: opts.BaseURL, DatasetVersion: ev.Snapshot().Version()}, "", "  ")
	if err != nil {
		return Report{}, err
	}
	if err := w.write(sitetree.InfoFile, append(info, '\n')); err != nil {
		return Report{}, err
	}
	deleted, err := w.finish()
	if err != nil {
		return Report{}, err
	}
	return Report{
		Files: w.manifest.files(), Written: int(w.written.Load()), Skipped: int(w.skipped.Load()), Deleted: deleted,
		Bytes: w.bytes.Load(), Routes: routes, Duration: time.Since(start),
	}, nil
}

// assets are the content-hashed paths of the stylesheet, script and favicon.
type assets struct{ css, js, icon string }

func (s *site) writeAssets() (assets, error) {
	var a assets
	for _, f := range []struct {
		name string
		dst  *string
	}{{"site.css", &a.css}, {"site.js", &a.js}, {"favicon.svg", &a.icon}} {
		p, b, err := templates.AssetPath(f.name)
		if err != nil {
			return a, err
		}
		*f.dst = p
		if err := s.w.write(trimSlash(*f.dst), b); err != nil {
			return a, err
		}
	}
	return a, nil
}

// renderRoutes renders every passport page with its routes, one passport
// per job, on all workers.
func (s *site) renderRoutes(ctx context.Context) (int, error) {
	countries := s.ev.Snapshot().Matrix.Countries()
	jobs := make(chan int)
	errs := make(chan error, s.opts.Workers)
	var done atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < s.opts.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newRenderer()
			for p := range jobs {
				n, err := s.renderPassport(r, countries[p])
				if err != nil {
					errs <- err
					return
				}
				if total := done.Add(int64(n)); s.opts.Progress != nil {
					fmt.Fprintf(s.opts.Progress, "\rrendering routes: %d/%d", total, s.ev.Snapshot().Matrix.Routes())
				}
			}
		}()
	}
	var err error
feed:
	for p := range countries {
		select {
		case jobs <- p:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if s.opts.Progress != nil {
		fmt.Fprintln(s.opts.Progress)
	}
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return int(done.Load()), err
}

func trimSlash(p string) string {
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	return p
}
