package widget_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/widget"
)

// maxGzip is the budget of each language's checker on the wire.
const maxGzip = 10 << 10

func bundle(t *testing.T) ([]widget.File, []entrycheck.Country) {
	t.Helper()
	countries := datatest.Evaluator(t).Snapshot().Matrix.Countries()
	files, err := widget.Bundle(countries)
	if err != nil {
		t.Fatal(err)
	}
	return files, countries
}

// checkers returns the checker of each language among files, by code.
func checkers(t *testing.T, files []widget.File) map[string]widget.File {
	t.Helper()
	out := map[string]widget.File{}
	for _, f := range files {
		if f.Language != "" {
			out[f.Language] = f
		}
	}
	if len(out) != len(locale.Languages()) {
		t.Fatalf("%d checkers, want one per language (%d)", len(out), len(locale.Languages()))
	}
	return out
}

func gzipped(b []byte) int {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	zw.Write(b)
	zw.Close()
	return gz.Len()
}

// TestBundleIsMinifiedHashedAndSmall: the loader at /embed.js and its
// pinned copy, then a checker per language, each named after its content,
// minified, self-contained and within the budget on the wire; the loader
// names each checker with its integrity digest.
func TestBundleIsMinifiedHashedAndSmall(t *testing.T) {
	files, countries := bundle(t)
	if len(files) != 2+len(locale.Languages()) {
		t.Fatalf("%d files, want embed.js, its hashed copy and a checker per language", len(files))
	}
	script, pinned := files[0], files[1]
	sum := sha256.Sum256(script.Body)
	if script.Path != "/embed.js" || pinned.Path != "/embed."+hex.EncodeToString(sum[:5])+".js" || !bytes.Equal(script.Body, pinned.Body) {
		t.Errorf("paths %s and %s, same body %v", script.Path, pinned.Path, bytes.Equal(script.Body, pinned.Body))
	}
	if !regexp.MustCompile(`^/embed\.[0-9a-f]{10}\.js$`).MatchString(pinned.Path) || widget.HashedPath(script.Body) != pinned.Path {
		t.Errorf("hashed path %s", pinned.Path)
	}
	for _, f := range files {
		if f.MediaType != "text/javascript; charset=utf-8" {
			t.Errorf("%s is served as %q", f.Path, f.MediaType)
		}
		body := string(f.Body)
		// Minified: the banner, then one line without the source's
		// comments, indentation or long local names.
		if lines := strings.Count(strings.TrimSpace(body), "\n"); lines > 1 {
			t.Errorf("%s: %d line breaks in the minified script", f.Path, lines)
		}
		for _, src := range []string{"Elements are built with createElement", "  const ", "applyLabels", "countedFrom", "languageOf", "\n  "} {
			if strings.Contains(body, src) {
				t.Errorf("%s is not minified: it holds %q", f.Path, src)
			}
		}
		// UTF-8 whatever the host's headers or the page's encoding: a byte
		// order mark, then the licence banner.
		if !strings.HasPrefix(body, "\ufeff/* entrycheck embeddable checker") {
			t.Errorf("%s does not start with a byte order mark and its licence banner", f.Path)
		}
	}
	loader := string(script.Body)
	for code, f := range checkers(t, files) {
		body := string(f.Body)
		sum := sha256.Sum256(f.Body)
		if f.Path != "/embed."+code+"."+hex.EncodeToString(sum[:5])+".js" || widget.LanguagePath(code, f.Body) != f.Path {
			t.Errorf("the checker in %s is at %s", code, f.Path)
		}
		if !strings.Contains(loader, `"`+strings.TrimPrefix(f.Path, "/")+`","`+widget.Integrity(f.Body)+`"`) {
			t.Errorf("the loader does not name %s with its digest", f.Path)
		}
		// Self-contained: the stylesheet and every matrix country are inlined.
		if !strings.Contains(body, ":host{display:block!important") {
			t.Errorf("%s: the stylesheet is not inlined, minified", f.Path)
		}
		for _, c := range countries {
			if !strings.Contains(body, c.ISO3) {
				t.Errorf("%s: %s is missing from the pickers", f.Path, c.ISO3)
			}
		}
		if n := gzipped(f.Body); n > maxGzip {
			t.Errorf("the checker in %s is %d bytes gzipped, over the budget of %d", code, n, maxGzip)
		}
	}
	for _, f := range files {
		what := "the loader"
		if f.Language != "" {
			what = "the checker in " + f.Language
		}
		t.Logf("%s: %s, %d bytes, %d gzipped (budget %d)", what, f.Path, len(f.Body), gzipped(f.Body), maxGzip)
	}
}

func TestBundleIsReproducible(t *testing.T) {
	a, countries := bundle(t)
	// The caller's order does not matter: the pickers sort by name.
	reversed := make([]entrycheck.Country, len(countries))
	for i, c := range countries {
		reversed[len(countries)-1-i] = c
	}
	b, err := widget.Bundle(reversed)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Fatalf("two builds give %d and %d files", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Body, b[i].Body) {
			t.Errorf("two builds differ: %s and %s", a[i].Path, b[i].Path)
		}
	}
}

// TestNoHardCodedHost: the widget learns the service's address from its
// own script URL, so neither its source nor the bundle names a host.
func TestNoHardCodedHost(t *testing.T) {
	files, _ := bundle(t)
	host := regexp.MustCompile(`(?i)://|\bwww\.|localhost|127\.0\.0\.1|entrycheck\.(test|org|com|dev|io)`)
	src := os.DirFS("src")
	names, err := fs.Glob(src, "*")
	if err != nil || len(names) < 3 {
		t.Fatalf("source files %v: %v", names, err)
	}
	sawCurrentScript := false
	for _, name := range names {
		b, err := fs.ReadFile(src, name)
		if err != nil {
			t.Fatal(err)
		}
		if m := host.Find(b); m != nil {
			t.Errorf("src/%s names a host: %q", name, m)
		}
		sawCurrentScript = sawCurrentScript || bytes.Contains(b, []byte("document.currentScript"))
	}
	if !sawCurrentScript {
		t.Error("no source file reads document.currentScript")
	}
	for _, f := range files {
		if m := host.Find(f.Body); m != nil {
			t.Errorf("%s names a host: %q", f.Path, m)
		}
	}
}

func TestBundleRefusesBadCountries(t *testing.T) {
	for name, cs := range map[string][]entrycheck.Country{
		"none":      nil,
		"bad code":  {{ISO3: "De1", Name: "Germany"}},
		"no name":   {{ISO3: "DEU"}},
		"separator": {{ISO3: "DEU", Name: "Germany|Austria"}},
	} {
		if _, err := widget.Bundle(cs); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestBundleNamesFactsAsTheSite: each language's checker receives the
// labels of an answer's facts in its language from the domain package
// when it is bundled; the source names none of them its own way.
func TestBundleNamesFactsAsTheSite(t *testing.T) {
	files, _ := bundle(t)
	src, err := fs.Glob(os.DirFS("src"), "*.js")
	if err != nil {
		t.Fatal(err)
	}
	byCode := checkers(t, files)
	for _, c := range locale.Embedded().List() {
		body := string(byCode[c.Code].Body)
		words := []string{entrycheck.LabelAllowedStay.In(c), entrycheck.NotStated(c), entrycheck.LabelOfficialStatement.In(c), entrycheck.LabelSource.In(c),
			entrycheck.ActionCheckOfficialAuthority.SentenceIn(c, entrycheck.Unknown, false), entrycheck.Disclaimer(c)}
		for _, k := range entrycheck.ApplyKinds() {
			words = append(words, entrycheck.ApplyKindLabelIn(c, k))
		}
		for r := range entrycheck.Tones() {
			words = append(words, r.LabelIn(c))
		}
		for _, w := range words {
			if !strings.Contains(body, w) {
				t.Errorf("the checker in %s lacks %q", c.Code, w)
			}
			for _, name := range src {
				if b, _ := os.ReadFile("src/" + name); strings.Contains(string(b), w) {
					t.Errorf("src/%s names %q itself", name, w)
				}
			}
		}
	}
}

// TestBundleWordsNoRule: the widget shows the entry rules in the words an
// answer carries (entry_rule_lines, the route page's lines), so neither its
// source nor the bundle names a rule field, reads a rule's values or holds
// the words the answers compute from them, for any route of two passports.
func TestBundleWordsNoRule(t *testing.T) {
	files, _ := bundle(t)
	ev := datatest.Evaluator(t)
	banned := map[string]string{}
	for _, f := range entrycheck.RuleFields() {
		banned[f.Label] = "the label of " + f.Name
		banned[`"`+f.Name+`"`] = "the field name " + f.Name
		banned["."+f.Name] = "the field " + f.Name
		if f.Item != "" {
			banned[f.Item] = "the item label of " + f.Name
		}
	}
	for _, v := range []string{"min_months_remaining", "counted_from", "applies_because", "applies_to_this_passport", "not_for_this_passport", "documented_for_others"} {
		banned[v] = "a rule's value"
	}
	for _, p := range []string{"DEU", "IND"} {
		for _, d := range ev.Snapshot().Matrix.Countries() {
			r, err := ev.Check(entrycheck.CheckRequest{Passport: p, Destination: d.ISO3}, entrycheck.FixedClock(time.Date(2026, 2, 17, 12, 0, 0, 0, time.UTC)))
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range r.EntryRules.Lines() {
				if l.Detail != "" {
					banned[l.Detail] = "the detail of " + p + " to " + d.ISO3 + " " + l.Field
				}
			}
		}
	}
	if len(banned) < 30 {
		t.Fatalf("only %d rule words to look for", len(banned))
	}
	texts := map[string]string{}
	for _, f := range files {
		texts[f.Path] = string(f.Body)
	}
	src, err := fs.Glob(os.DirFS("src"), "*.js")
	if err != nil || len(src) == 0 {
		t.Fatalf("source files %v: %v", src, err)
	}
	for _, name := range src {
		b, err := os.ReadFile("src/" + name)
		if err != nil {
			t.Fatal(err)
		}
		texts["src/"+name] = string(b)
	}
	for where, text := range texts {
		for w, what := range banned {
			if strings.Contains(text, w) {
				t.Errorf("%s holds %q, %s", where, w, what)
			}
		}
	}
}
