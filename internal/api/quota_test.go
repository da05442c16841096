package api_test

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/config"
)

// storeDSNs are the databases the quota tests run on: SQLite always, and
// PostgreSQL when ENTRYCHECK_TEST_POSTGRES_URL is set (CI sets it; a CI run
// without it fails).
func storeDSNs(t *testing.T) map[string]string {
	dsns := map[string]string{"sqlite": ""}
	if url := os.Getenv("ENTRYCHECK_TEST_POSTGRES_URL"); url != "" {
		dsns["postgresql"] = url
	} else if os.Getenv("CI") != "" {
		t.Fatal("CI must set ENTRYCHECK_TEST_POSTGRES_URL so the quota tests run on PostgreSQL too")
	}
	return dsns
}

// startOn starts the service on a database, emptied first for PostgreSQL.
func startOn(t *testing.T, dsn string, opts ...option) *env {
	e := start(t, dsn, opts...)
	if dsn != "" {
		e.resetPostgres()
	}
	return e
}

func (e *env) resetPostgres() {
	e.t.Helper()
	if err := e.store.Truncate(); err != nil {
		e.t.Fatal(err)
	}
}

func TestAnonymousQuotaUnderConcurrency(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			e := startOn(t, dsn)
			rs := parallel(200, func(int) response { return e.get("/free/check?passport=DEU&destination=THA") })
			counts := countStatus(rs)
			if counts[http.StatusOK] != 5 || counts[http.StatusTooManyRequests] != 195 {
				t.Fatalf("statuses %v, want exactly 5 OK and 195 Too Many Requests", counts)
			}
			for _, r := range rs {
				if r.StatusCode != http.StatusTooManyRequests {
					continue
				}
				m := r.json(t)
				retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
				if m["scope"] != "ip_daily" || err != nil || retry <= 0 || retry > 86400 || r.Header.Get("X-RateLimit-Reset") != "1795392000" || r.Header.Get("X-RateLimit-Remaining") != "0" {
					t.Fatalf("429: scope %v, headers %v", m["scope"], r.Header)
				}
			}
			// The counts survive a restart of the service.
			e2 := e.restart()
			if r := e2.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusTooManyRequests {
				t.Errorf("after restart: status %d, the count was lost", r.StatusCode)
			}
			// And reset at midnight UTC.
			e2.clock.Advance(14 * time.Hour)
			if r := e2.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusOK {
				t.Errorf("the next day: status %d", r.StatusCode)
			}
		})
	}
}

func TestSpoofedForwardingHeadersBuyNothing(t *testing.T) {
	e := start(t, "")
	rs := parallel(30, func(i int) response {
		return e.get("/free/check?passport=DEU&destination=THA",
			"X-Forwarded-For", fmt.Sprintf("203.0.%d.%d", i, i), "Forwarded", fmt.Sprintf("for=198.51.100.%d", i))
	})
	if c := countStatus(rs); c[http.StatusOK] != 5 {
		t.Errorf("statuses %v: an untrusted peer's X-Forwarded-For bought extra checks", c)
	}
}

func TestTrustedProxyAndNetworkCap(t *testing.T) {
	trusted := func(c *config.Config) {
		c.TrustedProxies, _ = config.ParsePrefixes("127.0.0.1")
		c.Quotas.Network = 12
	}
	e := start(t, "", trusted)
	// Behind the trusted proxy every client address has its own 5.
	rs := parallel(20, func(i int) response {
		return e.get("/free/check?passport=DEU&destination=THA", "X-Forwarded-For", fmt.Sprintf("192.0.%d.7, 127.0.0.1", 10+i%2))
	})
	if c := countStatus(rs); c[http.StatusOK] != 10 {
		t.Errorf("two clients behind a trusted proxy: %v, want 10 OK", c)
	}
	// Many addresses of one /24 share the network cap.
	rs = parallel(30, func(i int) response {
		return e.get("/free/check?passport=DEU&destination=THA", "X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i))
	})
	c := countStatus(rs)
	if c[http.StatusOK] != 12 {
		t.Errorf("one /24: %v, want the network cap of 12", c)
	}
	for _, r := range rs {
		if r.StatusCode == http.StatusTooManyRequests && r.json(t)["scope"] != "network_daily" {
			t.Errorf("scope %v, want network_daily", r.json(t)["scope"])
		}
	}
}

func TestGlobalCeiling(t *testing.T) {
	e := start(t, "", func(c *config.Config) {
		c.TrustedProxies, _ = config.ParsePrefixes("127.0.0.1")
		c.Quotas.Global = 7
	})
	ok := 0
	for i := 0; i < 10; i++ {
		r := e.get("/free/check?passport=DEU&destination=THA", "X-Forwarded-For", fmt.Sprintf("10.%d.0.1", i))
		if r.StatusCode == http.StatusOK {
			ok++
		} else if r.json(t)["scope"] != "global_daily" {
			t.Errorf("scope %v, want global_daily", r.json(t)["scope"])
		}
	}
	if ok != 7 {
		t.Errorf("%d checks served, want the ceiling of 7", ok)
	}
	if s := e.get("/stats.json").json(t); s["free_checks_today"] != float64(7) {
		t.Errorf("stats: %v", s)
	}
}

// TestClientIPUnknownClientsShareOneBucket: clients a trusted proxy does
// not name (for=unknown, obfuscated identifiers) count
// together as one address, apart from the proxy's own: a new identifier
// buys nothing.
func TestClientIPUnknownClientsShareOneBucket(t *testing.T) {
	e := start(t, "", func(c *config.Config) {
		c.TrustedProxies, _ = config.ParsePrefixes("127.0.0.1")
	})
	rs := parallel(20, func(i int) response {
		hop := fmt.Sprintf("for=_hidden%d", i)
		if i%2 == 0 {
			hop = "for=unknown"
		}
		return e.get("/free/check?passport=DEU&destination=THA", "Forwarded", hop)
	})
	if c := countStatus(rs); c[http.StatusOK] != 5 {
		t.Errorf("statuses %v: clients the proxy hides got more than one address's 5 checks", c)
	}
	for _, r := range rs {
		if r.StatusCode == http.StatusTooManyRequests {
			if m := r.json(t); m["scope"] != "unknown_client_daily" || m["limit"] != float64(5) {
				t.Errorf("429 for a hidden client: scope %v, limit %v", m["scope"], m["limit"])
			}
		}
	}
	// The proxy's own requests and named clients keep their own quotas.
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusOK {
		t.Errorf("the proxy's own check after the hidden clients': %d", r.StatusCode)
	}
	if r := e.get("/free/check?passport=DEU&destination=THA", "X-Forwarded-For", "[2001:db8::1]:4711"); r.StatusCode != http.StatusOK {
		t.Errorf("a named client's check after the hidden clients': %d", r.StatusCode)
	}
	// Registrations too: the hidden clients share one address's 3.
	created := 0
	for i := range 5 {
		r := e.post("/oauth/register", "application/json", []byte(`{"client_name":"agent"}`), "Forwarded", fmt.Sprintf("for=_agent%d", i))
		if r.StatusCode == http.StatusCreated {
			created++
		}
	}
	if created != 3 {
		t.Errorf("%d registrations by hidden clients, want the 3 of one address", created)
	}
}
