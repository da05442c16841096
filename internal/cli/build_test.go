package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestBuildWritesTheWidget builds the site as `entrycheck build` does and
// finds the widget beside it, served as JavaScript: the loader, its pinned
// copy and the checker in every language (whatever languages the pages
// are built in: the checkers serve other sites), and the widget page with
// its snippet and live example.
func TestBuildWritesTheWidget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole site")
	}
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	code, out, errOut := run(t, "build", "--languages", "en", "--db", filepath.Join(dir, "build.db"), "--public", public, "--base-url", "https://entrycheck.test")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	t.Log(strings.TrimSpace(out))
	script, err := os.ReadFile(filepath.Join(public, "embed.js"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(public, "embed.*.js"))
	var pinned, checkers []string
	for _, f := range files {
		switch {
		case regexp.MustCompile(`/embed\.[0-9a-f]{10}\.js$`).MatchString(f):
			pinned = append(pinned, f)
		case regexp.MustCompile(`/embed\.[a-z]{2,3}\.[0-9a-f]{10}\.js$`).MatchString(f):
			checkers = append(checkers, f)
		default:
			t.Errorf("unexpected widget file %s", f)
		}
	}
	if len(pinned) != 1 || len(checkers) != len(locale.Languages()) {
		t.Fatalf("pinned copies %v, checkers %v", pinned, checkers)
	}
	if b, _ := os.ReadFile(pinned[0]); string(b) != string(script) {
		t.Error("the pinned copy differs from embed.js")
	}
	var headers map[string]struct {
		ContentType string `json:"content_type"`
	}
	b, err := os.ReadFile(filepath.Join(public, ".headers.json"))
	if err != nil || json.Unmarshal(b, &headers) != nil {
		t.Fatalf(".headers.json: %v", err)
	}
	for _, f := range append(append([]string{"embed.js"}, pinned...), checkers...) {
		name := filepath.Base(f)
		if headers[name].ContentType != "text/javascript; charset=utf-8" {
			t.Errorf("%s is served as %q", name, headers[name].ContentType)
		}
	}
	page, err := os.ReadFile(filepath.Join(public, "widget", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`&lt;script src=&#34;https://entrycheck.test/embed.js&#34; async&gt;&lt;/script&gt;`,
		`<div data-entrycheck data-passport="DEU">`, `<script src="/embed.js" async></script>`,
		`script-src https://entrycheck.test; connect-src https://entrycheck.test`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the widget page lacks %s", want)
		}
	}
}

// TestBuildNeedsTheMapShapes: without the world map's shapes the build
// stops before any page, naming the directory and how to set it.
// TestBuildRefusesALanguageNotSpoken names the language and those spoken,
// before anything is written.
func TestBuildRefusesALanguageNotSpoken(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, "build", "--languages", "en,xx", "--db", filepath.Join(dir, "build.db"), "--public", filepath.Join(dir, "public"))
	if code == cli.ExitOK || !strings.Contains(errOut, `--languages: language "xx" is not one the service speaks`) || !strings.Contains(errOut, "en,es,fr") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "index.html")); err == nil {
		t.Error("a page was written")
	}
}

func TestBuildNeedsTheMapShapes(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-geo")
	code, _, errOut := run(t, "build", "--geo", missing, "--db", filepath.Join(dir, "build.db"), "--public", filepath.Join(dir, "public"), "--base-url", "https://entrycheck.test")
	if code != cli.ExitFailure || !strings.Contains(errOut, missing) || !strings.Contains(errOut, "--geo") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "passports")); err == nil {
		t.Error("pages were written without the map")
	}
}
