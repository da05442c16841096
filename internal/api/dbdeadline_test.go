package api_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const dbTimeout = 500 * time.Millisecond

func withDBTimeout(c *config.Config) { c.DBTimeout = dbTimeout }

// stalledDatabase is a database that stops answering and comes back.
type stalledDatabase struct {
	stall, recover func()
	// readsWork: reads are still answered while stalled (SQLite's WAL
	// lets readers run beside a writer that holds the lock).
	readsWork bool
}

// TestFrozenPostgresIs503InTime: with PostgreSQL frozen (its processes
// stopped, connections open), free checks, registrations, tokens,
// /stats.json and a paid check are answered 503 with Retry-After within
// the database timeout and a second, and once it thaws everything is
// served again with nothing counted for the refusals.
func TestFrozenPostgresIs503InTime(t *testing.T) {
	pg := datatest.StartPostgres(t)
	e := start(t, pg.URL, withLocalFacilitator, withDBTimeout)
	checkStallIs503InTime(t, e, stalledDatabase{stall: pg.Freeze, recover: pg.Thaw})
}

// TestLockedSQLiteIs503InTime: with another connection holding the SQLite
// file's write lock, whatever must write is answered 503 in time, reads
// are still served, and nothing is counted for the refusals.
func TestLockedSQLiteIs503InTime(t *testing.T) {
	e := start(t, "", withLocalFacilitator, withDBTimeout)
	other, err := sql.Open("sqlite", "file:"+e.dsn+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) func() {
		return func() {
			if _, err := conn.ExecContext(context.Background(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	checkStallIs503InTime(t, e, stalledDatabase{stall: exec(`BEGIN EXCLUSIVE`), recover: exec(`ROLLBACK`), readsWork: true})
}

func checkStallIs503InTime(t *testing.T, e *env, db stalledDatabase) {
	const free = "/free/check?passport=DEU&destination=THA"
	id, secret := e.register("stall")
	bearer := "Bearer " + accessToken(t, e.tokenFor(http.DefaultClient, id, secret))
	key := mustKey(t)
	payment := header(t, newPayment(t, key, e.offerOf(checkPath).Accepts[0], e.clock.Now()).sign(t, key))
	form := "application/x-www-form-urlencoded"
	// answered counts what was answered 200 (201 for a registration).
	answered := map[string]int{"free": 0, "registration": 1, "token": 1}
	if r := e.get(free); r.StatusCode != http.StatusOK {
		t.Fatalf("free check before the stall: %d %s", r.StatusCode, r.body)
	}
	answered["free"]++

	requests := []struct {
		name, counts string
		do           func() response
		read         bool
	}{
		{"anonymous free check", "free", func() response { return e.get(free) }, false},
		{"registered free check", "free", func() response { return e.get(free, "Authorization", bearer) }, false},
		{"registration", "registration", func() response {
			return e.post("/oauth/register", "application/json", []byte(`{"client_name": "x"}`))
		}, false},
		{"token", "token", func() response {
			return e.post("/oauth/token", form, []byte("grant_type=client_credentials&client_id="+id+"&client_secret="+secret))
		}, false},
		{"stats", "", func() response { return e.get("/stats.json") }, true},
		{"paid check", "", func() response { return e.get(checkPath, x402.HeaderPaymentSignature, payment) }, false},
	}
	cs := e.connectMCP(nil, protocolInitialize)
	callMCP := func() (*mcp.CallToolResult, error) {
		return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "check_entry_requirements", Arguments: checkArgs("DEU", "THA")})
	}
	db.stall()
	for round := 0; round < 2; round++ { // the second on what the first left of the pool
		start := time.Now()
		res, err := callMCP()
		took := time.Since(start)
		t.Logf("stalled, MCP free check: after %v", took.Round(time.Millisecond))
		if err != nil {
			t.Errorf("stalled, MCP free check: %v", err)
		} else if b := toolError(t, res); b.Error != "service_unavailable" {
			t.Errorf("stalled, MCP free check: %+v, want service_unavailable", b)
		}
		if took > dbTimeout+time.Second {
			t.Errorf("stalled, MCP free check: answered after %v, want within %v", took.Round(time.Millisecond), dbTimeout+time.Second)
		}
		for _, rq := range requests {
			start := time.Now()
			r := rq.do()
			took := time.Since(start)
			t.Logf("stalled, %s: %d after %v", rq.name, r.StatusCode, took.Round(time.Millisecond))
			if took > dbTimeout+time.Second {
				t.Errorf("stalled, %s: answered after %v, want within %v", rq.name, took.Round(time.Millisecond), dbTimeout+time.Second)
			}
			if rq.read && db.readsWork && r.StatusCode == http.StatusOK {
				continue
			}
			var body map[string]any
			if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" ||
				r.Header.Get("Content-Type") != "application/json" && r.Header.Get("Content-Type") != "application/json; charset=utf-8" ||
				json.Unmarshal(r.body, &body) != nil || body["error"] == nil {
				t.Errorf("stalled, %s: %d, Retry-After %q, Content-Type %q, body %s; want a JSON 503 with Retry-After",
					rq.name, r.StatusCode, r.Header.Get("Retry-After"), r.Header.Get("Content-Type"), r.body)
			}
		}
	}
	db.recover()

	want := map[string]int{"anonymous free check": http.StatusOK, "registered free check": http.StatusOK, "registration": http.StatusCreated,
		"token": http.StatusOK, "stats": http.StatusOK, "paid check": http.StatusOK}
	deadline := time.Now().Add(10 * time.Second)
	for _, rq := range requests {
		r := rq.do()
		// A PostgreSQL that thaws runs first what it had been sent; the
		// pool's broken connections are replaced as they are met.
		for r.StatusCode == http.StatusServiceUnavailable && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			r = rq.do()
		}
		if r.StatusCode != want[rq.name] {
			t.Fatalf("after the stall, %s: %d %s", rq.name, r.StatusCode, r.body)
		}
		if rq.counts != "" {
			answered[rq.counts]++
		}
	}

	if res, err := callMCP(); err != nil || res.IsError {
		t.Fatalf("after the stall, MCP free check: %v %v", err, textOf(res))
	}
	answered["free"]++

	// The paid check above was served with the authorization the stalled
	// one sent: its nonce was not taken by the refusal.
	day, _ := quota.Day(e.clock.Now())
	for _, c := range []struct{ name, scope, key string }{
		{"free", quota.ScopeGlobal, quota.GlobalKey},
		{"registration", quota.ScopeRegistrationsGlobal, quota.GlobalKey},
		{"token", quota.ScopeTokens, id},
	} {
		used, err := e.store.QuotaUsed(context.Background(), day, c.scope, c.key)
		if err != nil {
			t.Fatal(err)
		}
		if used != answered[c.name] {
			t.Errorf("%s: %d counted, %d answered: the refusals were counted", c.name, used, answered[c.name])
		}
	}
	var stats map[string]any
	if err := json.Unmarshal(e.get("/stats.json").body, &stats); err != nil {
		t.Fatal(err)
	}
	if stats["free_checks_today"] != float64(answered["free"]) {
		t.Errorf("/stats.json counts %v free checks, %d were answered", stats["free_checks_today"], answered["free"])
	}
}

// TestLiveTokensUnderConcurrentMints: a client that asks for many tokens at
// once holds at most five, on either database.
func TestLiveTokensUnderConcurrentMints(t *testing.T) {
	for name, dsn := range storeDSNs(t) {
		t.Run(name, func(t *testing.T) {
			if dsn != "" {
				dsn = datatest.PostgresSchema(t, dsn, "api_live_tokens")
			}
			e := start(t, dsn)
			id, secret := e.register("mints")
			rs := parallel(50, func(int) response { return e.tokenFor(http.DefaultClient, id, secret) })
			if c := countStatus(rs); c[http.StatusOK] != 50 {
				t.Fatalf("statuses %v, want 50 tokens (the day's quota)", c)
			}
			live, err := e.store.LiveTokens(context.Background(), id, e.clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if live != 5 {
				t.Errorf("%d live tokens after 50 concurrent mints, want 5", live)
			}
		})
	}
}
