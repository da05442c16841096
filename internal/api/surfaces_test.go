package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	apiresponse "github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// TestConfiguredQuotasAndPricesOnEverySurface: quotas and prices set by
// configuration are what every surface states and charges: the OpenAPI
// description, the agent guide, llms.txt, the agent and MCP server cards,
// the skills, the MCP tools and the payment offers. No surface keeps a
// default or an unfilled placeholder.
func TestConfiguredQuotasAndPricesOnEverySurface(t *testing.T) {
	quotas := config.Quotas{Anonymous: 7, Client: 23, Registrations: 2, Network: 61, Global: 999,
		NetworkClients: 83, RegistrationsNetwork: 4, RegistrationsGlobal: 77, Tokens: 31}
	prices := config.Prices{"check": "0.07", "passport": "0.27", "trips": "0.19"}
	e := start(t, "", func(c *config.Config) { c.Quotas, c.Prices = quotas, prices })

	surfaces := map[string]string{}
	for _, path := range []string{discovery.PathOpenAPI, discovery.PathAuthGuide, discovery.PathLLMsTxt, discovery.PathAgentCard,
		discovery.PathServerCard, discovery.PathSkillsIndex, discovery.PathAPICatalog} {
		surfaces[path] = e.fetchText(t, path)
	}
	cs := e.connectMCP(nil, protocolDiscover)
	var tools strings.Builder
	for _, tool := range e.tools(cs) {
		b, _ := json.Marshal(tool)
		tools.Write(b)
	}
	surfaces["MCP tools/list"] = tools.String()

	// What each surface must state: the values it names, configured.
	for surface, wants := range map[string][]string{
		discovery.PathOpenAPI: {"7 checks a day per IP", "23 a day per client", "/v1/check 0.07 USD", "/v1/passport/{iso3} 0.27 USD",
			"/v1/trips/evaluate 0.19 USD", "IPv6 /56: 61 a day", "(999 a day)", `"global": 999`, `"amount": "0.07"`,
			"2 registrations per day per IP address, 4 per network", "77 worldwide", "At most 31 tokens"},
		discovery.PathAuthGuide:  {"7 checks a day per IP", "23 checks a day per client", "2 registrations a day", "4 per network", "31 tokens a day", "share 83", "(0.07 USD)", "(0.27 USD)", "(0.19 USD)"},
		discovery.PathLLMsTxt:    {"7 a day per IP", "23 with a registered client"},
		discovery.PathServerCard: {"0.19"},
		"MCP tools/list":         {"7 successful calls per IP address", "23 per registered client", "0.19 USD a call", "190000"},
	} {
		for _, want := range wants {
			if !strings.Contains(surfaces[surface], want) {
				t.Errorf("%s does not state %q", surface, want)
			}
		}
	}
	for surface, text := range surfaces {
		for _, stale := range []string{"{quota_", "{price_", "5 checks", "20 a day", "0.03 USD", "0.15 USD", "0.10 USD", "50000", "50,000"} {
			if strings.Contains(text, stale) {
				i := strings.Index(text, stale)
				t.Errorf("%s states %q: %.80q", surface, stale, text[max(0, i-40):])
			}
		}
	}

	// The offers charge the configured prices.
	for path, amount := range map[string]string{"/v1/check?passport=DEU&destination=THA": "70000", "/v1/passport/DEU": "270000"} {
		r := e.get(path)
		var offer x402.PaymentRequired
		if err := x402.Decode(r.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil || len(offer.Accepts) == 0 || offer.Accepts[0].Amount != amount {
			t.Errorf("%s: offer %+v (%v), want amount %s", path, offer, err, amount)
		}
	}
	res := callTool(t, cs, "evaluate_trip", json.RawMessage(`{"traveler":{"passports":["DEU"]},"trip":{"legs":[{"country":"THA"}]}}`), mcp.Meta{})
	var offer x402.PaymentRequired
	structured(t, res, &offer)
	if len(offer.Accepts) == 0 || offer.Accepts[0].Amount != "190000" {
		t.Errorf("evaluate_trip offer %+v, want amount 190000", offer)
	}
}

// TestEveryRequirementValueOnEverySurface: every requirement value of the
// service's table (entrycheck.Requirements) is in the OpenAPI enums and
// descriptions, the MCP tools' descriptions and schemas, llms.txt and the
// check skill; a surface that forgets a new value fails here.
func TestEveryRequirementValueOnEverySurface(t *testing.T) {
	e := start(t, "")
	fetch := func(path string) string { return e.fetchText(t, path) }
	var doc map[string]any
	if err := json.Unmarshal([]byte(fetch(discovery.PathOpenAPI)), &doc); err != nil {
		t.Fatal(err)
	}
	all := fmt.Sprint(entrycheck.Requirements)
	for name, got := range map[string]any{
		"Requirement enum":      at(doc, "components", "schemas", "Requirement", "enum"),
		"PassportMatrix counts": at(doc, "components", "schemas", "PassportMatrix", "properties", "counts", "required"),
	} {
		if fmt.Sprint(got) != all {
			t.Errorf("openapi.json %s: %v, want %v", name, got, all)
		}
	}
	actions := map[string]bool{}
	for _, a := range at(doc, "components", "schemas", "Action", "enum").([]any) {
		actions[a.(string)] = true
	}
	cs := e.connectMCP(nil, protocolDiscover)
	tools := e.tools(cs)
	texts := map[string]string{
		"openapi.json Requirement description": at(doc, "components", "schemas", "Requirement", "description").(string),
		"openapi.json Action description":      at(doc, "components", "schemas", "Action", "description").(string),
		"MCP check tool description":           tools["check_entry_requirements"].Description,
		"llms.txt":                             fetch(discovery.PathLLMsTxt),
		"check skill":                          fetch("/.well-known/agent-skills/check-entry-requirements/SKILL.md"),
	}
	for _, r := range entrycheck.Requirements {
		if !actions[string(r.Action())] {
			t.Errorf("openapi.json Action enum lacks %s (the action of %s)", r.Action(), r)
		}
		for surface, text := range texts {
			if !regexp.MustCompile(`\b` + string(r) + `\b`).MatchString(text) {
				t.Errorf("%s does not name %s", surface, r)
			}
		}
	}
	for tool, path := range map[string][]string{
		"check_entry_requirements": {"$defs", "Requirement", "enum"},
		"get_dataset_info":         {"$defs", "DatasetInfo", "properties", "requirement_values", "items", "properties", "value", "enum"},
	} {
		if got := at(tools[tool].OutputSchema, path...); fmt.Sprint(got) != all {
			t.Errorf("MCP %s output schema: %v, want %v", tool, got, all)
		}
	}
}

// resolved is the object v, or the one of doc it refers to ($ref).
func resolved(doc map[string]any, v any) map[string]any {
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		m, _ = at(doc, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...).(map[string]any)
	}
	return m
}

// TestEveryRouteIsServedDocumentedAndPriced: every route of the table the
// router registers from (discovery.Routes) answers its method, is
// described in openapi.json with that method, and, when paid, offers the
// configured price there and in its 402; a route a surface forgets fails
// here.
func TestEveryRouteIsServedDocumentedAndPriced(t *testing.T) {
	e := start(t, "")
	var doc map[string]any
	if err := json.Unmarshal(apidoc.For(apidoc.SiteOf(e.cfg, datatest.Evaluator(t))), &doc); err != nil {
		t.Fatal(err)
	}
	prices := discovery.PricesOf(e.cfg.Prices)
	for _, rt := range discovery.Routes {
		path := strings.ReplaceAll(rt.Path, "{iso3}", "DEU")
		req, _ := http.NewRequest(rt.Method, e.url+path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d: not routed", rt.Method, rt.Path, resp.StatusCode)
		}
		op, _ := at(doc, "paths", rt.Path, strings.ToLower(rt.Method)).(map[string]any)
		if op == nil {
			t.Errorf("openapi.json does not describe %s %s", rt.Method, rt.Path)
			continue
		}
		// A 429 is documented where one can come: a daily quota's
		// (RateLimited) on the routes that count against one, and the
		// requests in flight of a client address on every route not
		// Unlimited.
		tooMany := resolved(doc, at(op, "responses", "429"))
		schema, _ := json.Marshal(at(tooMany, "content", "application/json", "schema"))
		if documented := strings.Contains(string(schema), "RateLimited"); documented != (rt.Quota != "") {
			t.Errorf("%s %s: quota scope %q, yet openapi.json documents a quota's 429: %v", rt.Method, rt.Path, rt.Quota, documented)
		}
		if documented := strings.Contains(fmt.Sprint(tooMany["description"]), apiresponse.CodeTooManyInFlight); documented == rt.Unlimited {
			t.Errorf("%s %s: unlimited %v, yet openapi.json documents a 429 %s: %v", rt.Method, rt.Path, rt.Unlimited, apiresponse.CodeTooManyInFlight, documented)
		}
		if rt.Tier != discovery.TierPaid {
			continue
		}
		var usd string
		for _, p := range prices {
			if p.Method == rt.Method && p.Path == rt.Path {
				usd = p.USD
			}
		}
		if usd == "" || at(op, "x-price", "amount") != usd || !strings.Contains(fmt.Sprint(op["description"]), usd+" USD") {
			t.Errorf("%s %s: price %q, openapi.json x-price %v", rt.Method, rt.Path, usd, at(op, "x-price"))
		}
		amount, _ := x402.AtomicUSDC(usd)
		if rt.Method == http.MethodGet {
			var offer x402.PaymentRequired
			r := e.get(path + "?passport=DEU&destination=THA")
			if err := x402.Decode(r.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil || r.StatusCode != http.StatusPaymentRequired || offer.Accepts[0].Amount != amount {
				t.Errorf("GET %s: %d, offer %+v (%v), want amount %s", rt.Path, r.StatusCode, offer, err, amount)
			}
		}
	}
}

// fetchText GETs a document that must answer 200, without the OpenAPI
// check (most documents are not API paths).
func (e *env) fetchText(t *testing.T, path string) string {
	t.Helper()
	r, err := http.Get(e.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", path, r.StatusCode)
	}
	return string(b)
}

// TestAgentsAreToldEveryRuleField: the check tool's description and the
// check skill name every entry-rule field an answer may carry.
func TestAgentsAreToldEveryRuleField(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolDiscover)
	surfaces := map[string]string{
		"MCP check_entry_requirements": e.tools(cs)["check_entry_requirements"].Description,
		"check skill":                  e.fetchText(t, "/.well-known/agent-skills/check-entry-requirements/SKILL.md"),
	}
	for surface, text := range surfaces {
		for _, f := range entrycheck.RuleFields() {
			if !strings.Contains(strings.ToLower(text), strings.ToLower(f.Label)) {
				t.Errorf("%s does not name the entry-rule field %s (%q)", surface, f.Name, f.Label)
			}
		}
	}
}

// TestEveryRouteCountsAgainstItsQuotas: with the quotas of one scope at 0,
// each surface of that scope (quotaSurfaces: the routes of
// discovery.Routes, and the MCP and A2A check) refuses a valid call with
// 429, and the surfaces of the other scopes still answer.
func TestEveryRouteCountsAgainstItsQuotas(t *testing.T) {
	surfaces := quotaSurfaces(t)
	scopes := map[config.QuotaScope]bool{}
	for _, q := range config.QuotaSettings {
		scopes[q.Counts] = true
	}
	for _, rt := range discovery.Routes {
		if rt.Quota != "" && !scopes[rt.Quota] {
			t.Errorf("%s %s counts against %s quotas, which config.QuotaSettings does not have", rt.Method, rt.Path, rt.Quota)
		}
	}
	for scope := range scopes {
		if !slices.ContainsFunc(discovery.Routes, func(rt discovery.Route) bool { return rt.Quota == scope }) {
			t.Errorf("no route counts against the %s quotas", scope)
		}
		e := start(t, "", func(c *config.Config) {
			for _, q := range config.QuotaSettings {
				if q.Counts == scope {
					*q.Of(&c.Quotas) = 0
				}
			}
		})
		for _, s := range surfaces {
			if s.name == "POST "+discovery.PathToken && scope == config.CountsRegistrations {
				continue // a token needs a client, and no client can register
			}
			if refused := s.call(t, e, quotaCaller{}) != nil; refused != (s.counts == scope) {
				t.Errorf("%s quotas at 0: %s refused the call: %v (its scope: %s)", scope, s.name, refused, s.counts)
			}
		}
	}
}
