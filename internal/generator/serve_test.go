package generator_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/api"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/store"
)

// serveTree is entrycheck serve over a generated tree, with the build's base
// URL, its own database and anonymous quotas of 1000 a day, which
// configure may change.
func serveTree(t *testing.T, dir string, configure ...func(*config.Config)) http.Handler {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "serve.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Default()
	cfg.PublicDir, cfg.BaseURL = dir, base
	cfg.Quotas.Anonymous, cfg.Quotas.Network = 1000, 1000
	for _, f := range configure {
		f(&cfg)
	}
	return api.NewServer(api.Deps{Evaluator: datatest.Evaluator(t), Store: st, Config: cfg, Clock: buildDay,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), IPHashKey: []byte("k")}).Handler()
}

// TestServeFollowsItsBaseURL: a server started with another base URL than
// the build's publishes its own in every discovery document, in the API
// catalog's Link header, in openapi.json and in its 401 challenges, without
// a rebuild.
func TestServeFollowsItsBaseURL(t *testing.T) {
	const served = "https://example.test"
	root := built(t)
	info, err := sitetree.ReadInfo(root)
	if err != nil || info.BaseURL != base {
		t.Fatalf("the tree says it was built for %q (%v), want %q", info.BaseURL, err, base)
	}
	h := serveTree(t, root, func(c *config.Config) { c.BaseURL = served })
	get := func(path string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	cfg := config.Default()
	cfg.BaseURL = served
	paths := []string{discovery.PathOpenAPI}
	for _, d := range discovery.Documents(apidoc.SiteOf(cfg, datatest.Evaluator(t))) {
		paths = append(paths, d.Path)
	}
	for _, p := range paths {
		rec := get(p)
		body := rec.Body.String()
		if rec.Code != http.StatusOK || !strings.Contains(body, served) || strings.Contains(body, base) {
			t.Errorf("%s: %d; names %s: %v; names the build's %s: %v", p, rec.Code, served, strings.Contains(body, served), base, strings.Contains(body, base))
		}
		if link := rec.Header().Get("Link"); link != "" && (!strings.Contains(link, served) || strings.Contains(link, base)) {
			t.Errorf("%s: Link %q does not name %s", p, link, served)
		}
	}
	if link := get(discovery.PathAPICatalog).Header().Get("Link"); !strings.HasPrefix(link, "<"+served+discovery.PathAPICatalog+">") {
		t.Errorf("api-catalog Link %q, want the served base URL", link)
	}
	challenge := get("/free/check?passport=DEU&destination=THA", "Authorization", "Bearer nope").Header().Get("WWW-Authenticate")
	if !strings.Contains(challenge, `resource_metadata="`+served+discovery.PathProtectedResource+`"`) {
		t.Errorf("401 challenge %q does not name %s's metadata", challenge, served)
	}
	// The tree's own copies stay the build's: a static host serves those.
	if b, err := os.ReadFile(filepath.Join(root, "llms.txt")); err != nil || !strings.Contains(string(b), base) {
		t.Errorf("the built llms.txt should name the build's base URL: %v", err)
	}
}
