package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
)

// writeTree writes a small generated tree with its manifest.
func writeTree(t *testing.T, files map[string]string, manifest string) string {
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, ".manifest.json"), []byte(manifest), 0o644)
	return dir
}

func TestStaticServing(t *testing.T) {
	big := strings.Repeat("entry rules ", 1000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(big))
	zw.Close()
	dir := writeTree(t, map[string]string{
		"passports/deu/tha/index.html": "<!DOCTYPE html><title>DEU THA</title>",
		"passports/deu/tha/index.md":   "# DEU THA",
		"llms-full.txt":                big,
		"llms-full.txt.gz":             gz.String(),
		"assets/site.abc.css":          "body{}",
		".well-known/api-catalog":      `{"linkset":[]}`,
		"embed.js":                     "(()=>{})();",
		"embed.0123456789.js":          "(()=>{})();",
		"embed.es.0123456789.js":       "(()=>{})();",
		"passports/deu/index.json":     big,
		"passports/deu/index.json.gz":  gz.String(),
	}, `{"passports/deu/tha/index.html":"h1","passports/deu/tha/index.md":"h2","llms-full.txt":"h3","passports/deu/index.json":"h4"}`)
	e := start(t, "", func(c *config.Config) { c.PublicDir = dir })
	get := func(path string, header ...string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		tr := &http.Transport{DisableCompression: true}
		c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	body := func(r *http.Response) string {
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		return string(b)
	}

	r := get("/passports/deu/tha/")
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/html; charset=utf-8" || r.Header.Get("ETag") != `"h1"` || r.Header.Get("Last-Modified") == "" || !strings.Contains(r.Header.Get("Vary"), "Accept") || body(r) != "<!DOCTYPE html><title>DEU THA</title>" {
		t.Errorf("page: %d %v", r.StatusCode, r.Header)
	}
	r = get("/passports/deu/tha/", "Accept", "text/markdown, text/html;q=0.5")
	if r.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || body(r) != "# DEU THA" || r.Header.Get("ETag") != `"h2"` {
		t.Errorf("markdown: %v", r.Header)
	}
	r = get("/passports/deu/tha/", "Accept", "text/html, text/markdown;q=0.1")
	if !strings.HasPrefix(body(r), "<!DOCTYPE") {
		t.Error("text/html preferred but markdown served")
	}
	if r := get("/passports/deu/tha/", "If-None-Match", `"h1"`); r.StatusCode != http.StatusNotModified {
		t.Errorf("conditional request: %d", r.StatusCode)
	}
	if r := get("/passports/deu/tha"); r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/passports/deu/tha/" {
		t.Errorf("directory without slash: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	r = get("/llms-full.txt", "Accept-Encoding", "gzip")
	if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("ETag") != `"h3-gzip"` || body(r) != gz.String() {
		t.Errorf("precompressed: %v", r.Header)
	}
	if r := get("/llms-full.txt"); r.Header.Get("Content-Encoding") != "" || body(r) != big || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("identity: %v", r.Header)
	}
	if r := get("/llms-full.txt", "Range", "bytes=0-4"); r.StatusCode != http.StatusPartialContent || body(r) != "entry" {
		t.Errorf("range: %d", r.StatusCode)
	}
	if r := get("/assets/site.abc.css"); !strings.Contains(r.Header.Get("Cache-Control"), "immutable") || r.Header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("asset: %v", r.Header)
	}
	for _, pinned := range []string{"/embed.0123456789.js", "/embed.es.0123456789.js"} {
		if r := get(pinned); !strings.Contains(r.Header.Get("Cache-Control"), "immutable") || r.Header.Get("Access-Control-Allow-Origin") != "*" || r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Errorf("pinned widget %s: %v", pinned, r.Header)
		}
	}
	if r := get("/embed.js"); r.Header.Get("Cache-Control") != "public, max-age=300" || r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("widget: %v", r.Header)
	}
	// A passport's static matrix: read by checkers on other sites, revalidated like a page, compressed when accepted.
	r = get("/passports/deu/index.json", "Accept-Encoding", "gzip", "Origin", "https://blog.example")
	if r.StatusCode != 200 || r.Header.Get("Access-Control-Allow-Origin") != "*" || r.Header.Get("Cache-Control") != "public, max-age=300" ||
		r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("ETag") != `"h4-gzip"` || body(r) != gz.String() {
		t.Errorf("static matrix: %d %v", r.StatusCode, r.Header)
	}
	if r := get("/passports/deu/tha/"); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a route page is open to other origins: %v", r.Header)
	}
	if r := get("/.well-known/api-catalog"); !strings.HasPrefix(r.Header.Get("Content-Type"), "application/linkset+json") {
		t.Errorf("api-catalog: %v", r.Header)
	}
	for _, hidden := range []string{"/.manifest.json", "/llms-full.txt.gz", "/llms-full.txt.br", "/nothing/here/"} {
		if r := get(hidden); r.StatusCode != http.StatusNotFound || !strings.Contains(body(r), "not_found") {
			t.Errorf("%s: %d", hidden, r.StatusCode)
		}
	}
}
