package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	apiresponse "github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// quotaCaller is who makes a counted call: the headers that name its
// address to a server behind a trusted proxy, and the registered client it
// calls as (none when id is empty).
type quotaCaller struct {
	header     []string
	id, secret string
}

// tokenForm is the body of a token request for the caller's client.
func (c quotaCaller) tokenForm() []byte {
	return []byte("grant_type=client_credentials&client_id=" + c.id + "&client_secret=" + c.secret)
}

// withBearer are the caller's headers, with an access token of its client
// when it has one.
func (c quotaCaller) withBearer(e *env) []string {
	if c.id == "" {
		return c.header
	}
	r := e.post(discovery.PathToken, "application/x-www-form-urlencoded", c.tokenForm(), c.header...)
	return append(c.header[:len(c.header):len(c.header)], "Authorization", "Bearer "+accessToken(e.t, r))
}

// routeCalls make one valid call of each route that counts against a
// quota (discovery.Route.Quota), by "METHOD path", as a caller; a token
// request by a caller without a client registers one first.
func routeCalls() map[string]func(*env, quotaCaller) response {
	return map[string]func(*env, quotaCaller) response{
		"GET " + discovery.PathFreeCheck: func(e *env, c quotaCaller) response {
			return e.get(discovery.PathFreeCheck+"?passport=DEU&destination=THA", c.withBearer(e)...)
		},
		"POST " + discovery.PathRegister: func(e *env, c quotaCaller) response {
			return e.post(discovery.PathRegister, "application/json", []byte(`{"client_name":"quota test"}`), c.header...)
		},
		"POST " + discovery.PathToken: func(e *env, c quotaCaller) response {
			if c.id == "" {
				c.id, c.secret = e.register("quota test")
			}
			return e.post(discovery.PathToken, "application/x-www-form-urlencoded", c.tokenForm(), c.header...)
		},
	}
}

// quotaSurface is a surface whose calls count against the quotas of one
// scope; call makes one valid call and returns its refusal, nil when the
// call was served.
type quotaSurface struct {
	name   string
	counts config.QuotaScope
	call   func(*testing.T, *env, quotaCaller) *quota.RateLimited
}

// quotaSurfaces are the routes of discovery.Routes that count against a
// quota, and the free check tool of /mcp and skill of /a2a, which count
// checks as GET /free/check does.
func quotaSurfaces(t *testing.T) []quotaSurface {
	calls := routeCalls()
	var out []quotaSurface
	for _, rt := range discovery.Routes {
		if rt.Quota == "" {
			continue
		}
		call, ok := calls[rt.Method+" "+rt.Path]
		if !ok {
			t.Fatalf("%s %s counts against the %s quotas: give it a valid call in routeCalls", rt.Method, rt.Path, rt.Quota)
		}
		out = append(out, quotaSurface{rt.Method + " " + rt.Path, rt.Quota, func(t *testing.T, e *env, c quotaCaller) *quota.RateLimited {
			return httpRefusal(t, rt, call(e, c))
		}})
	}
	return append(out,
		quotaSurface{"MCP check_entry_requirements", config.CountsChecks, func(t *testing.T, e *env, c quotaCaller) *quota.RateLimited {
			hc := &http.Client{Transport: headerTransport(c.withBearer(e))}
			res := callTool(t, e.connectMCP(hc, protocolDiscover), "check_entry_requirements", checkArgs("DEU", "THA"))
			if !res.IsError {
				return nil
			}
			var b quota.RateLimited
			structured(t, res, &b)
			return &b
		}},
		quotaSurface{"A2A check", config.CountsChecks, func(t *testing.T, e *env, c quotaCaller) *quota.RateLimited {
			k := e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "DEU", "destination": "THA"}, header: c.withBearer(e)})
			if k.Status.State == "completed" {
				return nil
			}
			if k.Status.State != "failed" || len(k.Status.Message.Parts) != 2 {
				t.Fatalf("A2A check: %s %+v", k.Status.State, k.Status.Message.Parts)
			}
			var b quota.RateLimited
			if raw, err := json.Marshal(k.Status.Message.Parts[1].Data); err != nil || json.Unmarshal(raw, &b) != nil {
				t.Fatalf("A2A refusal %v is not a RateLimited body", k.Status.Message.Parts[1].Data)
			}
			return &b
		}},
	)
}

// httpRefusal is the refusal of route rt's answer r, which env.do has
// held to the API description: a 429 in the route's error shape,
// Retry-After and X-RateLimit-Reset agreeing with the body, and on the
// check routes the caller's X-RateLimit-Limit with nothing remaining; nil
// when r served the call.
func httpRefusal(t *testing.T, rt discovery.Route, r response) *quota.RateLimited {
	t.Helper()
	switch r.StatusCode {
	case http.StatusOK, http.StatusCreated:
		return nil
	case http.StatusTooManyRequests:
	default:
		t.Fatalf("%s %s: %d %s", rt.Method, rt.Path, r.StatusCode, r.body)
	}
	checkErrorBody(t, rt.Path, r.Response, r.body)
	var b quota.RateLimited
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatalf("%s %s: 429 body %s: %v", rt.Method, rt.Path, r.body, err)
	}
	h := r.Header
	if h.Get("Retry-After") != strconv.Itoa(b.RetryAfterSeconds) || h.Get("X-RateLimit-Reset") != strconv.FormatInt(b.ResetAt.Unix(), 10) {
		t.Errorf("%s %s: Retry-After %q, X-RateLimit-Reset %q; body says %d s, %s", rt.Method, rt.Path, h.Get("Retry-After"), h.Get("X-RateLimit-Reset"), b.RetryAfterSeconds, b.ResetAt)
	}
	if shapeOf(rt.Path) == oauthError && b.ErrorDescription != b.Message {
		t.Errorf("%s %s: error_description %q, message %q", rt.Method, rt.Path, b.ErrorDescription, b.Message)
	}
	if rt.Quota == config.CountsChecks && (h.Get("X-RateLimit-Limit") == "" || h.Get("X-RateLimit-Remaining") != "0") {
		t.Errorf("%s %s: X-RateLimit-Limit %q, X-RateLimit-Remaining %q", rt.Method, rt.Path, h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"))
	}
	return &b
}

// headerTransport sends its headers (name, value, ...) on every request.
type headerTransport []string

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for i := 0; i+1 < len(h); i += 2 {
		req.Header.Set(h[i], h[i+1])
	}
	return http.DefaultTransport.RoundTrip(req)
}

// clientUse is whether a scenario's calls come as registered clients.
type clientUse int

const (
	anonymous clientUse = iota
	oneClient
	clientPerCall
)

// quotaScenario makes one quota the one that refuses: scope is the bucket
// its 429 names, from the headers of the i-th call (the address the
// trusted proxy names), clients who calls.
type quotaScenario struct {
	scope   string
	from    func(i int) []string
	clients clientUse
}

// quotaScenarios are the scenarios of each quota of config.QuotaSettings,
// by name.
func quotaScenarios() map[string][]quotaScenario {
	oneAddress := func(int) []string { return []string{"X-Forwarded-For", "192.0.2.7"} }
	oneNetwork := func(i int) []string { return []string{"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1)} }
	manyNetworks := func(i int) []string { return []string{"X-Forwarded-For", fmt.Sprintf("10.%d.0.1", i+1)} }
	hidden := func(int) []string { return []string{"Forwarded", "for=unknown"} }
	return map[string][]quotaScenario{
		"anonymous":             {{quota.ScopeIP, oneAddress, anonymous}, {quota.ScopeUnknownClient, hidden, anonymous}},
		"client":                {{quota.ScopeClient, oneAddress, oneClient}},
		"registrations":         {{quota.ScopeRegistrations, oneAddress, anonymous}},
		"network":               {{quota.ScopeNetwork, oneNetwork, anonymous}},
		"global":                {{quota.ScopeGlobal, manyNetworks, anonymous}},
		"network_clients":       {{quota.ScopeNetworkClients, oneNetwork, clientPerCall}},
		"registrations_network": {{quota.ScopeRegistrationsNetwork, oneNetwork, anonymous}},
		"registrations_global":  {{quota.ScopeRegistrationsGlobal, manyNetworks, anonymous}},
		"tokens":                {{quota.ScopeTokens, oneAddress, oneClient}},
	}
}

// TestEveryQuotaRefusesOnEveryRouteItCounts: each quota of
// config.QuotaSettings on its own, small while the others are out of
// reach, refuses the call after its limit on every surface that counts
// its scope (discovery.Routes, and the MCP and A2A check), naming itself
// in the documented 429. A quota without the code that enforces it, or a
// surface that forgets to count, fails here.
func TestEveryQuotaRefusesOnEveryRouteItCounts(t *testing.T) {
	const limit = 2
	surfaces, scenarios := quotaSurfaces(t), quotaScenarios()
	if len(scenarios) != len(config.QuotaSettings) {
		t.Errorf("%d quota scenarios for %d quotas: one per quota of config.QuotaSettings", len(scenarios), len(config.QuotaSettings))
	}
	for _, q := range config.QuotaSettings {
		t.Run(q.Name, func(t *testing.T) {
			runs := scenarios[q.Name]
			if len(runs) == 0 {
				t.Fatalf("say in quotaScenarios who exhausts the %s quota and which scope its 429 names", q.Name)
			}
			e := start(t, "", func(c *config.Config) {
				c.TrustedProxies, _ = config.ParsePrefixes("127.0.0.1")
				for _, other := range config.QuotaSettings {
					*other.Of(&c.Quotas) = 1 << 20
				}
				*q.Of(&c.Quotas) = limit
			})
			counted := 0
			for _, s := range surfaces {
				if s.counts != q.Counts {
					continue
				}
				counted++
				for _, sc := range runs {
					// Each run on a day of its own: the quotas reset at midnight UTC.
					e.clock.Advance(24 * time.Hour)
					exhaust(t, e, s, sc, limit)
				}
			}
			if counted == 0 {
				t.Errorf("no surface counts the %s quotas", q.Counts)
			}
		})
	}
}

// exhaust makes limit calls on surface s, which it serves, and one more,
// which it must refuse naming the scenario's scope.
func exhaust(t *testing.T, e *env, s quotaSurface, sc quotaScenario, limit int) {
	t.Helper()
	_, reset := quota.Day(e.clock.Now())
	var c quotaCaller
	for i := range limit + 1 {
		c.header = sc.from(i)
		if sc.clients == clientPerCall || sc.clients == oneClient && i == 0 {
			c.id, c.secret = e.register("quota test")
		}
		b := s.call(t, e, c)
		switch {
		case i < limit && b != nil:
			t.Fatalf("%s, %s: call %d of %d refused: %+v", s.name, sc.scope, i+1, limit, *b)
		case i < limit:
		case b == nil:
			t.Errorf("%s: call %d served: the %s quota of %d does not refuse it", s.name, i+1, sc.scope, limit)
		case b.Error != apiresponse.CodeRateLimited || b.Scope != sc.scope || b.Limit != limit || !b.ResetAt.Equal(reset) ||
			b.RetryAfterSeconds <= 0 || b.RetryAfterSeconds > 86400 || len(b.Alternatives) == 0:
			t.Errorf("%s: refusal %+v, want %s %s, limit %d, reset at %s", s.name, *b, apiresponse.CodeRateLimited, sc.scope, limit, reset)
		}
	}
}
