package generator_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/widget"
)

// siteEvents are the rule changes from the previous snapshot to the current one.
func siteEvents(t *testing.T) []changes.Event {
	t.Helper()
	return ruleEvents(t, datatest.Previous, datatest.Current)
}

// ruleEvents are the rule changes between two snapshots.
func ruleEvents(t *testing.T, from, to string) []changes.Event {
	t.Helper()
	snap := datatest.EvaluatorOf(t, to).Snapshot()
	prev, err := dataset.LoadMatrix(datatest.MatrixDir(t, from), datatest.Lock(t), snap.Countries)
	if err != nil {
		t.Fatal(err)
	}
	events, err := changes.Diff(prev, snap.Matrix)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// extras are the files the build command hands the generator: the OpenAPI
// description, the feeds, the discovery documents and the widget bundle.
func extras(t *testing.T, version string, events []changes.Event) []generator.File {
	t.Helper()
	docs, err := changes.Documents(changes.FeedSite{BaseURL: base, DatasetVersion: version}, events)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.BaseURL = base
	files := []generator.File{{Path: "/openapi.json", Body: apidoc.For(apidoc.SiteOf(cfg, datatest.Evaluator(t)))}}
	for _, d := range docs {
		files = append(files, generator.File{Path: d.Path, Body: d.Body})
	}
	for _, d := range discovery.Documents(apidoc.SiteOf(cfg, datatest.EvaluatorOf(t, version))) {
		files = append(files, generator.File{Path: d.Path, Body: d.Body, MediaType: d.MediaType, Link: d.Link})
	}
	embed, err := widget.Bundle(datatest.Evaluator(t).Snapshot().Matrix.Countries())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range embed {
		files = append(files, generator.File{Path: f.Path, Body: f.Body, MediaType: f.MediaType})
	}
	return files
}

func history(events []changes.Event, version string) generator.History {
	b, c := changes.History(events, version)
	return generator.History{Baseline: b, Changed: c}
}

// TestLLMsTxtListsOneLinkPerItem: llms.txt parsers take the first link of
// a list item, so each item links one resource; the MCP endpoint and the
// Atom feed are among them.
func TestLLMsTxtListsOneLinkPerItem(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(built(t), "llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`\]\(([^)]+)\)`)
	var first []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "- ") {
			continue
		}
		m := links.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("list item without a link: %q", line)
			continue
		}
		first = append(first, m[1])
	}
	for _, want := range []string{base + "/mcp", base + "/feeds/changes.atom", base + "/changes.json"} {
		if !slices.Contains(first, want) {
			t.Errorf("no list item leads with %s: %v", want, first)
		}
	}
}
