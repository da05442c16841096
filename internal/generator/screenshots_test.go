package generator_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
)

// TestScreenshots photographs the pages people read, at desktop and 390 px
// mobile width and in dark mode, into the directory named by
// ENTRYCHECK_SCREENSHOTS (skipped without it): home, a passport page, a
// route of every requirement the matrix has, an unknown verdict (a country
// outside the matrix, which has no page in a build), a destination page and
// the 404 page.
func TestScreenshots(t *testing.T) {
	out := os.Getenv("ENTRYCHECK_SCREENSHOTS")
	if out == "" {
		t.Skip("set ENTRYCHECK_SCREENSHOTS=dir to take the screenshots")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	ev := datatest.Evaluator(t)
	site := serveTree(t, built(t))
	unknown, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "ATA"}, buildDay)
	if err != nil || unknown.Requirement != entrycheck.Unknown {
		t.Fatalf("DEU to ATA: %v %v", unknown.Requirement, err)
	}
	page, err := generator.RouteHTML(ev, unknown, buildDay.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/preview/unknown/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
			return
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()

	shots := []struct{ name, path string }{
		{"home", "/"},
		{"passport", "/passports/deu/"},
		{"destination", "/destinations/tha/"},
		{"404", "/passports/deu/nowhere/"},
		{"route-unknown", "/preview/unknown/"},
	}
	// A route of each requirement, from passports people look up most.
	for _, req := range entrycheck.Requirements {
		if p, d, ok := routeOf(t, req); ok {
			shots = append(shots, struct{ name, path string }{"route-" + string(req), "/passports/" + p + "/" + d + "/"})
		}
	}
	ctx := browser(t)
	for _, s := range shots {
		for _, form := range []struct {
			suffix string
			width  int64
			mobile bool
			dark   bool
		}{{"desktop", 1280, false, false}, {"mobile", 390, true, false}, {"dark", 1280, false, true}} {
			scheme := "light"
			if form.dark {
				scheme = "dark"
			}
			err := chromedp.Do(ctx,
				chromedp.EmulateViewport(form.width, 900, func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
					p.Mobile = form.mobile
				}),
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
					return err
				}),
				chromedp.Navigate(srv.URL+s.path),
			)
			if err != nil {
				t.Fatalf("%s %s: %v", s.name, form.suffix, err)
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatalf("%s %s: %v", s.name, form.suffix, err)
			}
			if err := os.WriteFile(filepath.Join(out, s.name+"-"+form.suffix+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// routeOf finds a route with the requirement, preferring a destination
// with cited entry rules, among a few common passports.
func routeOf(t *testing.T, req entrycheck.Requirement) (p, d string, ok bool) {
	ev := datatest.Evaluator(t)
	var fallback [2]string
	for _, pc := range []string{"DEU", "USA", "IND", "NGA", "SYR", "AFG"} {
		for _, dc := range ev.Snapshot().Matrix.Countries() {
			if dc.ISO3 == pc {
				continue
			}
			res, err := ev.Check(entrycheck.CheckRequest{Passport: pc, Destination: dc.ISO3}, buildDay)
			if err != nil || res.Requirement != req {
				continue
			}
			code := [2]string{strings.ToLower(pc), strings.ToLower(dc.ISO3)}
			if res.EntryRules.Coverage == entrycheck.CoverageExtended {
				return code[0], code[1], true
			}
			if fallback[0] == "" {
				fallback = code
			}
		}
	}
	return fallback[0], fallback[1], fallback[0] != ""
}

// TestUnknownRoutePage: a route the matrix has no value for says so, sends
// the traveller to the embassy and claims no matrix value or history.
func TestUnknownRoutePage(t *testing.T) {
	ev := datatest.Evaluator(t)
	res, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "ATA"}, buildDay)
	if err != nil || res.Requirement != entrycheck.Unknown {
		t.Fatalf("DEU to ATA: %v %v", res.Requirement, err)
	}
	b, err := generator.RouteHTML(ev, res, buildDay.Now())
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`tone-unknown`, `data-requirement="unknown"`, res.RequirementLabel, "has no value for this route", "Ask the embassy or consulate of Antarctica"} {
		if !strings.Contains(page, want) {
			t.Errorf("the unknown route page lacks %q", want)
		}
	}
	for _, bad := range []string{"<code></code>", "holds since", "Allowed stay"} {
		if strings.Contains(page, bad) {
			t.Errorf("the unknown route page says %q", bad)
		}
	}
}
