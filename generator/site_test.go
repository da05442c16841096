package generator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/generator"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// pageVerdict reads the verdict a route page shows: its requirement class,
// label and stay.
func pageVerdict(t *testing.T, root, p, d string) (req, label, stay string) {
	b, err := os.ReadFile(filepath.Join(root, "passports", strings.ToLower(p), strings.ToLower(d), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		for _, c := range strings.Fields(attr(n, "class")) {
			if strings.HasPrefix(c, "req-") {
				req = strings.TrimPrefix(c, "req-")
			}
			if c == "stay" && n.FirstChild != nil {
				stay = n.FirstChild.Data
			}
		}
		if attr(n, "id") == "verdict" && n.FirstChild != nil {
			label = n.FirstChild.Data
		}
	})
	return req, label, stay
}

// TestPagesShowTheAPIsVerdict compares route pages with GET /free/check for
// routes of every requirement value that has pages (unknown has none: every
// page is a route of the matrix).
func TestPagesShowTheAPIsVerdict(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	srv := httptest.NewServer(serveTree(t, root))
	defer srv.Close()
	samples := map[entrycheck.Requirement][][2]string{}
	countries := ev.Snapshot().Matrix.Countries()
	for i, p := range countries {
		for j, d := range countries {
			if i == j || (i*7+j*13)%5 != 0 {
				continue
			}
			r, err := ev.Check(entrycheck.CheckRequest{Passport: p.ISO3, Destination: d.ISO3}, buildDay)
			if err != nil {
				t.Fatal(err)
			}
			if len(samples[r.Requirement]) < 4 {
				samples[r.Requirement] = append(samples[r.Requirement], [2]string{p.ISO3, d.ISO3})
			}
		}
	}
	// A route with an official statement: it conflicted with the previous
	// snapshot (needs_review) and agrees with the current one, which has no
	// needs_review route.
	samples[entrycheck.EVisa] = append(samples[entrycheck.EVisa], [2]string{"USA", "BRA"})
	for _, req := range entrycheck.Requirements {
		if req != entrycheck.Unknown && req != entrycheck.NeedsReview && len(samples[req]) == 0 {
			t.Errorf("no sample route for %s", req)
		}
	}
	for _, routes := range samples {
		for _, rt := range routes {
			resp, err := http.Get(srv.URL + "/free/check?passport=" + rt[0] + "&destination=" + rt[1])
			if err != nil {
				t.Fatal(err)
			}
			var api entrycheck.CheckResult
			err = json.NewDecoder(resp.Body).Decode(&api)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%v: API %d %v", rt, resp.StatusCode, err)
			}
			req, label, stay := pageVerdict(t, root, rt[0], rt[1])
			wantStay := ""
			if api.AllowedStayDays.Valid {
				wantStay = "Allowed stay: " + itoa(api.AllowedStayDays.N) + " days"
			} else if api.Requirement == entrycheck.VisaFree {
				wantStay = "Allowed stay: not stated in the matrix"
			}
			if req != string(api.Requirement) || label != api.RequirementLabel || stay != wantStay {
				t.Errorf("%s to %s: page %s %q %q, API %s %q %q", rt[0], rt[1], req, label, stay, api.Requirement, api.RequirementLabel, wantStay)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestMarkdownIsServedOnRequest(t *testing.T) {
	srv := httptest.NewServer(serveTree(t, built(t)))
	defer srv.Close()
	for _, path := range []string{"/", "/passports/", "/passports/deu/", "/passports/deu/tha/", "/destinations/tha/", "/transparency/", "/widget/"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept", "text/markdown")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(string(b), "# ") {
			t.Errorf("%s as markdown: %d %s %.40q", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	resp, err := http.Get(srv.URL + "/auth.md")
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
		t.Errorf("/auth.md: %v %v", resp.Status, err)
	}
}

func TestFeedsAndDiscoveryDocuments(t *testing.T) {
	root := built(t)
	f, err := os.Open(filepath.Join(root, "feeds", "changes.atom"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	feed, err := gofeed.NewParser().Parse(f)
	if err != nil {
		t.Fatalf("the Atom feed does not parse: %v", err)
	}
	if feed.FeedType != "atom" || len(feed.Items) == 0 || !strings.HasPrefix(feed.Items[0].Link, base+"/destinations/") || feed.Items[0].GUID == "" {
		t.Errorf("Atom feed: type %s, %d items, first %+v", feed.FeedType, len(feed.Items), feed.Items[0])
	}
	home, _ := os.ReadFile(filepath.Join(root, "index.html"))
	if !strings.Contains(string(home), `type="application/atom+xml"`) {
		t.Error("the home page does not advertise the Atom feed")
	}
	docs := map[string][]string{
		"changes.json":                           {"events", "dataset_version", "atom_url"},
		".well-known/oauth-authorization-server": {"issuer", "token_endpoint", "registration_endpoint", "grant_types_supported"},
		".well-known/oauth-protected-resource":   {"resource", "authorization_servers"},
		".well-known/api-catalog":                {"linkset"},
		".well-known/agent-card.json":            {"name", "description", "url", "version", "protocolVersion", "capabilities", "skills", "defaultInputModes"},
		".well-known/mcp/server-card.json":       {"name", "version"},
		".well-known/agent-skills/index.json":    {"skills"},
		"openapi.json":                           {"openapi", "paths", "components"},
	}
	for name, members := range docs {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("%s does not parse: %v", name, err)
			continue
		}
		for _, k := range members {
			if _, ok := m[k]; !ok {
				t.Errorf("%s lacks %s", name, k)
			}
		}
		if name != "openapi.json" && !strings.Contains(string(b), datatest.Current) {
			t.Errorf("%s does not publish the matrix revision date", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".well-known", "agent-card.json")); !strings.Contains(string(b), `"protocolVersion": "0.3.0"`) {
		t.Error("the agent card is not protocol version 0.3.0")
	}
	srv := httptest.NewServer(serveTree(t, root))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/.well-known/api-catalog")
	if err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/linkset+json") || !strings.Contains(resp.Header.Get("Link"), "api-catalog") {
		t.Errorf("api-catalog served as %v", resp.Header)
	}
}

// TestSnapshotSwitchRewritesOnlyAffectedFiles builds a snapshot, then the
// next one of the same source with the recorded changes, into the same
// directory: exactly the route pages of the 819 routes changed from
// 2025-01-02 to 2025-01-12 are rewritten. (Route pages cite the matrix
// source, so a change of source, as to 2026-02-17, rewrites them all.)
func TestSnapshotSwitchRewritesOnlyAffectedFiles(t *testing.T) {
	from, to := datatest.Oldest, datatest.Previous
	dir := t.TempDir()
	ctx := context.Background()
	if _, err := generator.Build(ctx, datatest.EvaluatorOf(t, from), generator.Options{OutDir: dir, BaseURL: base, Clock: buildDay, Extra: extras(t, from, nil)}); err != nil {
		t.Fatal(err)
	}
	before := manifest(t, dir)
	events := ruleEvents(t, from, to)
	if len(events) != 819 {
		t.Fatalf("%d rule changes from %s to %s, want 819", len(events), from, to)
	}
	r, err := generator.Build(ctx, datatest.EvaluatorOf(t, to), generator.Options{OutDir: dir, BaseURL: base, Clock: buildDay, History: history(events, to), Extra: extras(t, to, events)})
	if err != nil {
		t.Fatal(err)
	}
	after := manifest(t, dir)
	changedRoutes := map[string]bool{}
	for _, e := range events {
		var d struct{ Passport, Destination string }
		json.Unmarshal(e.Details, &d)
		changedRoutes["passports/"+strings.ToLower(d.Passport)+"/"+strings.ToLower(d.Destination)+"/"] = true
	}
	rewritten := 0
	for path, hash := range after {
		if before[path] == hash {
			continue
		}
		rewritten++
		if parts := strings.Split(path, "/"); len(parts) == 4 && parts[0] == "passports" {
			if !changedRoutes[strings.Join(parts[:3], "/")+"/"] {
				t.Errorf("%s was rewritten, but its route did not change", path)
			}
		}
	}
	for route := range changedRoutes {
		for _, f := range []string{"index.html", "index.md"} {
			if before[route+f] == after[route+f] {
				t.Errorf("%s%s was not rewritten, but its route changed", route, f)
			}
		}
	}
	if r.Written != rewritten || r.Skipped+r.Written != r.Files {
		t.Errorf("report %+v, but %d files changed", r, rewritten)
	}
	t.Logf("snapshot switch: %s", r)
}

func manifest(t *testing.T, dir string) map[string]string {
	b, err := os.ReadFile(filepath.Join(dir, generator.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
