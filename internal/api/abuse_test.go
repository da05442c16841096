package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// from is an HTTP client whose connections leave from the loopback address
// ip (any of 127.0.0.0/8 on Linux), so that the server sees a distinct
// client address without trusting any header.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
}

// registerFrom registers a client from c: its credentials, or the refusal.
func (e *env) registerFrom(c *http.Client) (id, secret string, refusal response) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.url+"/oauth/register", strings.NewReader(`{"client_name": "abuse test"}`))
	req.Header.Set("Content-Type", "application/json")
	r := e.doWith(c, req)
	if r.StatusCode != http.StatusCreated {
		return "", "", r
	}
	m := r.json(e.t)
	return m["client_id"].(string), m["client_secret"].(string), r
}

// tokenFor asks for an access token with client credentials.
func (e *env) tokenFor(c *http.Client, id, secret string) response {
	e.t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}}
	req, _ := http.NewRequest(http.MethodPost, e.url+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	return e.doWith(c, req)
}

func accessToken(t *testing.T, r response) string {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("token: %d %s", r.StatusCode, r.body)
	}
	return r.json(t)["access_token"].(string)
}

// scopeOf is the exhausted cap a 429 names.
func scopeOf(t *testing.T, r response) string {
	t.Helper()
	if r.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("want 429, got %d %s", r.StatusCode, r.body)
	}
	var b struct {
		Scope string `json:"scope"`
	}
	if err := json.Unmarshal(r.body, &b); err != nil || r.Header.Get("Retry-After") == "" {
		t.Fatalf("429 without scope or Retry-After: %s", r.body)
	}
	return b.Scope
}

// TestNetworkShareBoundsRegisteredClients: 20 addresses of one /24 register
// as many clients as they may and spend every free check they can get,
// registered and anonymous. The network gets no more than its configured
// share: registrations stop at the network's registration cap, registered
// checks at the network's cap for registered clients, anonymous checks at
// the network cap.
func TestNetworkShareBoundsRegisteredClients(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			q := e.cfg.Quotas
			type client struct{ id, secret string }
			var clients []client
			var hosts []*http.Client
			for i := 1; i <= 20; i++ {
				hosts = append(hosts, from(fmt.Sprintf("127.9.9.%d", i)))
			}
			refusals := map[string]int{}
			for _, h := range hosts {
				for j := 0; j < q.Registrations; j++ {
					id, secret, r := e.registerFrom(h)
					if id == "" {
						refusals[scopeOf(t, r)]++
						continue
					}
					clients = append(clients, client{id, secret})
				}
			}
			if len(clients) != q.RegistrationsNetwork || refusals["registrations_network_daily"] != 20*q.Registrations-q.RegistrationsNetwork {
				t.Errorf("%d clients registered from one /24, refusals %v; want %d (the network's registration cap)", len(clients), refusals, q.RegistrationsNetwork)
			}

			registered, anonymous := 0, 0
			refusals = map[string]int{}
			for i, c := range clients {
				h := hosts[i%len(hosts)]
				bearer := "Bearer " + accessToken(t, e.tokenFor(h, c.id, c.secret))
				for k := 0; k < q.Client; k++ {
					req, _ := http.NewRequest(http.MethodGet, e.url+"/free/check?passport=DEU&destination=THA", nil)
					req.Header.Set("Authorization", bearer)
					if r := e.doWith(h, req); r.StatusCode == http.StatusOK {
						registered++
					} else {
						refusals[scopeOf(t, r)]++
					}
				}
			}
			for _, h := range hosts {
				for k := 0; k < q.Anonymous; k++ {
					req, _ := http.NewRequest(http.MethodGet, e.url+"/free/check?passport=DEU&destination=THA", nil)
					if r := e.doWith(h, req); r.StatusCode == http.StatusOK {
						anonymous++
					} else {
						refusals[scopeOf(t, r)]++
					}
				}
			}
			want := min(q.NetworkClients, len(clients)*q.Client)
			if registered != want || anonymous != q.Network {
				t.Errorf("one /24 got %d registered and %d anonymous checks (refusals %v); want %d and %d", registered, anonymous, refusals, want, q.Network)
			}
			t.Logf("one /24 of 20 addresses: %d clients, %d registered and %d anonymous checks; refusals %v", len(clients), registered, anonymous, refusals)
		})
	}
}

// TestTokenMintingIsBounded: a client asking for tokens in a loop gets 429
// after its daily limit, in RFC 6749's error shape, and holds no more than
// the live-token bound at any time: a new token revokes the oldest.
func TestTokenMintingIsBounded(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			id, secret := e.register("token loop")
			c := http.DefaultClient
			var tokens []string
			for range e.cfg.Quotas.Tokens {
				tokens = append(tokens, accessToken(t, e.tokenFor(c, id, secret)))
			}
			r := e.tokenFor(c, id, secret)
			if scopeOf(t, r) != "tokens_client_daily" {
				t.Errorf("token %d: %s", e.cfg.Quotas.Tokens+1, r.body)
			}
			if m := r.json(t); m["error"] != "rate_limited" || m["error_description"] == "" {
				t.Errorf("429 body %v", m)
			}
			live, err := e.store.LiveTokens(context.Background(), id, e.clock.Now())
			if err != nil || live != 5 {
				t.Errorf("%d live tokens (%v), want 5", live, err)
			}
			// The newest tokens work; the first was revoked.
			for _, tc := range []struct {
				token string
				want  int
			}{{tokens[len(tokens)-1], http.StatusOK}, {tokens[0], http.StatusUnauthorized}} {
				if r := e.get("/free/check?passport=DEU&destination=THA", "Authorization", "Bearer "+tc.token); r.StatusCode != tc.want {
					t.Errorf("token %.12s...: %d, want %d", tc.token, r.StatusCode, tc.want)
				}
			}
		})
	}
}

// TestDatabaseOutageIs503: with the database gone, every endpoint that
// needs it answers 503 with Retry-After and a JSON body that names no
// database detail, the OAuth endpoints in RFC 6749's shape; nothing
// answers 500 or 402.
func TestDatabaseOutageIs503(t *testing.T) {
	e := start(t, "")
	id, secret := e.register("outage")
	bearer := "Bearer " + accessToken(t, e.tokenFor(http.DefaultClient, id, secret))
	e.store.Close()
	form := "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		name string
		do   func() response
		code string
	}{
		{"anonymous free check", func() response { return e.get("/free/check?passport=DEU&destination=THA") }, "service_unavailable"},
		{"registered free check", func() response {
			return e.get("/free/check?passport=DEU&destination=THA", "Authorization", bearer)
		}, "service_unavailable"},
		{"registration", func() response {
			return e.post("/oauth/register", "application/json", []byte(`{"client_name": "x"}`))
		}, "temporarily_unavailable"},
		{"token", func() response {
			return e.post("/oauth/token", form, []byte("grant_type=client_credentials&client_id="+id+"&client_secret="+secret))
		}, "temporarily_unavailable"},
		{"stats", func() response { return e.get("/stats.json") }, "service_unavailable"},
	} {
		r := tc.do()
		var body map[string]any
		_ = json.Unmarshal(r.body, &body)
		lower := strings.ToLower(string(r.body))
		if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || body["error"] != tc.code ||
			strings.Contains(lower, "sql") || strings.Contains(lower, "closed") || strings.Contains(lower, ".db") {
			t.Errorf("%s: %d, Retry-After %q, body %s", tc.name, r.StatusCode, r.Header.Get("Retry-After"), r.body)
		}
	}
}
