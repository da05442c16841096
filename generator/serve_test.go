package generator_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/api"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

// serveTree is entrycheck serve over a generated tree, with its own database
// and anonymous quotas of 1000 a day, which configure may change.
func serveTree(t *testing.T, dir string, configure ...func(*config.Config)) http.Handler {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "serve.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Default()
	cfg.PublicDir = dir
	cfg.Quotas.Anonymous, cfg.Quotas.Network = 1000, 1000
	for _, f := range configure {
		f(&cfg)
	}
	return api.NewServer(api.Deps{Evaluator: datatest.Evaluator(t), Store: st, Config: cfg, Clock: buildDay,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), IPHashKey: []byte("k")}).Handler()
}
