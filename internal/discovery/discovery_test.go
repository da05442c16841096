package discovery_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// testSite is a deployment unlike the defaults: an unusual host, port,
// dataset version and quotas, so that anything hard-coded shows.
func testSite(t *testing.T) discovery.Site {
	t.Helper()
	cfg := config.Default()
	cfg.BaseURL = "https://checks.entry.test:8443/"
	cfg.Quotas = config.Quotas{Anonymous: 7, Client: 23, Registrations: 2, Network: 61, Global: 999}
	return discovery.NewSite(cfg, discovery.Dataset{Version: "2031-02-03", Routes: 39402, CuratedDestinations: 12})
}

const testBase = "https://checks.entry.test:8443"

func byPath(t *testing.T, s discovery.Site) map[string]discovery.Document {
	t.Helper()
	out := map[string]discovery.Document{}
	for _, d := range discovery.Documents(s) {
		if _, dup := out[d.Path]; dup {
			t.Errorf("%s is listed twice", d.Path)
		}
		out[d.Path] = d
	}
	return out
}

func isJSON(d discovery.Document) bool { return strings.Contains(d.MediaType, "json") }

func decode(t *testing.T, d discovery.Document) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(d.Body, &v); err != nil {
		t.Fatalf("%s is not a JSON object: %v", d.Path, err)
	}
	return v
}

func TestNewSite(t *testing.T) {
	s := testSite(t)
	if s.BaseURL != testBase {
		t.Errorf("base URL %q, want the configured one without trailing slash", s.BaseURL)
	}
	if s.Quotas.Client != 23 || s.Version != "0.1.0" || s.FeedPath != "/feeds/changes.atom" || s.ChangesPath != "/changes.json" {
		t.Errorf("site %+v", s)
	}
	want := map[string]string{"GET /v1/check": "0.03", "GET /v1/passport/{iso3}": "0.15", "POST /v1/trips/evaluate": "0.10"}
	got := map[string]string{}
	for _, p := range s.Prices {
		got[p.Method+" "+p.Path] = p.USD
	}
	if len(got) != len(want) {
		t.Errorf("prices %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("price of %s: %q, want %q", k, got[k], v)
		}
	}
}

func TestPaths(t *testing.T) {
	docs := byPath(t, testSite(t))
	for _, p := range []string{
		"/.well-known/oauth-authorization-server",
		"/.well-known/oauth-protected-resource",
		"/.well-known/api-catalog",
		"/.well-known/agent-card.json",
		"/.well-known/mcp/server-card.json",
		"/.well-known/agent-skills/index.json",
		"/auth.md", "/llms.txt", "/robots.txt",
	} {
		if _, ok := docs[p]; !ok {
			t.Errorf("%s is missing", p)
		}
	}
	for p, d := range docs {
		if !strings.HasPrefix(p, "/.well-known/") && p != "/auth.md" && p != "/llms.txt" && p != "/robots.txt" {
			t.Errorf("%s is neither under /.well-known/ nor one of the root documents", p)
		}
		if d.MediaType == "" || len(d.Body) == 0 {
			t.Errorf("%s: media type %q, %d bytes", p, d.MediaType, len(d.Body))
		}
	}
}

func TestDeterministic(t *testing.T) {
	s := testSite(t)
	a, b := discovery.Documents(s), discovery.Documents(s)
	if len(a) != len(b) {
		t.Fatalf("%d then %d documents", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].MediaType != b[i].MediaType || !bytes.Equal(a[i].Body, b[i].Body) {
			t.Errorf("%s differs between two calls", a[i].Path)
		}
	}
	for _, d := range a {
		if !bytes.HasSuffix(d.Body, []byte("\n")) || bytes.HasSuffix(d.Body, []byte("\n\n")) {
			t.Errorf("%s does not end with exactly one newline", d.Path)
		}
		if !isJSON(d) {
			continue
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, bytes.TrimSpace(d.Body), "", "  "); err != nil {
			t.Fatalf("%s: %v", d.Path, err)
		}
		indented.WriteByte('\n')
		if !bytes.Equal(indented.Bytes(), d.Body) {
			t.Errorf("%s is not indented by two spaces", d.Path)
		}
	}
}

// urlPattern finds absolute URLs in JSON strings and Markdown.
var urlPattern = regexp.MustCompile("https?://[^\\s\"'`<>()]+")

// specIdentifiers are the URIs the conventions require verbatim: they name
// schemas and profiles, not places of this deployment.
var specIdentifiers = []string{discovery.ServerCardSchema, discovery.SkillsIndexSchema, discovery.APICatalogProfile, x402.A2AExtensionURI, ap2.A2AExtensionURI}

func TestURLsUseTheBaseURL(t *testing.T) {
	for _, base := range []string{testBase, "http://127.0.0.1:9999", "https://example.org/prefix"} {
		s := testSite(t)
		s.BaseURL = base
		for _, d := range discovery.Documents(s) {
			text := string(d.Body) + " " + d.Link
			urls := urlPattern.FindAllString(text, -1)
			if len(urls) == 0 {
				t.Errorf("%s holds no absolute URL", d.Path)
			}
			for _, u := range urls {
				if !strings.HasPrefix(u, base) && !slices.Contains(specIdentifiers, u) {
					t.Errorf("%s (base %s): %s does not start with the base URL", d.Path, base, u)
				}
			}
		}
	}
}

// strings collects every string of a decoded JSON value, keys included.
func allStrings(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case []any:
		for _, e := range v {
			allStrings(e, out)
		}
	case map[string]any:
		for k, e := range v {
			*out = append(*out, k)
			allStrings(e, out)
		}
	}
}

func TestDatasetVersionPublished(t *testing.T) {
	s := testSite(t)
	for _, d := range discovery.Documents(s) {
		if !isJSON(d) {
			continue // SKILL.md files leave it out so that their digests stay stable
		}
		var found bool
		var strs []string
		allStrings(decode(t, d), &strs)
		for _, str := range strs {
			if strings.Contains(str, s.DatasetVersion) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s does not publish the dataset version %s", d.Path, s.DatasetVersion)
		}
	}
}

func TestAuthorizationServerMetadata(t *testing.T) {
	s := testSite(t)
	m := decode(t, byPath(t, s)[discovery.PathAuthorizationServer])
	want := map[string]any{
		"issuer":                                testBase,
		"token_endpoint":                        testBase + "/oauth/token",
		"registration_endpoint":                 testBase + "/oauth/register",
		"grant_types_supported":                 []any{"client_credentials"},
		"token_endpoint_auth_methods_supported": []any{"client_secret_basic", "client_secret_post"},
		"response_types_supported":              []any{"none"},
		"service_documentation":                 testBase + "/auth.md",
		"dataset_version":                       "2031-02-03",
	}
	for k, v := range want {
		got, _ := json.Marshal(m[k])
		exp, _ := json.Marshal(v)
		if !bytes.Equal(got, exp) {
			t.Errorf("%s = %s, want %s", k, got, exp)
		}
	}
	if _, ok := m["authorization_endpoint"]; ok {
		t.Error("authorization_endpoint is present although no grant uses it")
	}
}

func TestProtectedResourceMetadata(t *testing.T) {
	s := testSite(t)
	m := decode(t, byPath(t, s)[discovery.PathProtectedResource])
	if m["resource"] != testBase || !slices.Equal(toStrings(m["authorization_servers"]), []string{testBase}) ||
		!slices.Equal(toStrings(m["bearer_methods_supported"]), []string{"header"}) ||
		m["resource_documentation"] != testBase+"/auth.md" || m["resource_name"] == "" {
		t.Errorf("protected resource metadata: %v", m)
	}
	if discovery.ProtectedResourceURL(s) != testBase+"/.well-known/oauth-protected-resource" {
		t.Errorf("protected resource URL %s", discovery.ProtectedResourceURL(s))
	}
}

func toStrings(v any) []string {
	var out []string
	for _, e := range v.([]any) {
		out = append(out, e.(string))
	}
	return out
}

// TestAPICatalog checks RFC 9727 and the JSON linkset rules of RFC 9264.
func TestAPICatalog(t *testing.T) {
	s := testSite(t)
	d := byPath(t, s)[discovery.PathAPICatalog]
	if d.MediaType != `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"` {
		t.Errorf("media type %q", d.MediaType)
	}
	if !strings.Contains(d.Link, `rel="api-catalog"`) || !strings.HasPrefix(d.Link, "<"+testBase+"/.well-known/api-catalog>") {
		t.Errorf("Link %q", d.Link)
	}
	m := decode(t, d)
	if len(m) != 1 {
		t.Errorf("members %v: linkset must be the only one", m)
	}
	contexts := map[string]map[string][]map[string]any{}
	for _, c := range m["linkset"].([]any) {
		ctx := c.(map[string]any)
		anchor, _ := ctx["anchor"].(string)
		rels := map[string][]map[string]any{}
		for rel, targets := range ctx {
			if rel == "anchor" {
				continue
			}
			arr, ok := targets.([]any)
			if !ok || len(arr) == 0 {
				t.Errorf("%s %s: targets must be a non-empty array", anchor, rel)
				continue
			}
			for _, tg := range arr {
				target := tg.(map[string]any)
				if href, _ := target["href"].(string); href == "" {
					t.Errorf("%s %s: target without href", anchor, rel)
				}
				for attr, v := range target {
					switch attr {
					case "href", "type", "title", "media":
						if _, ok := v.(string); !ok {
							t.Errorf("%s %s: %s must be a string", anchor, rel, attr)
						}
					default: // hreflang and extension attributes are arrays
						if _, ok := v.([]any); !ok {
							t.Errorf("%s %s: %s must be an array", anchor, rel, attr)
						}
					}
				}
				rels[rel] = append(rels[rel], target)
			}
		}
		contexts[anchor] = rels
	}
	hrefs := func(anchor, rel string) []string {
		var out []string
		for _, tg := range contexts[anchor][rel] {
			out = append(out, tg["href"].(string))
		}
		return out
	}
	if items := hrefs(testBase+"/.well-known/api-catalog", "item"); !slices.Contains(items, testBase) || !slices.Contains(items, testBase+"/mcp") || !slices.Contains(items, testBase+"/a2a") {
		t.Errorf("catalog items %v", items)
	}
	for _, tg := range contexts[testBase+"/.well-known/api-catalog"]["item"] {
		if !slices.Equal(toStrings(tg["dataset_version"]), []string{"2031-02-03"}) {
			t.Errorf("item %v lacks the dataset version", tg)
		}
	}
	if got := hrefs(testBase, "service-desc"); !slices.Equal(got, []string{testBase + "/openapi.json"}) {
		t.Errorf("service-desc %v", got)
	}
	if got := hrefs(testBase, "service-doc"); !slices.Contains(got, testBase+"/auth.md") || !slices.Contains(got, testBase+"/") {
		t.Errorf("service-doc %v", got)
	}
	if got := hrefs(testBase, "status"); !slices.Equal(got, []string{testBase + "/healthz"}) {
		t.Errorf("status %v", got)
	}
	if got := hrefs(testBase, "service-meta"); !slices.Contains(got, testBase+"/.well-known/oauth-protected-resource") || !slices.Contains(got, testBase+"/.well-known/ap2/jwks.json") {
		t.Errorf("service-meta %v", got)
	}
	if got := hrefs(testBase, "related"); !slices.Contains(got, testBase+"/feeds/changes.atom") || !slices.Contains(got, testBase+"/changes.json") {
		t.Errorf("related %v", got)
	}
	if got := hrefs(testBase+"/mcp", "service-desc"); !slices.Equal(got, []string{testBase + "/.well-known/mcp/server-card.json"}) {
		t.Errorf("MCP service-desc %v", got)
	}
	if got := hrefs(testBase+"/a2a", "service-desc"); !slices.Equal(got, []string{testBase + "/.well-known/agent-card.json"}) {
		t.Errorf("A2A service-desc %v", got)
	}
}

var skillIDs = []string{"check_entry_requirements", "evaluate_trip", "get_dataset_info"}

func TestAgentCard(t *testing.T) {
	s := testSite(t)
	m := decode(t, byPath(t, s)[discovery.PathAgentCard])
	for _, k := range []string{"protocolVersion", "name", "description", "url", "version", "preferredTransport", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"} {
		if _, ok := m[k]; !ok {
			t.Errorf("agent card lacks %s", k)
		}
	}
	if m["protocolVersion"] != "0.3.0" || m["url"] != testBase+"/a2a" || m["version"] != "0.1.0" {
		t.Errorf("agent card: protocol %v, url %v, version %v", m["protocolVersion"], m["url"], m["version"])
	}
	// The url speaks JSON-RPC, and every interface listed is an A2A transport.
	if m["preferredTransport"] != "JSONRPC" {
		t.Errorf("preferredTransport %v, want JSONRPC", m["preferredTransport"])
	}
	ifaces, _ := m["additionalInterfaces"].([]any)
	if len(ifaces) != 1 || ifaces[0].(map[string]any)["url"] != testBase+"/a2a" || ifaces[0].(map[string]any)["transport"] != "JSONRPC" {
		t.Errorf("additionalInterfaces %v, want JSONRPC at %s/a2a", ifaces, testBase)
	}
	caps := m["capabilities"].(map[string]any)
	if caps["streaming"] != false || caps["pushNotifications"] != false {
		t.Errorf("capabilities %v", caps)
	}
	exts, _ := caps["extensions"].([]any)
	if len(exts) != 2 || exts[0].(map[string]any)["uri"] != x402.A2AExtensionURI || exts[0].(map[string]any)["required"] != false {
		t.Fatalf("extensions %v, want the x402 and AP2 A2A extensions, not required", exts)
	}
	// AP2 in the merchant role, beside x402: its description names where
	// the keys are and every metadata key it uses.
	ap2Ext := exts[1].(map[string]any)
	if ap2Ext["uri"] != ap2.A2AExtensionURI || ap2Ext["required"] != false || !slices.Equal(toStrings(ap2Ext["params"].(map[string]any)["roles"]), []string{"merchant"}) {
		t.Errorf("AP2 extension %v, want the merchant role, not required", ap2Ext)
	}
	for _, want := range []string{testBase + discovery.PathAP2JWKS, ap2.MetaA2ACheckout, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate, ap2.MetaA2AError, ap2.MetaA2AReceipts} {
		if !strings.Contains(ap2Ext["description"].(string), want) {
			t.Errorf("AP2 extension description lacks %s: %s", want, ap2Ext["description"])
		}
	}
	for _, k := range []string{"defaultInputModes", "defaultOutputModes"} {
		if !slices.Equal(toStrings(m[k]), []string{"application/json"}) {
			t.Errorf("%s %v", k, m[k])
		}
	}
	desc := m["description"].(string)
	for _, want := range []string{"2031-02-03", testBase + "/mcp", testBase + "/openapi.json", `{"skill":"check","passport":"DEU","destination":"THA"}`, x402.A2AExtensionURI} {
		if !strings.Contains(desc, want) {
			t.Errorf("description lacks %q: %s", want, desc)
		}
	}
	var ids []string
	for _, sk := range m["skills"].([]any) {
		skill := sk.(map[string]any)
		ids = append(ids, skill["id"].(string))
		for _, k := range []string{"name", "description"} {
			if v, _ := skill[k].(string); v == "" {
				t.Errorf("skill %v lacks %s", skill["id"], k)
			}
		}
		if len(toStrings(skill["tags"])) == 0 || len(toStrings(skill["examples"])) == 0 {
			t.Errorf("skill %v lacks tags or examples", skill["id"])
		}
		// The example is the data part that calls the skill.
		var example map[string]any
		if err := json.Unmarshal([]byte(toStrings(skill["examples"])[0]), &example); err != nil || example["skill"] != skill["id"] {
			t.Errorf("skill %v: example %v is not a data part naming it (%v)", skill["id"], skill["examples"], err)
		}
		for _, k := range []string{"inputModes", "outputModes"} {
			if !slices.Equal(toStrings(skill[k]), []string{"application/json"}) {
				t.Errorf("skill %v: %s %v", skill["id"], k, skill[k])
			}
		}
	}
	if want := []string{"dataset-info", "check", "paid-check", "passport-matrix", "evaluate-trip"}; !slices.Equal(ids, want) {
		t.Errorf("skills %v, want %v", ids, want)
	}
	// A paid skill states the price of the REST route that gives the same answer.
	for _, sk := range m["skills"].([]any) {
		skill := sk.(map[string]any)
		if skill["id"] == "paid-check" && !strings.Contains(skill["description"].(string), "0.03 USD a call, x402") {
			t.Errorf("paid-check does not state its price: %v", skill["description"])
		}
	}
	oauth := m["securitySchemes"].(map[string]any)["oauth2"].(map[string]any)
	flow := oauth["flows"].(map[string]any)["clientCredentials"].(map[string]any)
	if oauth["type"] != "oauth2" || flow["tokenUrl"] != testBase+"/oauth/token" || oauth["oauth2MetadataUrl"] != testBase+"/.well-known/oauth-authorization-server" {
		t.Errorf("oauth2 scheme %v", oauth)
	}
}

var (
	serverNamePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)
	metaKeyPattern    = regexp.MustCompile(`^([a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z]([a-zA-Z0-9-]*[a-zA-Z0-9])?/[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$`)
)

func TestServerCard(t *testing.T) {
	s := testSite(t)
	d := byPath(t, s)[discovery.PathServerCard]
	if d.MediaType != "application/mcp-server-card+json" {
		t.Errorf("media type %q", d.MediaType)
	}
	m := decode(t, d)
	name, _ := m["name"].(string)
	desc, _ := m["description"].(string)
	if m["$schema"] != discovery.ServerCardSchema || !serverNamePattern.MatchString(name) || m["version"] != "0.1.0" ||
		len(desc) == 0 || len(desc) > 100 {
		t.Errorf("server card: schema %v, name %q, version %v, description %q", m["$schema"], name, m["version"], desc)
	}
	remotes := m["remotes"].([]any)
	remote := remotes[0].(map[string]any)
	if len(remotes) != 1 || remote["type"] != "streamable-http" || remote["url"] != testBase+"/mcp" {
		t.Errorf("remotes %v", remotes)
	}
	header := remote["headers"].([]any)[0].(map[string]any)
	if header["name"] != "Authorization" || header["isRequired"] != false || header["isSecret"] != true {
		t.Errorf("Authorization header %v", header)
	}
	meta := m["_meta"].(map[string]any)
	namespace := name[:strings.Index(name, "/")+1]
	for k := range meta {
		if !strings.HasPrefix(k, namespace) || !metaKeyPattern.MatchString(k) {
			t.Errorf("_meta key %q is not namespaced by %s", k, namespace)
		}
	}
	if meta[namespace+"dataset_version"] != "2031-02-03" {
		t.Errorf("dataset version %v", meta[namespace+"dataset_version"])
	}
	tiers := map[string]string{}
	for _, tl := range meta[namespace+"tools"].([]any) {
		tool := tl.(map[string]any)
		tiers[tool["name"].(string)] = tool["tier"].(string)
		if d, _ := tool["description"].(string); d == "" || strings.Contains(d, "\n") {
			t.Errorf("tool %v: description %q is not one line", tool["name"], d)
		}
		if tool["tier"] == "paid" && tool["price"].(map[string]any)["usd"] != "0.10" {
			t.Errorf("tool %v: price %v", tool["name"], tool["price"])
		}
	}
	want := map[string]string{"check_entry_requirements": "free_check_quota", "evaluate_trip": "paid", "get_dataset_info": "free"}
	if len(tiers) != len(want) {
		t.Errorf("tools %v", tiers)
	}
	for k, v := range want {
		if tiers[k] != v {
			t.Errorf("tool %s: tier %q, want %q", k, tiers[k], v)
		}
	}
	auth := meta[namespace+"authentication"].(map[string]any)
	bearer := auth["bearer"].(map[string]any)
	quota := auth["anonymous"].(map[string]any)["quota"].(map[string]any)
	if bearer["token_endpoint"] != testBase+"/oauth/token" || bearer["checks_per_client_per_day"] != 23.0 || quota["anonymous_per_ip_per_day"] != 7.0 {
		t.Errorf("authentication %v", auth)
	}
	links := meta[namespace+"links"].(map[string]any)
	if links["openapi"] != testBase+"/openapi.json" || links["auth_guide"] != testBase+"/auth.md" || links["ap2_jwks"] != testBase+discovery.PathAP2JWKS {
		t.Errorf("links %v", links)
	}
}

var skillNamePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestSkillsIndex(t *testing.T) {
	s := testSite(t)
	docs := byPath(t, s)
	m := decode(t, docs[discovery.PathSkillsIndex])
	if m["$schema"] != discovery.SkillsIndexSchema || m["dataset_version"] != "2031-02-03" {
		t.Errorf("index: schema %v, dataset version %v", m["$schema"], m["dataset_version"])
	}
	var tools []string
	explained := map[string]bool{}
	for _, e := range m["skills"].([]any) {
		entry := e.(map[string]any)
		name, _ := entry["name"].(string)
		desc, _ := entry["description"].(string)
		if len(name) > 64 || !skillNamePattern.MatchString(name) || desc == "" || len(desc) > 1024 || entry["type"] != "skill-md" {
			t.Errorf("entry %q: description %d characters, type %v", name, len(desc), entry["type"])
		}
		path := "/.well-known/agent-skills/" + name + "/SKILL.md"
		if entry["url"] != testBase+path {
			t.Errorf("entry %s: url %v", name, entry["url"])
		}
		md, ok := docs[path]
		if !ok {
			t.Errorf("entry %s: %s is not among the documents", name, path)
			continue
		}
		sum := sha256.Sum256(md.Body)
		if entry["digest"] != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("entry %s: digest %v does not match %s", name, entry["digest"], path)
		}
		if !strings.HasPrefix(md.MediaType, "text/markdown") {
			t.Errorf("%s: media type %q", path, md.MediaType)
		}
		front, _, ok := strings.Cut(strings.TrimPrefix(string(md.Body), "---\n"), "\n---\n")
		if !strings.HasPrefix(string(md.Body), "---\n") || !ok {
			t.Errorf("%s has no front matter", path)
		}
		var descYAML string
		json.Unmarshal([]byte(strings.TrimPrefix(lineWith(front, "description: "), "description: ")), &descYAML)
		if lineWith(front, "name: ") != "name: "+name || descYAML != desc {
			t.Errorf("%s: front matter does not match the index entry:\n%s", path, front)
		}
		tool, _ := entry["mcp_tool"].(string)
		tools = append(tools, tool)
		if !strings.Contains(string(md.Body), "`"+tool+"`") || entry["mcp_server"] != testBase+"/mcp" {
			t.Errorf("%s does not name its MCP tool %q", path, tool)
		}
		if len(entry["endpoints"].([]any)) == 0 {
			t.Errorf("entry %s names no REST endpoint", name)
		}
		// Every A2A skill that answers as one of the skill's REST
		// endpoints is explained in its SKILL.md, with its example.
		for _, a := range discovery.A2ASkills {
			for _, ep := range entry["endpoints"].([]any) {
				if ep.(map[string]any)["url"] != testBase+a.Path {
					continue
				}
				explained[a.ID] = true
				if !strings.Contains(string(md.Body), "`"+a.ID+"` ("+a.Name+"): `"+a.Example+"`") {
					t.Errorf("%s does not explain the A2A skill %s, which answers as %s", path, a.ID, a.Path)
				}
			}
		}
		switch entry["tier"] {
		case "paid":
			if entry["price"] == nil {
				t.Errorf("entry %s is paid without a price", name)
			}
		case "free_check_quota":
			if entry["quota"].(map[string]any)["registered_per_client_per_day"] != 23.0 {
				t.Errorf("entry %s: quota %v", name, entry["quota"])
			}
		case "free":
		default:
			t.Errorf("entry %s: tier %v", name, entry["tier"])
		}
	}
	if !slices.Equal(tools, skillIDs) {
		t.Errorf("tools %v, want %v", tools, skillIDs)
	}
	for _, a := range discovery.A2ASkills {
		if !explained[a.ID] {
			t.Errorf("no SKILL.md explains the A2A skill %s: add %s to the endpoints of the skill it belongs to", a.ID, a.Path)
		}
	}
}

func lineWith(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestServedEqualsGenerated: the API serves Encode of the document
// functions; the generator writes Documents. They must be the same bytes.
func TestServedEqualsGenerated(t *testing.T) {
	s := testSite(t)
	docs := byPath(t, s)
	for path, body := range map[string][]byte{
		discovery.PathAuthorizationServer: discovery.Encode(discovery.AuthorizationServer(s)),
		discovery.PathProtectedResource:   discovery.Encode(discovery.ProtectedResource(s)),
		discovery.PathAPICatalog:          discovery.Encode(discovery.APICatalog(s)),
		discovery.PathAgentCard:           discovery.Encode(discovery.A2ACard(s)),
		discovery.PathServerCard:          discovery.Encode(discovery.MCPServerCard(s)),
		discovery.PathSkillsIndex:         discovery.Encode(discovery.AgentSkills(s)),
	} {
		if !bytes.Equal(docs[path].Body, body) {
			t.Errorf("%s: Documents and the document function differ", path)
		}
	}
}

// The texts for people and crawlers say this deployment's quotas and
// prices, never the defaults written into their sources.
func TestTextsFollowTheConfiguration(t *testing.T) {
	s := testSite(t)
	docs := byPath(t, s)
	for path, want := range map[string][]string{
		"/auth.md":    {"| 7 checks a day per IP address", "| 23 checks a day per client", "2 registrations a day per IP", "`GET /v1/check` (0.03 USD)", testBase + "/oauth/register"},
		"/llms.txt":   {"(free, 7 a day per IP, 23 with a registered client)", "39402 routes; 12 destinations", "Matrix snapshot 2031-02-03", testBase + "/mcp"},
		"/robots.txt": {"Sitemap: " + testBase + "/sitemap.xml"},
	} {
		body := string(docs[path].Body)
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q", path, w)
			}
		}
		for _, placeholder := range []string{"{base_url}", "{quota_", "{price_"} {
			if strings.Contains(body, placeholder) {
				t.Errorf("%s still has the placeholder %s", path, placeholder)
			}
		}
	}
}

// The guide and llms.txt name the AP2 merchant key, and the guide every
// place AP2 travels on MCP and A2A, as the servers and the card name them.
func TestAuthGuideDescribesAP2(t *testing.T) {
	s := testSite(t)
	docs := byPath(t, s)
	guide := string(docs[discovery.PathAuthGuide].Body)
	for _, want := range []string{s.URL(discovery.PathAP2JWKS), ap2.A2AExtensionURI,
		ap2.MetaA2ACheckout, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate, ap2.MetaA2AReceipts, ap2.MetaA2AError,
		ap2.MetaMCPCheckoutMandate, ap2.MetaMCPPaymentMandate, ap2.MetaMCPReceipts, ap2.MetaMCPError} {
		if !strings.Contains(guide, want) {
			t.Errorf("auth.md does not name %s", want)
		}
	}
	if llms := string(docs[discovery.PathLLMsTxt].Body); !strings.Contains(llms, s.URL(discovery.PathAP2JWKS)) {
		t.Errorf("llms.txt does not link the AP2 merchant key")
	}
}

// The agent card's documentation names the A2A endpoint, its skills and
// the x402 extension as the card does.
func TestAuthGuideDescribesA2A(t *testing.T) {
	s := testSite(t)
	guide := string(byPath(t, s)[discovery.PathAuthGuide].Body)
	for _, want := range []string{s.URL(discovery.PathA2A), x402.A2AExtensionURI, x402.MetaA2APayload, x402.MetaA2AReceipts} {
		if !strings.Contains(guide, want) {
			t.Errorf("auth.md does not name %s", want)
		}
	}
	for _, sk := range discovery.A2ASkills {
		if sk.ID != discovery.A2ASkillDatasetInfo && !strings.Contains(guide, "`"+sk.ID+"`") {
			t.Errorf("auth.md does not name the skill %s", sk.ID)
		}
	}
}
