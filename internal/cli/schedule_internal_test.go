package cli

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/pagefetch"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// TestScheduledRunPublishes: serve's daily run records the readings, hands
// the service an evaluator with the new state and republishes the feeds.
func TestScheduledRunPublishes(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	ctx := context.Background()
	cfg := config.Default()
	cfg.PublicDir = t.TempDir()
	cfg.BaseURL = "https://entrycheck.example"
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusGone) // every page and robots.txt
	}))
	defer srv.Close()
	f, err := pagefetch.New(pagefetch.Config{UserAgent: "entrycheck-verifier/test", Retries: -1, HostInterval: time.Millisecond,
		Transport: rewriteTo(srv.URL)})
	if err != nil {
		t.Fatal(err)
	}
	records := snap.Curated.Records()[:3]
	runner := verify.Runner{Store: st, Fetcher: f, Records: records, DatasetVersion: snap.Version(), Clock: entrycheck.FixedClock(time.Date(2026, 11, 23, 3, 0, 0, 0, time.UTC))}
	var got *evaluation.Evaluator
	verifyAndReload(ctx, cfg, runner, snap, st, slog.New(slog.NewTextHandler(io.Discard, nil)), func(ev *evaluation.Evaluator) { got = ev })
	if got == nil {
		t.Fatal("no evaluator handed over after the run")
	}
	b, err := os.ReadFile(filepath.Join(cfg.PublicDir, "changes.json"))
	if err != nil || !strings.Contains(string(b), `"source_unreachable":`+strconv.Itoa(len(verify.Sources(records)))) {
		t.Fatalf("changes.json: %v %.400s", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(cfg.PublicDir, "feeds", "changes.atom")); err != nil || !strings.Contains(string(b), "Verification on 2026-11-23") {
		t.Fatalf("atom: %v %.400s", err, b)
	}
}

type rewriteTo string

func (u rewriteTo) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = "http", strings.TrimPrefix(string(u), "http://")
	return http.DefaultTransport.RoundTrip(r)
}
