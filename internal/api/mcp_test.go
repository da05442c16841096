package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The MCP tests talk to /mcp with the official Go SDK client over real
// HTTP. /mcp is JSON-RPC and not in openapi.json, so they use their own
// http.Client, never env.do.

// Protocol versions the SDK client can speak: the initialize handshake, and
// the stateless server/discover of 2026-07-28 (the SDK's default).
const (
	protocolInitialize = "2025-11-25"
	protocolDiscover   = "2026-07-28"
)

// connectMCP connects an MCP client over streamable HTTP with hc (nil: a
// plain client) speaking protocol version.
func (e *env) connectMCP(hc *http.Client, version string) *mcp.ClientSession {
	e.t.Helper()
	cs, err := e.dialMCP(hc, version)
	if err != nil {
		e.t.Fatalf("connecting to /mcp (%s): %v", version, err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

func (e *env) dialMCP(hc *http.Client, version string) (*mcp.ClientSession, error) {
	if hc == nil {
		hc = &http.Client{}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "entrycheck-test", Version: "1.0.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: e.url + "/mcp", HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any, meta ...mcp.Meta) *mcp.CallToolResult {
	t.Helper()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if len(meta) > 0 {
		params.Meta = meta[0]
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	conformsToOutputSchema(t, cs, name, res)
	return res
}

// conformsToOutputSchema checks every result a test gets against the
// tool's output schema, as MCP clients do, errors included: an answer
// matches the schema's first branch, an error result one of the others.
func conformsToOutputSchema(t *testing.T, cs *mcp.ClientSession, name string, res *mcp.CallToolResult) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name != name {
			continue
		}
		out, ok := tool.OutputSchema.(map[string]any)
		anyOf, _ := out["anyOf"].([]any)
		if !ok || len(anyOf) < 2 {
			t.Fatalf("%s: output schema is not an answer or an error body: %v", name, tool.OutputSchema)
		}
		branch := maps.Clone(out)
		if res.IsError {
			branch["anyOf"] = anyOf[1:]
		} else {
			branch["anyOf"] = anyOf[:1]
		}
		if err := resolveSchema(t, branch).Validate(res.StructuredContent); err != nil {
			t.Errorf("%s (isError %v): structured content does not match the output schema: %v", name, res.IsError, err)
		}
		return
	}
	t.Fatalf("no tool %s", name)
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content does not decode into %T: %v\n%s", v, err, b)
	}
}

func textOf(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// errorBody is the API's error body as tool errors carry it.
type errorBody struct {
	Error     string               `json:"error"`
	Message   string               `json:"message"`
	RequestID string               `json:"request_id"`
	Problems  []entrycheck.Problem `json:"problems"`
	Scope     string               `json:"scope"`
	Limit     int                  `json:"limit"`
	ResetAt   time.Time            `json:"reset_at"`
}

func toolError(t *testing.T, res *mcp.CallToolResult) errorBody {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got %v", textOf(res))
	}
	var b errorBody
	structured(t, res, &b)
	if b.RequestID == "" {
		t.Errorf("tool error without request_id: %+v", b)
	}
	return b
}

func checkArgs(passport, destination string) map[string]any {
	return map[string]any{"passport": passport, "destination": destination}
}

func TestMCPConnectAndListTools(t *testing.T) {
	e := start(t, "")
	card := discovery.MCPServerCard(apidoc.SiteOf(e.cfg, datatest.Evaluator(t)))
	var cardTools []string
	for _, tool := range card.Meta.Tools {
		cardTools = append(cardTools, tool.Name)
	}
	for _, version := range []string{protocolInitialize, protocolDiscover} {
		t.Run(version, func(t *testing.T) {
			cs := e.connectMCP(nil, version)
			info := cs.InitializeResult()
			if info == nil || info.ServerInfo == nil {
				t.Fatalf("no server info: %+v", info)
			}
			if version == protocolInitialize && info.ProtocolVersion != protocolInitialize {
				t.Errorf("negotiated %q", info.ProtocolVersion)
			}
			if s := info.ServerInfo; s.Name != discovery.MCPServerName || s.Name != card.Name || s.Version != card.Version || s.Version != discovery.APIVersion {
				t.Errorf("server info %+v, card %s %s", s, card.Name, card.Version)
			}
			if info.Capabilities == nil || info.Capabilities.Tools == nil || !strings.Contains(info.Instructions, "check_entry_requirements") {
				t.Errorf("capabilities %+v, instructions %q", info.Capabilities, info.Instructions)
			}
			list, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
					t.Errorf("%s: description %q, input schema %v, output schema %v", tool.Name, tool.Description, tool.InputSchema != nil, tool.OutputSchema != nil)
				}
				for _, s := range []any{tool.InputSchema, tool.OutputSchema} {
					if m, _ := s.(map[string]any); m["type"] != "object" {
						t.Errorf("%s: schema type %v", tool.Name, m["type"])
					}
					resolveSchema(t, s)
				}
			}
			if !slices.Equal(names, cardTools) {
				t.Errorf("tools %v, the server card lists %v", names, cardTools)
			}
		})
	}
}

// TestMCPToolSchemas checks that the schemas say what the tools accept:
// country bounds, the purpose and requirement enums, the trip bounds.
func TestMCPToolSchemas(t *testing.T) {
	e := start(t, "")
	tools := e.tools(e.connectMCP(nil, protocolDiscover))
	check := tools["check_entry_requirements"]
	in := check.InputSchema
	for _, f := range []string{"passport", "destination", "transit"} {
		if at(in, "properties", f, "minLength") != float64(2) || at(in, "properties", f, "maxLength") != float64(100) {
			t.Errorf("%s bounds %v", f, at(in, "properties", f))
		}
	}
	if got := at(in, "properties", "purpose", "enum"); fmt.Sprint(got) != "[tourism business]" {
		t.Errorf("purpose enum %v", got)
	}
	if at(in, "properties", "visas_of", "maxItems") != float64(20) || at(in, "properties", "visas_of", "items", "maxLength") != float64(100) {
		t.Errorf("visas_of %v", at(in, "properties", "visas_of"))
	}
	if fmt.Sprint(at(in, "required")) != "[passport destination]" || at(in, "additionalProperties") != false {
		t.Errorf("required %v, additionalProperties %v", at(in, "required"), at(in, "additionalProperties"))
	}
	wantReqs := "[visa_free visa_on_arrival eta e_visa visa_required no_admission unknown needs_review]"
	if got := at(check.OutputSchema, "$defs", "Requirement", "enum"); fmt.Sprint(got) != wantReqs {
		t.Errorf("check output requirement enum %v", got)
	}
	trip := tools["evaluate_trip"]
	if at(trip.InputSchema, "properties", "trip", "properties", "legs", "maxItems") != float64(entrycheck.MaxTripLegs) ||
		at(trip.InputSchema, "properties", "traveler", "properties", "passports", "maxItems") != float64(entrycheck.MaxTripPassports) ||
		at(trip.InputSchema, "properties", "trip", "properties", "legs", "items", "properties", "country", "maxLength") != float64(100) {
		t.Errorf("trip input schema %v", trip.InputSchema)
	}
	if meta := map[string]any(trip.Meta); at(meta, "io.github.entrycheck/tier") != "paid" || at(meta, "io.github.entrycheck/price", "amount") != "100000" {
		t.Errorf("trip _meta %v", trip.Meta)
	}
	ds := tools["get_dataset_info"]
	if got := at(ds.OutputSchema, "$defs", "DatasetInfo", "properties", "requirement_values", "items", "properties", "value", "enum"); fmt.Sprint(got) != wantReqs {
		t.Errorf("dataset requirement enum %v", got)
	}
	if at(ds.InputSchema, "additionalProperties") != false {
		t.Errorf("dataset input schema %v", ds.InputSchema)
	}
}

func (e *env) tools(cs *mcp.ClientSession) map[string]*mcp.Tool {
	e.t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		out[tool.Name] = tool
	}
	return out
}

func resolveSchema(t *testing.T, s any) *jsonschema.Resolved {
	t.Helper()
	b, _ := json.Marshal(s)
	var schema jsonschema.Schema
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatalf("schema: %v", err)
	}
	r, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v", err)
	}
	return r
}

// conforms checks a successful result's structured content against the
// tool's output schema.
func conforms(t *testing.T, tool *mcp.Tool, res *mcp.CallToolResult) {
	t.Helper()
	if err := resolveSchema(t, tool.OutputSchema).Validate(res.StructuredContent); err != nil {
		t.Errorf("%s: structured content does not match the output schema: %v", tool.Name, err)
	}
}

func TestMCPCheckEntryRequirements(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolDiscover)
	tools := e.tools(cs)
	res := callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA"))
	if res.IsError {
		t.Fatalf("tool error: %v", textOf(res))
	}
	var r entrycheck.CheckResult
	structured(t, res, &r)
	if r.Requirement != entrycheck.VisaFree || r.AllowedStayDays != entrycheck.SomeDays(60) || r.Passport.ISO3 != "DEU" || r.Destination.ISO3 != "THA" ||
		r.DatasetVersion != datatest.Current || r.RequestID == "" || r.Disclaimer != entrycheck.Disclaimer(entrycheck.English()) || r.Source.License != "MIT" ||
		r.Source.URL != "https://github.com/imorte/passport-index-data" || r.Source.Commit != "9c59780" || r.Source.Snapshot != datatest.Current {
		t.Errorf("result %+v", r)
	}
	conforms(t, tools["check_entry_requirements"], res)
	text := strings.Join(textOf(res), "\n")
	// Thailand's validity rule is documented for British travellers: the
	// text says so before the rule.
	pv := r.EntryRules.PassportValidity
	if pv == nil || pv.Applies != entrycheck.AppliesDocumentedForOthers {
		t.Fatalf("DEU to THA passport validity %+v, want documented for others", pv)
	}
	for _, want := range []string{"Passport of Germany (DEU) to Thailand (THA): Visa-free, up to 60 days", "Action: none", "Passport validity: " + pv.Note + " " + pv.Value.Text, ", read " + pv.Source.RetrievedAt.Long(), r.Disclaimer,
		"Verdict " + r.VerdictVerification.AgeWords(), "as of " + r.VerdictVerification.AsOf.Long()} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// An official statement's page is cited with what is known of it, in
	// the words every other place uses.
	syr := callTool(t, cs, "check_entry_requirements", checkArgs("SYR", "USA"))
	var sr entrycheck.CheckResult
	structured(t, syr, &sr)
	if len(sr.VerdictVerification.OfficialStatements) == 0 {
		t.Fatalf("SYR to USA without its statement: %+v", sr.VerdictVerification)
	}
	src := sr.VerdictVerification.OfficialStatements[0].Source
	if d := src.Detail(); d == "" || !strings.Contains(strings.Join(textOf(syr), "\n"), src.URL+", "+src.ReadText()+"]") {
		t.Errorf("SYR to USA text does not say %q of %s:\n%s", d, src.URL, strings.Join(textOf(syr), "\n"))
	}
	if res.Meta["io.github.entrycheck/request_id"] != r.RequestID {
		t.Errorf("_meta %v, request_id %s", res.Meta, r.RequestID)
	}
	// The same answer as /free/check, field for field except the request's own.
	var viaHTTP entrycheck.CheckResult
	if err := json.Unmarshal(e.get("/free/check?passport=DEU&destination=THA").body, &viaHTTP); err != nil {
		t.Fatal(err)
	}
	viaHTTP.RequestID, viaHTTP.EvaluatedAt = r.RequestID, r.EvaluatedAt
	a, _ := json.Marshal(viaHTTP)
	b, _ := json.Marshal(r)
	if !bytes.Equal(a, b) {
		t.Errorf("MCP and /free/check answers differ:\n%s\n%s", a, b)
	}
	// Held documents and transit, as arrays.
	res = callTool(t, cs, "check_entry_requirements", map[string]any{"passport": "ind", "destination": "MEX", "visas_of": []string{"USA"}, "transit": "USA", "purpose": "business"})
	structured(t, res, &r)
	if res.IsError || r.ExemptionApplied == nil || r.Transit == nil || r.Transit.Country.ISO3 != "USA" {
		t.Errorf("IND to MEX with a US visa: %v", textOf(res))
	}
	conforms(t, tools["check_entry_requirements"], res)
}

func TestMCPQuotaSharedWithFreeCheck(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			cs := e.connectMCP(nil, protocolInitialize)
			served := 0
			for i := 0; i < 5; i++ {
				if i%2 == 0 {
					r := e.get("/free/check?passport=DEU&destination=THA")
					if r.StatusCode != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != fmt.Sprint(4-i) {
						t.Fatalf("/free/check %d: %d remaining %s", i+1, r.StatusCode, r.Header.Get("X-RateLimit-Remaining"))
					}
				} else {
					res := callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA"))
					limit, _ := res.Meta["io.github.entrycheck/rate_limit"].(map[string]any)
					if res.IsError || limit["scope"] != "ip_daily" || limit["limit"] != float64(5) || limit["remaining"] != float64(4-i) {
						t.Fatalf("MCP call %d: %v, rate limit %v", i+1, textOf(res), limit)
					}
				}
				served++
			}
			// The 6th free check from this address is refused on both surfaces.
			res := callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA"))
			b := toolError(t, res)
			if b.Error != "rate_limited" || b.Scope != "ip_daily" || b.Limit != 5 || !b.ResetAt.Equal(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("refusal %+v", b)
			}
			text := strings.Join(textOf(res), "\n")
			for _, want := range []string{"ip_daily", "limit 5", "2026-11-23T00:00:00Z", "Bearer"} {
				if !strings.Contains(text, want) {
					t.Errorf("refusal text lacks %q: %s", want, text)
				}
			}
			if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusTooManyRequests || r.json(t)["scope"] != "ip_daily" {
				t.Errorf("/free/check after 5 mixed checks: %d %s", r.StatusCode, r.body)
			}
			if s := e.get("/stats.json").json(t); s["free_checks_today"] != float64(served) {
				t.Errorf("stats %v, want %d free checks", s, served)
			}
			// Invalid calls and the free dataset tool count nothing, even now.
			if res := callTool(t, cs, "check_entry_requirements", checkArgs("GER", "THA")); toolError(t, res).Error != "invalid_parameters" {
				t.Errorf("invalid call after the quota: %v", textOf(res))
			}
			if res := callTool(t, cs, "get_dataset_info", map[string]any{}); res.IsError {
				t.Errorf("get_dataset_info after the quota: %v", textOf(res))
			}
			// The quota resets at midnight UTC.
			e.clock.Advance(14 * time.Hour)
			if res := callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA")); res.IsError {
				t.Errorf("the next day: %v", textOf(res))
			}
		})
	}
}

func TestMCPBearerTokenQuota(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			id, secret := e.register("mcp agent")
			ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.validating())
			cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: e.url + "/oauth/token"}
			tok, err := cc.Token(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// The token travels on every MCP request; /mcp is not validated
			// against openapi.json, so the transport is the default one.
			hc := &http.Client{Transport: &oauth2.Transport{Source: oauth2.StaticTokenSource(tok), Base: http.DefaultTransport}}
			for _, version := range []string{protocolInitialize, protocolDiscover} {
				cs := e.connectMCP(hc, version)
				for i := 0; i < 10; i++ {
					res := callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA"))
					limit, _ := res.Meta["io.github.entrycheck/rate_limit"].(map[string]any)
					if res.IsError || limit["scope"] != "client_daily" || limit["limit"] != float64(20) {
						t.Fatalf("call with a token: %v, rate limit %v", textOf(res), limit)
					}
				}
			}
			cs := e.connectMCP(hc, protocolDiscover)
			if b := toolError(t, callTool(t, cs, "check_entry_requirements", checkArgs("DEU", "THA"))); b.Scope != "client_daily" || b.Limit != 20 {
				t.Errorf("21st call with a token: %+v", b)
			}
			// The client's calls used none of the address's anonymous quota.
			if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != "4" {
				t.Errorf("anonymous check after the client's: %d, remaining %s", r.StatusCode, r.Header.Get("X-RateLimit-Remaining"))
			}
		})
	}
}

// recorder is a transport that sends a fixed Authorization header and
// records the status and WWW-Authenticate of every response.
type recorder struct {
	authorization string
	mu            sync.Mutex
	statuses      []int
	challenge     string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", r.authorization)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		r.mu.Lock()
		r.statuses = append(r.statuses, resp.StatusCode)
		if h := resp.Header.Get("WWW-Authenticate"); h != "" {
			r.challenge = h
		}
		r.mu.Unlock()
	}
	return resp, err
}

func TestMCPInvalidBearerToken(t *testing.T) {
	e := start(t, "")
	for _, bad := range []string{"Bearer ect_0123456789ab_notthesecret", "Bearer not-a-token", "Basic dXNlcjpwYXNz"} {
		want := e.get("/free/check?passport=DEU&destination=THA", "Authorization", bad)
		if want.StatusCode != http.StatusUnauthorized {
			t.Fatalf("/free/check with %q: %d", bad, want.StatusCode)
		}
		for _, version := range []string{protocolInitialize, protocolDiscover} {
			rec := &recorder{authorization: bad}
			if _, err := e.dialMCP(&http.Client{Transport: rec}, version); err == nil {
				t.Fatalf("%s: connected with %q", version, bad)
			}
			if len(rec.statuses) == 0 || slices.ContainsFunc(rec.statuses, func(s int) bool { return s != http.StatusUnauthorized }) {
				t.Errorf("%s with %q: statuses %v, want only 401", version, bad, rec.statuses)
			}
			if rec.challenge != want.Header.Get("WWW-Authenticate") {
				t.Errorf("WWW-Authenticate %q, /free/check says %q", rec.challenge, want.Header.Get("WWW-Authenticate"))
			}
		}
		// The body is the API's error, as on /free/check.
		r := rawMCP(t, e, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Authorization", bad)
		var body errorBody
		if json.Unmarshal(r.body, &body) != nil || r.StatusCode != http.StatusUnauthorized || body.Error != want.json(t)["error"] || body.Message != want.json(t)["message"] {
			t.Errorf("raw /mcp with %q: %d %s", bad, r.StatusCode, r.body)
		}
	}
	if !strings.Contains(e.get("/free/check?passport=DEU&destination=THA", "Authorization", "Bearer x").Header.Get("WWW-Authenticate"), `resource_metadata="`+e.url+"/.well-known/oauth-protected-resource") {
		t.Error("WWW-Authenticate does not point to the protected-resource metadata")
	}
}

func TestMCPDatasetInfo(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolInitialize)
	res := callTool(t, cs, "get_dataset_info", nil)
	if res.IsError {
		t.Fatalf("tool error: %v", textOf(res))
	}
	conforms(t, e.tools(cs)["get_dataset_info"], res)
	var info struct {
		DatasetVersion          string   `json:"dataset_version"`
		Routes                  int      `json:"routes"`
		Passports               int      `json:"passports"`
		Destinations            int      `json:"destinations"`
		CuratedDestinations     int      `json:"curated_destinations"`
		CuratedDestinationCodes []string `json:"curated_destination_codes"`
		RequirementValues       []struct {
			Value  string `json:"value"`
			Action string `json:"action"`
		} `json:"requirement_values"`
		StaleAfterDays int `json:"stale_after_days"`
		MatrixSource   struct {
			Commit   string `json:"commit"`
			License  string `json:"license"`
			Snapshot string `json:"snapshot"`
		} `json:"matrix_source"`
		Today struct {
			FreeChecks int `json:"free_checks"`
		} `json:"today"`
		Links map[string]string `json:"links"`
	}
	structured(t, res, &info)
	if info.DatasetVersion != datatest.Current || info.Routes != 39402 || info.Passports != 199 || info.Destinations != 199 ||
		info.CuratedDestinations == 0 || len(info.CuratedDestinationCodes) != info.CuratedDestinations || !slices.Contains(info.CuratedDestinationCodes, "THA") ||
		len(info.RequirementValues) != 8 || info.RequirementValues[7].Value != "needs_review" || info.RequirementValues[7].Action != "check_official_authority" ||
		info.StaleAfterDays != 30 || info.MatrixSource.License != "MIT" || info.MatrixSource.Snapshot != datatest.Current || info.MatrixSource.Commit != "9c59780" {
		t.Errorf("dataset info %+v", info)
	}
	for name, want := range map[string]string{"openapi": "/openapi.json", "transparency": "/transparency/", "changes": "/changes.json", "server_card": "/.well-known/mcp/server-card.json"} {
		if info.Links[name] != e.url+want {
			t.Errorf("link %s = %q", name, info.Links[name])
		}
	}
	if text := strings.Join(textOf(res), "\n"); !strings.Contains(text, "Dataset "+datatest.Current+": 39402 routes") {
		t.Errorf("text %s", text)
	}
	// Free and counted against nothing: far beyond the anonymous quota.
	for i := 0; i < 8; i++ {
		if res := callTool(t, cs, "get_dataset_info", map[string]any{}); res.IsError {
			t.Fatalf("call %d: %v", i+2, textOf(res))
		}
	}
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("free quota after dataset calls: remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
	if b := toolError(t, callTool(t, cs, "get_dataset_info", map[string]any{"verbose": true})); b.Error != "invalid_parameters" {
		t.Errorf("argument to get_dataset_info: %+v", b)
	}
}

// paymentRequired is the x402 PaymentRequired object.
type paymentRequired struct {
	X402Version int    `json:"x402Version"`
	Error       string `json:"error"`
	Resource    struct {
		URL string `json:"url"`
	} `json:"resource"`
	Accepts []struct {
		Scheme, Network, Amount, Asset, PayTo string
		MaxTimeoutSeconds                     int
	} `json:"accepts"`
}

func TestMCPEvaluateTripAsksForPayment(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolDiscover)
	trip, err := os.ReadFile("../evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	offerOf := func(res *mcp.CallToolResult) paymentRequired {
		t.Helper()
		if !res.IsError {
			t.Fatalf("want the payment-required tool error, got %v", textOf(res))
		}
		var offer paymentRequired
		structured(t, res, &offer)
		// x402 MCP transport: content[0].text is the same PaymentRequired as JSON.
		text := textOf(res)
		var fromText, fromStructured any
		b, _ := json.Marshal(res.StructuredContent)
		if len(text) == 0 || json.Unmarshal([]byte(text[0]), &fromText) != nil || json.Unmarshal(b, &fromStructured) != nil || !jsonEqual(fromText, fromStructured) {
			t.Errorf("content[0].text is not the structured PaymentRequired: %v", text)
		}
		return offer
	}
	for i := 0; i < 7; i++ { // paid tools are never rate limited
		offer := offerOf(callTool(t, cs, "evaluate_trip", json.RawMessage(trip)))
		a := offer.Accepts
		if offer.X402Version != 2 || len(a) != 1 || a[0].Scheme != "exact" || a[0].Network != "eip155:8453" || a[0].Amount != "100000" ||
			a[0].Asset != "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" || a[0].PayTo != payTo || a[0].MaxTimeoutSeconds <= 0 ||
			offer.Resource.URL != "mcp://"+strings.TrimPrefix(e.url, "http://")+"/tools/evaluate_trip" || !strings.Contains(offer.Error, `_meta["x402/payment"]`) {
			t.Fatalf("offer %+v", offer)
		}
	}
	// A payment in _meta["x402/payment"] goes to the payment gate, which
	// refuses it while verification is off, and says so.
	payment := mcp.Meta{"x402/payment": map[string]any{
		"x402Version": 2,
		"accepted":    map[string]any{"scheme": "exact", "network": "eip155:8453", "amount": "100000", "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "payTo": payTo, "maxTimeoutSeconds": 120},
		"payload":     map[string]any{"signature": "0x00"},
	}}
	res := callTool(t, cs, "evaluate_trip", json.RawMessage(trip), payment)
	if offer := offerOf(res); !strings.Contains(offer.Error, "payment verification is not enabled") || offer.Accepts[0].Amount != "100000" {
		t.Errorf("unverifiable payment: %+v", offer)
	}
	if _, ok := res.Meta["x402/payment-response"]; ok {
		t.Errorf("a refused payment carries a settlement response: %v", res.Meta)
	}
	if offer := offerOf(callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{"x402/payment": "e30="})); !strings.Contains(offer.Error, "PaymentPayload object") {
		t.Errorf("malformed payment: %+v", offer)
	}
	// Paid calls used none of the free quota.
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("free quota after paid calls: remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
	// Without a payment address the tool says so.
	off := start(t, "", func(c *config.Config) { c.PayTo = "" })
	if b := toolError(t, callTool(t, off.connectMCP(nil, protocolDiscover), "evaluate_trip", json.RawMessage(trip))); b.Error != "payments_not_configured" {
		t.Errorf("payments off: %+v", b)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestMCPInvalidInput(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolInitialize)
	problemsOf := func(res *mcp.CallToolResult) map[string]entrycheck.Problem {
		t.Helper()
		b := toolError(t, res)
		if b.Error != "invalid_parameters" {
			t.Fatalf("error %+v", b)
		}
		m := map[string]entrycheck.Problem{}
		text := strings.Join(textOf(res), "\n")
		for _, p := range b.Problems {
			m[p.Field] = p
			if !strings.Contains(text, p.Field+" ("+p.Code+")") {
				t.Errorf("text does not name problem %s (%s): %s", p.Field, p.Code, text)
			}
		}
		return m
	}
	// A mistyped country is refused with suggestions, as on /free/check.
	res := callTool(t, cs, "check_entry_requirements", checkArgs("GER", "THA"))
	p := problemsOf(res)["passport"]
	if p.Code != entrycheck.ProblemUnknownCode || len(p.Suggestions) == 0 || p.Suggestions[0].ISO3 != "DEU" || !strings.Contains(strings.Join(textOf(res), ""), "DEU (Germany)") {
		t.Errorf("GER: %+v", p)
	}
	// Every problem at once: unknown argument, wrong types, bad values.
	ps := problemsOf(callTool(t, cs, "check_entry_requirements", map[string]any{
		"pasport": "DEU", "destination": 7, "purpose": "leisure", "visas_of": "USA", "residence_permits_of": []string{"XXX"},
	}))
	for field, code := range map[string]string{"pasport": "unknown_parameter", "destination": "wrong_type", "purpose": "unsupported_purpose",
		"visas_of": "wrong_type", "residence_permits_of": "unknown_country_code", "passport": "missing"} {
		if ps[field].Code != code {
			t.Errorf("%s: %+v, want code %s", field, ps[field], code)
		}
	}
	// A trip with problems is refused with each JSON pointer, before any payment.
	for _, c := range []struct {
		body   string
		fields []string
	}{
		{`{"traveler":{"passports":["GER"]},"trip":{"legs":[{"country":"THA","arrival":"2027-13-01"}]}}`, []string{"/traveler/passports/0", "/trip/legs/0/arrival"}},
		{`{"traveler":{"passports":["DEU"]},"trip":{"legs":[{"country":"THA","arrival":"2027-05-10","departure":"2027-05-01"}],"extra":1}}`, []string{"/trip/extra"}},
		{`{"traveler":{"passports":["DEU"]},"trip":{"legs":[{"country":"THA","arrival":"2027-05-10","departure":"2027-05-01"}]}}`, []string{"/trip/legs/0/departure"}},
	} {
		res := callTool(t, cs, "evaluate_trip", json.RawMessage(c.body))
		var offer paymentRequired
		structured(t, res, &offer)
		if offer.X402Version != 0 {
			t.Errorf("invalid trip %s was offered for payment", c.body)
			continue
		}
		ps := problemsOf(res)
		for _, f := range c.fields {
			if _, ok := ps[f]; !ok {
				t.Errorf("trip %s: problems %v lack %s", c.body, ps, f)
			}
		}
	}
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("invalid calls used quota: remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
}

// rawMCP posts one JSON-RPC message to /mcp as a client would.
func rawMCP(t *testing.T, e *env, body string, header ...string) response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", protocolInitialize)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp, b}
}

func TestMCPEndpointHTTP(t *testing.T) {
	e := start(t, "")
	// Plain JSON answers, with the headers every answer carries.
	r := rawMCP(t, e, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "X-Request-Id", "mcp-test-0001")
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") ||
		r.Header.Get("X-Request-Id") != "mcp-test-0001" || r.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(r.Header.Get("Cache-Control"), "no-") {
		t.Errorf("tools/list: %d %v", r.StatusCode, r.Header)
	}
	if !strings.Contains(string(r.body), `"check_entry_requirements"`) {
		t.Errorf("tools/list body %.300s", r.body)
	}
	// The request id of the HTTP request is the answer's.
	r = rawMCP(t, e, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_entry_requirements","arguments":{"passport":"DEU","destination":"THA"}}}`, "X-Request-Id", "mcp-test-0002")
	if !strings.Contains(string(r.body), `"request_id":"mcp-test-0002"`) {
		t.Errorf("tools/call does not carry the request id: %.300s", r.body)
	}
	// Bodies are bounded at 64 KiB.
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"evaluate_trip","arguments":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}}`
	if r := rawMCP(t, e, big); r.StatusCode != http.StatusRequestEntityTooLarge || r.json(t)["error"] != "payload_too_large" {
		t.Errorf("oversized request: %d %s", r.StatusCode, r.body)
	}
	// A stateless server has no stream to GET and no session to DELETE.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, e.url+"/mcp", nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST, OPTIONS" || !strings.Contains(string(b), `"error":"method_not_allowed"`) {
			t.Errorf("%s /mcp: %d, Allow %q, %s", method, resp.StatusCode, resp.Header.Get("Allow"), b)
		}
	}
	// Browser MCP clients on other sites: the preflight, and CORS headers
	// on the answers, the authentication challenge readable.
	req, _ := http.NewRequest(http.MethodOptions, e.url+"/mcp", nil)
	req.Header.Set("Origin", "https://agent.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, mcp-protocol-version")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h := resp.Header; resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Mcp-Protocol-Version") {
		t.Errorf("preflight: %d %v", resp.StatusCode, h)
	}
	r = rawMCP(t, e, `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`, "Origin", "https://agent.example")
	if r.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("CORS on an answer: %v", r.Header)
	}
	// DNS rebinding: a foreign Host on the loopback listener is refused; the
	// configured public host is not.
	if r := rawMCP(t, e, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, "Host", "evil.example"); r.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d", r.StatusCode)
	}
	pub := start(t, "", func(c *config.Config) { c.BaseURL = "https://entrycheck.example" })
	if r := rawMCP(t, pub, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, "Host", "entrycheck.example"); r.StatusCode != http.StatusOK {
		t.Errorf("the public host behind a local proxy: %d %s", r.StatusCode, r.body)
	}
}

// acceptingGate is a payment gate that accepts any payload for the offered
// amount and settles it, or fails the settlement; it stands in for the
// x402 facilitator to show that one gate serves HTTP and MCP alike.
type acceptingGate struct {
	failSettle bool
	mu         sync.Mutex
	authorized []x402.PaymentPayload
}

func (g *acceptingGate) Authorize(_ context.Context, p x402.PaymentPayload, offer x402.PaymentRequired) (*payment.Payment, string) {
	if p.Accepted.Amount != offer.Accepts[0].Amount || p.Accepted.PayTo != offer.Accepts[0].PayTo {
		return nil, "the payment does not match the offer"
	}
	g.mu.Lock()
	g.authorized = append(g.authorized, p)
	g.mu.Unlock()
	return &payment.Payment{Payload: p, Accepted: offer.Accepts[0], Payer: "0x857b06519E91e3A54538791bDbb0E22373e36b66"}, ""
}

func (g *acceptingGate) Settle(_ context.Context, p *payment.Payment) (x402.SettlementResponse, error) {
	if g.failSettle {
		return x402.SettlementResponse{Success: false, ErrorReason: "insufficient_funds", Network: x402.NetworkBase, Payer: p.Payer}, nil
	}
	return x402.SettlementResponse{Success: true, Transaction: "0x1234", Network: x402.NetworkBase, Payer: p.Payer, Amount: p.Accepted.Amount}, nil
}

// startWithGate runs the service with a payment gate, on a fresh SQLite file.
func startWithGate(t *testing.T, gate payment.Gate) *env {
	t.Helper()
	return startGate(t, t, "", gate)
}

func TestMCPEvaluateTripPaid(t *testing.T) {
	gate := &acceptingGate{}
	e := startWithGate(t, gate)
	cs := e.connectMCP(nil, protocolDiscover)
	trip, err := os.ReadFile("../evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	payload := x402.PaymentPayload{
		X402Version: x402.Version,
		Accepted:    x402.ExactUSDC("100000", payTo, 120),
		Payload:     json.RawMessage(`{"signature":"0x2d6a","authorization":{"value":"100000"}}`),
	}
	res := callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{"x402/payment": payload})
	if res.IsError {
		t.Fatalf("paid call: %v", textOf(res))
	}
	var r entrycheck.TripResult
	structured(t, res, &r)
	if len(r.Legs) != 3 || r.Summary.Status == "" || r.DatasetVersion != datatest.Current {
		t.Errorf("trip result %+v", r.Summary)
	}
	conforms(t, e.tools(cs)["evaluate_trip"], res)
	receipt, _ := res.Meta["x402/payment-response"].(map[string]any)
	if receipt["success"] != true || receipt["transaction"] != "0x1234" || receipt["network"] != "eip155:8453" {
		t.Errorf("_meta[x402/payment-response] %v", res.Meta)
	}
	if text := strings.Join(textOf(res), "\n"); !strings.Contains(text, "Leg 1, France (FRA)") || !strings.Contains(text, entrycheck.Disclaimer(entrycheck.English())) {
		t.Errorf("text %s", text)
	}
	// The same gate serves the HTTP endpoint: a later x402 implementation fills both.
	header, _ := x402.Encode(payload)
	if r := e.post("/v1/trips/evaluate", "application/json", trip, "PAYMENT-SIGNATURE", header); r.StatusCode != http.StatusOK || r.Header.Get("PAYMENT-RESPONSE") == "" || len(gate.authorized) != 2 {
		t.Errorf("HTTP paid trip: %d, %d payments authorized", r.StatusCode, len(gate.authorized))
	}
	if stats := e.get("/stats.json").json(t); stats["paid_calls_today"] != float64(2) {
		t.Errorf("stats %v", stats)
	}
	// A payment for another amount is refused with the offer.
	wrong := payload
	wrong.Accepted.Amount = "1"
	if res := callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{"x402/payment": wrong}); !res.IsError || !strings.Contains(textOf(res)[0], "does not match the offer") {
		t.Errorf("wrong amount: %v", textOf(res))
	}
	// A failed settlement serves nothing and returns the offer with the receipt.
	failing := startWithGate(t, &acceptingGate{failSettle: true})
	res = callTool(t, failing.connectMCP(nil, protocolInitialize), "evaluate_trip", json.RawMessage(trip), mcp.Meta{"x402/payment": payload})
	var offer paymentRequired
	structured(t, res, &offer)
	receipt, _ = res.Meta["x402/payment-response"].(map[string]any)
	if !res.IsError || offer.X402Version != 2 || !strings.Contains(offer.Error, "insufficient_funds") || receipt["success"] != false {
		t.Errorf("failed settlement: %v, _meta %v", textOf(res), res.Meta)
	}
}

// at follows keys into decoded JSON; nil where one is missing.
func at(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

// TestMCPJSONRPCErrors: malformed JSON gets a JSON-RPC parse error and an
// unknown method a method-not-found error with the request's id, both as
// JSON-RPC responses rather than plain text.
func TestMCPJSONRPCErrors(t *testing.T) {
	e := start(t, "")
	for _, c := range []struct {
		body   string
		status int
		code   float64
		id     any
	}{
		{`{not json`, http.StatusBadRequest, -32700, nil},
		{`{"jsonrpc":"2.0","id":7,"method":"nope/nope"}`, http.StatusOK, -32601, float64(7)},
		// No method: no request, notification or response, so no 202.
		{`{"jsonrpc":"2.0","id":1}`, http.StatusBadRequest, -32600, float64(1)},
		{`{"jsonrpc":"2.0","id":2,"method":""}`, http.StatusBadRequest, -32600, float64(2)},
	} {
		r := rawMCP(t, e, c.body)
		var m map[string]any
		if err := json.Unmarshal(r.body, &m); err != nil || r.StatusCode != c.status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d %q %s", c.body, r.StatusCode, r.Header.Get("Content-Type"), r.body)
			continue
		}
		if m["jsonrpc"] != "2.0" || m["id"] != c.id || at(m, "error", "code") != c.code || at(m, "error", "message") == "" {
			t.Errorf("%s: %s", c.body, r.body)
		}
	}
	// A known method still works through the wrapper.
	r := rawMCP(t, e, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if r.StatusCode != http.StatusOK || !strings.Contains(string(r.body), "check_entry_requirements") {
		t.Errorf("tools/list: %d %s", r.StatusCode, r.body)
	}
}

// TestMCPSamePaymentAgain: a tool call sent again with the payment that
// was settled for it (the client lost the answer) is answered again with
// the same receipt and charged once; the REST route, another resource,
// refuses that payment as a replay.
func TestMCPSamePaymentAgain(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	cs := e.connectMCP(nil, protocolDiscover)
	trip, err := os.ReadFile("../evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	var offer x402.PaymentRequired
	structured(t, callTool(t, cs, "evaluate_trip", json.RawMessage(trip)), &offer)
	if len(offer.Accepts) != 1 {
		t.Fatalf("offer %+v", offer)
	}
	key := mustKey(t)
	payload := newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key)
	var receipts []any
	for range 2 {
		res := callTool(t, cs, "evaluate_trip", json.RawMessage(trip), mcp.Meta{"x402/payment": payload})
		if res.IsError {
			t.Fatalf("paid call: %v", textOf(res))
		}
		receipts = append(receipts, res.Meta["x402/payment-response"])
	}
	if !jsonEqual(receipts[0], receipts[1]) || at(receipts[0], "success") != true {
		t.Errorf("receipts %v, want the same settlement twice", receipts)
	}
	if stats := e.get("/stats.json").json(t); stats["paid_calls_today"] != float64(1) {
		t.Errorf("paid_calls_today %v, want 1", stats["paid_calls_today"])
	}
	checkRefused(t, e.post("/v1/trips/evaluate", "application/json", trip, x402.HeaderPaymentSignature, header(t, payload)), "nonce_already_used")
}
