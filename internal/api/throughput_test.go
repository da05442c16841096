package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// BenchmarkFreeCheckThroughput compares /free/check (routing, middleware,
// evaluation, quota counting in SQLite, JSON) with a bare net/http handler
// that encodes the same check result, on the same machine in the same run.
// Goal: ratio at least 0.5. Run with -benchtime 1x; each iteration measures
// both for a fixed time.
func BenchmarkFreeCheckThroughput(b *testing.B) {
	const (
		clients = 64
		window  = 3 * time.Second
	)
	ev := datatest.Evaluator(b)
	res, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}, entrycheck.SystemClock{})
	if err != nil {
		b.Fatal(err)
	}
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(res)
	}))
	defer bare.Close()

	e := startBench(b, func(c *config.Config) {
		c.Quotas = config.Quotas{Anonymous: 1 << 30, Client: 1 << 30, Registrations: 3, Network: 1 << 30, Global: 1 << 30}
	})
	for b.Loop() {
		ours := rate(b, e.url+"/free/check?passport=DEU&destination=THA", clients, window)
		base := rate(b, bare.URL+"/free/check?passport=DEU&destination=THA", clients, window)
		b.ReportMetric(ours, "entrycheck_req/s")
		b.ReportMetric(base, "bare_req/s")
		b.ReportMetric(ours/base, "ratio")
	}
}

// rate drives url with n concurrent keep-alive clients for d and returns requests per second.
func rate(b *testing.B, url string, n int, d time.Duration) float64 {
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var done atomic.Int64
	var failed atomic.Int64
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				resp, err := client.Get(url)
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Add(1)
					continue
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		b.Fatalf("%s: %d requests failed", url, f)
	}
	return float64(done.Load()) / d.Seconds()
}

// BenchmarkDurableAnswers measures one client's latency for the answers
// that commit to the database before they are sent: a free check (its
// quota count) and a client registration. It shows the cost of fsyncing
// each commit.
func BenchmarkDurableAnswers(b *testing.B) {
	e := startBench(b, func(c *config.Config) {
		c.Quotas = config.Quotas{Anonymous: 1 << 30, Client: 1 << 30, Registrations: 1 << 30, Network: 1 << 30, Global: 1 << 30}
	})
	b.Run("free_check", func(b *testing.B) {
		for b.Loop() {
			resp, err := http.Get(e.url + "/free/check?passport=DEU&destination=THA")
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("%v %v", resp, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
	b.Run("register", func(b *testing.B) {
		for b.Loop() {
			resp, err := http.Post(e.url+"/oauth/register", "application/json", strings.NewReader(`{"client_name":"bench"}`))
			if err != nil || resp.StatusCode != http.StatusCreated {
				b.Fatalf("%v %v", resp, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}
