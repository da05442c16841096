package generator_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// TestUpdate: serve publishes the feeds into a built tree; the other files
// and their manifest entries stay.
func TestUpdate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>home</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, sitetree.ManifestFile), []byte(`{"index.html":"0123456789abcdef0123456789abcdef"}`), 0o644)
	feed := bytes.Repeat([]byte(`{"event":1}`), 2000) // large enough for a gzip variant
	if err := generator.Update(dir, []generator.File{{Path: "/changes.json", Body: feed}, {Path: "/feeds/changes.atom", Body: []byte("<feed/>")}}); err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	b, _ := os.ReadFile(filepath.Join(dir, sitetree.ManifestFile))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "changes.json", "changes.json.gz", "feeds/changes.atom"} {
		if m[f] == "" {
			t.Errorf("manifest lacks %s: %v", f, m)
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "changes.json")); !bytes.Equal(got, feed) {
		t.Error("changes.json not written")
	}
	if err := generator.Update(dir, []generator.File{{Path: "/x", Body: []byte("{}"), MediaType: "application/json"}}); err == nil {
		t.Error("a file with its own headers was written outside a build")
	}
}

// TestUpdatePublishesFeedArchives: the feeds' monthly archives are written
// like the current documents, left alone when unchanged, and served with
// their content types to any origin.
func TestUpdatePublishesFeedArchives(t *testing.T) {
	dir := t.TempDir()
	events := append(siteEvents(t), changes.Event{ID: "verify/2026-03-03/THA", Kind: changes.KindSourceReverified,
		Time: time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC), Destinations: []string{"THA"}, Summary: "re-verified"})
	docs, err := changes.Documents(changes.FeedSite{BaseURL: base, DatasetVersion: datatest.Current}, events)
	if err != nil {
		t.Fatal(err)
	}
	files := make([]generator.File, len(docs))
	for i, d := range docs {
		files[i] = generator.File{Path: d.Path, Body: d.Body}
	}
	if err := generator.Update(dir, files); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "changes", "2026-02.json")
	past := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(archive, past, past); err != nil {
		t.Fatal(err)
	}
	if err := generator.Update(dir, files); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(archive); err != nil || !st.ModTime().Equal(past) {
		t.Errorf("an unchanged archive was rewritten: %v", err)
	}
	h := serveTree(t, dir)
	for path, want := range map[string]string{
		"/changes.json": "application/json", "/changes/2026-02.json": "application/json",
		"/feeds/changes.atom": "application/atom+xml", "/feeds/changes/2026-02.atom": "application/atom+xml",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), want) || rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("ETag") == "" {
			t.Errorf("%s: %d %q, CORS %q, ETag %q", path, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Access-Control-Allow-Origin"), rec.Header().Get("ETag"))
		}
	}
}
