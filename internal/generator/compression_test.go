package generator_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/entrycheck/entrycheck/internal/compression"
)

// TestTextIsServedCompressed: every kind of text file of a real build, small
// or large, comes back in the encoding the client prefers, decodes to the
// file, and keeps its conditional and range requests.
func TestTextIsServedCompressed(t *testing.T) {
	root := built(t)
	css, _ := filepath.Glob(filepath.Join(root, "assets", "site.*.css"))
	if len(css) != 1 {
		t.Fatalf("stylesheets: %v", css)
	}
	// A route page small enough to have no variants: compressed on request.
	pages, _ := filepath.Glob(filepath.Join(root, "passports", "deu", "*", "index.html"))
	small := ""
	for _, p := range pages {
		if st, err := os.Stat(p); err == nil && st.Size() < compression.PrecompressAt {
			small, _ = filepath.Rel(root, p)
			break
		}
	}
	if small == "" {
		t.Fatal("no route page of DEU is under the precompression size")
	}
	small = filepath.ToSlash(small)
	h := serveTree(t, root)
	get := func(path string, header ...string) *http.Response {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	decode := func(t *testing.T, r *http.Response) []byte {
		t.Helper()
		var rd io.Reader = r.Body
		switch r.Header.Get("Content-Encoding") {
		case "br":
			rd = brotli.NewReader(r.Body)
		case "gzip":
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Fatal(err)
			}
			rd = zr
		}
		b, err := io.ReadAll(rd)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for path, file := range map[string]string{
		"/passports/deu/tha/":                         "passports/deu/tha/index.html",
		"/passports/deu/":                             "passports/deu/index.html",
		"/" + strings.TrimSuffix(small, "index.html"): small,
		"/assets/" + filepath.Base(css[0]):            "assets/" + filepath.Base(css[0]),
		"/changes.json":                               "changes.json",
		"/robots.txt":                                 "robots.txt",
		"/sitemap.xml":                                "sitemap.xml",
		"/llms-full.txt":                              "llms-full.txt",
	} {
		t.Run(file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
			if err != nil {
				t.Fatal(err)
			}
			// Large files have the build's variants, small ones none.
			for _, enc := range compression.Encodings() {
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(file)+compression.Suffix(enc)))
				if (err == nil) != (len(want) >= compression.PrecompressAt) {
					t.Errorf("%d bytes: %s variant exists: %v", len(want), enc, err == nil)
				}
			}
			identity := get(path)
			tag := identity.Header.Get("ETag")
			if got := decode(t, identity); identity.Header.Get("Content-Encoding") != "" || !bytes.Equal(got, want) || tag == "" {
				t.Fatalf("identity: %v", identity.Header)
			}
			for accept, enc := range map[string]string{
				"br, gzip":           "br",
				"gzip":               "gzip",
				"gzip;q=1, br;q=0.5": "gzip",
				"":                   "",
				"br;q=0, gzip;q=0":   "",
			} {
				r := get(path, "Accept-Encoding", accept)
				if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != enc || !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Encoding") {
					t.Errorf("%q: %d %v", accept, r.StatusCode, r.Header)
					continue
				}
				if got := decode(t, r); !bytes.Equal(got, want) {
					t.Errorf("%q: the decoded body is not the file", accept)
				}
				etag := r.Header.Get("ETag")
				if enc == "" && etag != tag || enc != "" && etag != strings.TrimSuffix(tag, `"`)+"-"+enc+`"` {
					t.Errorf("%q: ETag %s for %s", accept, etag, tag)
				}
				if c := get(path, "Accept-Encoding", accept, "If-None-Match", etag); c.StatusCode != http.StatusNotModified {
					t.Errorf("%q: If-None-Match of its own ETag: %d", accept, c.StatusCode)
				}
				if enc != "" {
					if c := get(path, "Accept-Encoding", accept, "If-None-Match", tag); c.StatusCode != http.StatusOK {
						t.Errorf("%q: the identity ETag matched the %s body: %d", accept, enc, c.StatusCode)
					}
				}
			}
			r := get(path, "Range", "bytes=5-14")
			if got := decode(t, r); r.StatusCode != http.StatusPartialContent || !bytes.Equal(got, want[5:15]) {
				t.Errorf("range: %d %q", r.StatusCode, got)
			}
		})
	}
	for _, hidden := range []string{"/llms-full.txt.br", "/llms-full.txt.gz"} {
		if r := get(hidden); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d", hidden, r.StatusCode)
		}
	}
}
