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
	"github.com/entrycheck/entrycheck/internal/widget"
)

// maxGzip is the budget of /embed.js on the wire.
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

func TestBundleIsMinifiedHashedAndSmall(t *testing.T) {
	files, countries := bundle(t)
	if len(files) != 2 {
		t.Fatalf("%d files, want embed.js and its hashed copy", len(files))
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
	}
	body := string(script.Body)
	// Minified: the banner, then one line without the source's comments,
	// indentation or long local names.
	if lines := strings.Count(strings.TrimSpace(body), "\n"); lines > 1 {
		t.Errorf("%d line breaks in the minified script", lines)
	}
	for _, src := range []string{"Elements are built with createElement", "  const ", "applyLabels", "countedFrom", "\n  "} {
		if strings.Contains(body, src) {
			t.Errorf("the bundle is not minified: it holds %q", src)
		}
	}
	if !strings.HasPrefix(body, "/* entrycheck embeddable checker") {
		t.Error("the bundle does not start with its licence banner")
	}
	// Self-contained: the stylesheet and every matrix country are inlined.
	if !strings.Contains(body, ":host{display:block!important") {
		t.Error("the stylesheet is not inlined, minified")
	}
	for _, c := range countries {
		if !strings.Contains(body, c.ISO3) {
			t.Errorf("%s is missing from the pickers", c.ISO3)
		}
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	zw.Write(script.Body)
	zw.Close()
	if gz.Len() > maxGzip {
		t.Errorf("embed.js is %d bytes gzipped, over the budget of %d", gz.Len(), maxGzip)
	}
	t.Logf("embed.js: %d bytes, %d gzipped (budget %d); pinned as %s", len(script.Body), gz.Len(), maxGzip, pinned.Path)
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
	if a[1].Path != b[1].Path || !bytes.Equal(a[0].Body, b[0].Body) {
		t.Errorf("two builds differ: %s and %s", a[1].Path, b[1].Path)
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
	if m := host.Find(files[0].Body); m != nil {
		t.Errorf("the bundle names a host: %q", m)
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

// TestBundleNamesFactsAsTheSite: the widget receives the labels of an
// answer's facts from the domain package when it is bundled; its source
// names none of them its own way.
func TestBundleNamesFactsAsTheSite(t *testing.T) {
	files, _ := bundle(t)
	body := string(files[0].Body)
	words := []string{entrycheck.LabelAllowedStay.String(), entrycheck.NotStated(entrycheck.English()), entrycheck.LabelAsOf.String(), entrycheck.LabelOfficialStatement.String(), entrycheck.LabelSource.String(),
		entrycheck.ActionCheckOfficialAuthority.Sentence(entrycheck.Unknown, false)}
	for _, k := range entrycheck.ApplyKinds() {
		words = append(words, entrycheck.ApplyKindLabel(k))
	}
	src, err := fs.Glob(os.DirFS("src"), "*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range words {
		if !strings.Contains(body, w) {
			t.Errorf("the bundle lacks %q", w)
		}
		for _, name := range src {
			if b, _ := os.ReadFile("src/" + name); strings.Contains(string(b), w) {
				t.Errorf("src/%s names %q itself", name, w)
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
	texts := map[string]string{"the bundle": string(files[0].Body)}
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
