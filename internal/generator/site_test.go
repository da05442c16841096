package generator_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// pageVerdict reads the verdict a route page shows: its requirement class,
// label and stay.
// textOf is the text inside a node.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

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
		if r := attr(n, "data-requirement"); r != "" {
			req = r
		}
		if attr(n, "class") == "stay" && n.FirstChild != nil {
			stay = n.FirstChild.Data
		}
		if attr(n, "id") == "verdict" {
			label = strings.TrimSpace(textOf(n))
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
				wantStay = "Allowed stay: " + entrycheck.NotStated(entrycheck.English())
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
// directory. Every route page says the date its verdict is as of, so every
// route page is rewritten; a route that did not change differs only in
// that date, while the 819 changed routes show their new verdict. A
// rebuild of the same snapshot writes nothing.
func TestSnapshotSwitchRewritesOnlyAffectedFiles(t *testing.T) {
	from, to := datatest.Oldest, datatest.Previous
	dir := t.TempDir()
	ctx := context.Background()
	if _, err := generator.Build(ctx, datatest.EvaluatorOf(t, from), generator.Options{OutDir: dir, GeoDir: datatest.GeoDir(t), BaseURL: base, Clock: buildDay, Extra: extras(t, from, nil)}); err != nil {
		t.Fatal(err)
	}
	before := manifest(t, dir)
	events := ruleEvents(t, from, to)
	if len(events) != 819 {
		t.Fatalf("%d rule changes from %s to %s, want 819", len(events), from, to)
	}
	changedRoutes := map[string]bool{}
	for _, e := range events {
		var d struct{ Passport, Destination string }
		json.Unmarshal(e.Details, &d)
		changedRoutes["passports/"+strings.ToLower(d.Passport)+"/"+strings.ToLower(d.Destination)+"/"] = true
	}
	// Keep a sample of the unchanged route pages as they were.
	kept := map[string]string{}
	for path := range before {
		if parts := strings.Split(path, "/"); routePage(parts) && !changedRoutes[strings.Join(parts[:3], "/")+"/"] && len(kept) < 400 {
			b, err := os.ReadFile(filepath.Join(dir, path))
			if err != nil {
				t.Fatal(err)
			}
			kept[path] = string(b)
		}
	}
	opts := generator.Options{OutDir: dir, GeoDir: datatest.GeoDir(t), BaseURL: base, Clock: buildDay, History: history(events, to), Extra: extras(t, to, events)}
	r, err := generator.Build(ctx, datatest.EvaluatorOf(t, to), opts)
	if err != nil {
		t.Fatal(err)
	}
	after := manifest(t, dir)
	rewritten, routePages := 0, 0
	for path, hash := range after {
		if before[path] != hash {
			rewritten++
		}
		if parts := strings.Split(path, "/"); routePage(parts) {
			routePages++
			if before[path] == hash {
				t.Errorf("%s was not rewritten, but its date changed", path)
			}
		}
	}
	if routePages != 2*39402 {
		t.Errorf("%d route pages", routePages)
	}
	oldDate, newDate := longDate(t, from), longDate(t, to)
	oldFrom, newFrom := datatest.EvaluatorOf(t, from).VerdictAge(buildDay.Now()).OldFrom.String(), datatest.EvaluatorOf(t, to).VerdictAge(buildDay.Now()).OldFrom.String()
	for path, old := range kept {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		// The page of an unchanged route: the date, and the snapshot its verdict holds since.
		// The day its verdict grew old, which dates the page, moves with
		// the snapshot too.
		want := strings.ReplaceAll(old, oldDate, newDate)
		want = strings.ReplaceAll(want, `"dateModified":"`+oldFrom+`"`, `"dateModified":"`+newFrom+`"`)
		got := sinceLine.ReplaceAllString(string(b), "")
		if sinceLine.ReplaceAllString(want, "") != got {
			t.Errorf("%s changed beyond its date", path)
		}
	}
	if r.Written != rewritten || r.Skipped+r.Written != r.Files {
		t.Errorf("report %+v, but %d files changed", r, rewritten)
	}
	t.Logf("snapshot switch: %+v", r)

	again, err := generator.Build(ctx, datatest.EvaluatorOf(t, to), opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Written != 0 || again.Deleted != 0 {
		t.Errorf("a rebuild of the same snapshot wrote %d and deleted %d files", again.Written, again.Deleted)
	}
}

// routePage reports whether a path's parts name a route page or its
// markdown (not a compressed variant).
func routePage(parts []string) bool {
	return len(parts) == 4 && parts[0] == "passports" && (parts[3] == "index.html" || parts[3] == "index.md")
}

// sinceLine is where a route page says since which snapshot its verdict holds.
var sinceLine = regexp.MustCompile(`this verdict (holds since|changed in) the edition of [0-9]+ [A-Z][a-z]+ [0-9]+( or earlier)?`)

func longDate(t *testing.T, version string) string {
	d, err := entrycheck.ParseDate(version)
	if err != nil {
		t.Fatal(err)
	}
	return d.Long()
}

func manifest(t *testing.T, dir string) map[string]string {
	b, err := os.ReadFile(filepath.Join(dir, sitetree.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
