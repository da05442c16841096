package api_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// BenchmarkPaidTripLatency measures a paid POST /v1/trips/evaluate over
// real HTTP, one request at a time: decoding and validating the body,
// verifying the signed authorization, local settlement recording the nonce
// in SQLite, the evaluation and the encoded answer, which the client reads
// to its end without decoding it. The trips are the examples of the evaluation package: a 10-leg
// trip with three passports, and a single-passport one. The signature is
// made outside the timer.
func BenchmarkPaidTripLatency(b *testing.B) {
	e := startBench(b, withLocalFacilitator, func(c *config.Config) {
		c.Quotas = config.Quotas{Anonymous: 1 << 30, Client: 1 << 30, Registrations: 3, Network: 1 << 30, Global: 1 << 30}
	})
	client := &http.Client{}
	post := func(b *testing.B, body []byte, payment string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, e.url+discovery.PathTrips, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if payment != "" {
			req.Header.Set(x402.HeaderPaymentSignature, payment)
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	key := mustKey(b)
	for _, name := range []string{"ten-legs-three-passports.json", "single-passport.json"} {
		body, err := os.ReadFile("../evaluation/testdata/trips/" + name)
		if err != nil {
			b.Fatal(err)
		}
		resp := post(b, body, "")
		resp.Body.Close()
		var offer x402.PaymentRequired
		if err := x402.Decode(resp.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil {
			b.Fatalf("%s without payment: %d, %v", name, resp.StatusCode, err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h := header(b, newPayment(b, key, offer.Accepts[0], e.clock.Now()).sign(b, key))
				b.StartTimer()
				resp := post(b, body, h)
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || n == 0 {
					b.Fatalf("paid trip: %d, %d bytes, %v", resp.StatusCode, n, err)
				}
			}
		})
	}
}
