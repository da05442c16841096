package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// register creates a client and returns its id and secret.
func (e *env) register(name string) (string, string) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"client_name": name})
	r := e.post("/oauth/register", "application/json", body)
	if r.StatusCode != http.StatusCreated {
		e.t.Fatalf("register: %d %s", r.StatusCode, r.body)
	}
	m := r.json(e.t)
	return m["client_id"].(string), m["client_secret"].(string)
}

// validating is an http.Client whose exchanges are checked against openapi.json.
func (e *env) validating() *http.Client {
	return &http.Client{Transport: validatingTransport{e}}
}

type validatingTransport struct{ e *env }

func (v validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil && req.GetBody != nil {
		rc, _ := req.GetBody()
		reqBody = readAll(rc)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body := readAll(resp.Body)
	v.e.validate(req, reqBody, resp, body)
	resp.Body = nopCloser(body)
	return resp, nil
}

func TestOAuthClientCredentialsFlow(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			id, secret := e.register("test agent")
			if !strings.HasPrefix(id, "ecc_") || !strings.HasPrefix(secret, "ecs_") {
				t.Fatalf("credentials %q %q", id, secret)
			}
			ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.validating())
			for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
				cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: e.url + "/oauth/token", AuthStyle: style}
				tok, err := cc.Token(ctx)
				if err != nil {
					t.Fatalf("token (auth style %d): %v", style, err)
				}
				if tok.TokenType != "Bearer" || !strings.HasPrefix(tok.AccessToken, "ect_") || time.Until(tok.Expiry) < 50*time.Minute {
					t.Errorf("token %+v", tok)
				}
			}
			cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: e.url + "/oauth/token"}
			client := cc.Client(ctx)
			rs := parallel(200, func(int) response {
				req, _ := http.NewRequest(http.MethodGet, e.url+"/free/check?passport=DEU&destination=THA", nil)
				return e.doWith(client, req)
			})
			counts := countStatus(rs)
			if counts[http.StatusOK] != 20 || counts[http.StatusTooManyRequests] != 180 {
				t.Fatalf("registered client: %v, want exactly 20 OK", counts)
			}
			for _, r := range rs {
				if r.StatusCode == http.StatusOK && r.Header.Get("X-RateLimit-Limit") != "20" {
					t.Errorf("X-RateLimit-Limit %q, want 20", r.Header.Get("X-RateLimit-Limit"))
				}
				if r.StatusCode == http.StatusTooManyRequests && r.json(t)["scope"] != "client_daily" {
					t.Errorf("scope %v, want client_daily", r.json(t)["scope"])
				}
			}
			// The registered client did not use the address's anonymous quota.
			if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusOK {
				t.Errorf("anonymous check after the client's: %d", r.StatusCode)
			}
		})
	}
}

func TestRegistrationLimit(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			rs := parallel(12, func(int) response {
				return e.post("/oauth/register", "application/json", []byte(`{"client_name":"agent"}`))
			})
			c := countStatus(rs)
			if c[http.StatusCreated] != 3 || c[http.StatusTooManyRequests] != 9 {
				t.Fatalf("registrations: %v, want exactly 3 created", c)
			}
			for _, r := range rs {
				if r.StatusCode == http.StatusTooManyRequests && r.json(t)["scope"] != "registrations_ip_daily" {
					t.Errorf("scope %v", r.json(t)["scope"])
				}
			}
		})
	}
}

func TestOAuthErrors(t *testing.T) {
	e := start(t, "")
	id, secret := e.register("agent")
	form := func(v url.Values) []byte { return []byte(v.Encode()) }
	const formType = "application/x-www-form-urlencoded"
	cases := []struct {
		name, path, ctype string
		body              []byte
		header            []string
		status            int
		code              string
	}{
		{"registration not JSON", "/oauth/register", "text/plain", []byte("x"), nil, 415, "invalid_client_metadata"},
		{"registration without name", "/oauth/register", "application/json", []byte(`{}`), nil, 400, "invalid_client_metadata"},
		{"registration bad JSON", "/oauth/register", "application/json", []byte(`{"client_name":`), nil, 400, "invalid_client_metadata"},
		{"registration bad grant", "/oauth/register", "application/json", []byte(`{"client_name":"a","grant_types":["authorization_code"]}`), nil, 400, "invalid_client_metadata"},
		{"registration too large", "/oauth/register", "application/json", []byte(`{"client_name":"` + strings.Repeat("a", 5000) + `"}`), nil, 413, "invalid_client_metadata"},
		{"token without grant", "/oauth/token", formType, form(url.Values{"client_id": {id}, "client_secret": {secret}}), nil, 400, "invalid_request"},
		{"token wrong grant", "/oauth/token", formType, form(url.Values{"grant_type": {"password"}}), nil, 400, "unsupported_grant_type"},
		{"token wrong secret", "/oauth/token", formType, form(url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {"ecs_wrong"}}), nil, 401, "invalid_client"},
		{"token unknown client", "/oauth/token", formType, form(url.Values{"grant_type": {"client_credentials"}, "client_id": {"ecc_nobody"}, "client_secret": {secret}}), nil, 401, "invalid_client"},
		{"token no credentials", "/oauth/token", formType, form(url.Values{"grant_type": {"client_credentials"}}), nil, 401, "invalid_client"},
		{"token with scope", "/oauth/token", formType, form(url.Values{"grant_type": {"client_credentials"}, "scope": {"admin"}}), nil, 400, "invalid_scope"},
		{"token as JSON", "/oauth/token", "application/json", []byte(`{"grant_type":"client_credentials"}`), nil, 400, "invalid_request"},
	}
	for _, c := range cases {
		r := e.post(c.path, c.ctype, c.body, c.header...)
		if r.StatusCode != c.status || r.json(t)["error"] != c.code || r.json(t)["error_description"] == "" {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.StatusCode, r.body, c.status, c.code)
		}
	}
	// Wrong Basic credentials are answered with a Basic challenge.
	req, _ := http.NewRequest(http.MethodPost, e.url+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", formType)
	req.SetBasicAuth(id, "ecs_wrong")
	if r := e.do(req); r.StatusCode != 401 || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Basic") {
		t.Errorf("wrong Basic credentials: %d %v", r.StatusCode, r.Header)
	}
}

func TestInvalidAndExpiredTokens(t *testing.T) {
	e := start(t, "")
	id, secret := e.register("agent")
	cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: e.url + "/oauth/token"}
	tok, err := cc.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check := func(auth string) response {
		return e.get("/free/check?passport=DEU&destination=THA", "Authorization", auth)
	}
	if r := check("Bearer " + tok.AccessToken); r.StatusCode != http.StatusOK || r.Header.Get("X-RateLimit-Limit") != "20" {
		t.Fatalf("valid token: %d", r.StatusCode)
	}
	want := `resource_metadata="` + e.url + `/.well-known/oauth-protected-resource"`
	for _, auth := range []string{"Bearer ect_nope_nope", "Bearer garbage", "Bearer " + tok.AccessToken + "x", "Basic abc"} {
		r := check(auth)
		// RFC 6750: a scheme other than Bearer is an invalid request, a bad
		// token an invalid token; the body says the same as the header.
		code := "invalid_token"
		if !strings.HasPrefix(auth, "Bearer ") {
			code = "invalid_request"
		}
		if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), want) ||
			!strings.Contains(r.Header.Get("WWW-Authenticate"), `error="`+code+`"`) || r.json(t)["error"] != code {
			t.Errorf("%q: %d %q", auth, r.StatusCode, r.Header.Get("WWW-Authenticate"))
		}
	}
	e.clock.Advance(61 * time.Minute)
	if r := check("Bearer " + tok.AccessToken); r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), "expired") {
		t.Errorf("expired token: %d %v", r.StatusCode, r.Header)
	}
	// After 90 days the registration itself is gone.
	e.clock.Advance(90 * 24 * time.Hour)
	if _, err := cc.Token(context.Background()); err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Errorf("token after the registration expired: %v", err)
	}
}

// TestRegistrationCutShort: a body that ends before its Content-Length is
// a 400 that says so, not the oversize error.
func TestRegistrationCutShort(t *testing.T) {
	e := start(t, "")
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /oauth/register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"client_name\":", strings.TrimPrefix(e.url, "http://"))
	conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if json.NewDecoder(resp.Body).Decode(&body) != nil || resp.StatusCode != http.StatusBadRequest || !strings.Contains(body.ErrorDescription, "could not be read") {
		t.Errorf("%d %+v", resp.StatusCode, body)
	}
}

// TestOAuthRepeatedParameters: a parameter sent twice is refused even when
// both values would be accepted (RFC 6749 section 3.1), in the body or the
// query of the token request, and a registration member named twice too.
func TestOAuthRepeatedParameters(t *testing.T) {
	e := start(t, "")
	id, secret := e.register("agent")
	const formType = "application/x-www-form-urlencoded"
	creds := "&client_id=" + id + "&client_secret=" + secret
	for _, c := range []struct{ path, body, repeated string }{
		{"/oauth/token", "grant_type=client_credentials&grant_type=client_credentials" + creds, "grant_type"},
		{"/oauth/token", "grant_type=client_credentials" + creds + "&client_id=" + id, "client_id"},
		{"/oauth/token?grant_type=client_credentials", "grant_type=client_credentials" + creds, "grant_type"},
	} {
		r := e.post(c.path, formType, []byte(c.body))
		desc, _ := r.json(t)["error_description"].(string)
		if r.StatusCode != http.StatusBadRequest || r.json(t)["error"] != "invalid_request" || !strings.Contains(desc, c.repeated) {
			t.Errorf("%s %s: %d %s, want 400 invalid_request naming %s", c.path, c.body, r.StatusCode, r.body, c.repeated)
		}
	}
	r := e.post("/oauth/register", "application/json", []byte(`{"client_name":"a","client_name":"b"}`))
	if desc, _ := r.json(t)["error_description"].(string); r.StatusCode != http.StatusBadRequest || r.json(t)["error"] != "invalid_client_metadata" || !strings.Contains(desc, "client_name") {
		t.Errorf("registration with client_name twice: %d %s", r.StatusCode, r.body)
	}
	// Each parameter once is still served.
	if r := e.post("/oauth/token", formType, []byte("grant_type=client_credentials"+creds)); r.StatusCode != http.StatusOK {
		t.Errorf("a well-formed token request: %d %s", r.StatusCode, r.body)
	}
}
