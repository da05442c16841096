// Package e2e_test checks the real service with outside tools: it pays it
// with real x402 clients (the JavaScript client lives in x402-client), calls
// its A2A skills with the official A2A SDK (in a2a-client, and its 1.x line
// in a2a-client-v1) and
// lints its OpenAPI document with Redocly CLI (in openapi-lint). Run
// `npm ci` in each of those folders first (CI does).
package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/api"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/x402"
)

const (
	// payTo receives the payments (nothing moves: the facilitator is local).
	payTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
	// testPayer is the address of the public test key in pay.mjs (Hardhat/Anvil
	// account #1; no funds anywhere).
	testPayer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	// clientDir holds the official x402 JavaScript client and pay.mjs.
	clientDir = "x402-client"
)

// localGate is the payment gate `--facilitator local` gives: the local
// facilitator, recording nonces in the service's own store, on the wall
// clock (the JavaScript client signs validAfter/validBefore from it).
func localGate(t *testing.T, cfg config.Config, st *store.Store) payment.Gate {
	t.Helper()
	cfg.Facilitator = config.FacilitatorLocal
	g, err := payment.NewGate(cfg, st, nil)
	if err != nil || g == nil {
		t.Fatalf("local payment gate: %v, %v", g, err)
	}
	return g
}

// node returns the node binary, or skips (fails on CI) when the JavaScript
// client cannot run.
func node(t *testing.T) string {
	t.Helper()
	return nodeFor(t, clientDir, "the x402 JavaScript client test", "@x402/fetch", "@x402/evm", "viem")
}

// serve runs the real service in-process over HTTP on a fresh SQLite file.
func serve(t *testing.T) string {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "entrycheck.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String()
	cfg := config.Default()
	cfg.BaseURL = url
	cfg.PayTo = payTo
	cfg.PublicDir = t.TempDir()
	cfg.Facilitator = config.FacilitatorLocal
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("ENTRYCHECK_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	srv.Config.Handler = api.NewServer(api.Deps{
		Evaluator: datatest.Evaluator(t), Store: st, Config: cfg, Logger: log,
		IPHashKey: []byte("e2e-key-e2e-key-e2e-key-e2e-key-e2e"),
		Payments:  localGate(t, cfg, st),
	}).Handler()
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		st.Close()
	})
	return url
}

// TestX402JavaScriptClientPays pays for a check with the official x402 v2
// JavaScript client (@x402/fetch, @x402/evm exact scheme, a viem local
// account) against the real service with the local facilitator.
func TestX402JavaScriptClientPays(t *testing.T) {
	bin := node(t)
	url := serve(t)

	// Unpaid, the offer is what the JavaScript client will have to satisfy.
	res, err := http.Get(url + "/v1/check?passport=DEU&destination=THA")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("unpaid: status %d, want 402", res.StatusCode)
	}
	var offer x402.PaymentRequired
	if err := x402.Decode(res.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil {
		t.Fatalf("PAYMENT-REQUIRED: %v", err)
	}
	if len(offer.Accepts) == 0 {
		t.Fatalf("PAYMENT-REQUIRED accepts nothing: %+v", offer)
	}
	a := offer.Accepts[0]
	if offer.X402Version != 2 || a.Scheme != "exact" || a.Network != "eip155:8453" || a.Amount != "30000" ||
		a.Asset != "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" || !strings.EqualFold(a.PayTo, payTo) ||
		a.Extra["name"] != "USD Coin" || a.Extra["version"] != "2" {
		t.Fatalf("offer: %+v", offer)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "pay.mjs")
	cmd.Dir = clientDir
	cmd.Env = append(cleanEnv(), "BASE_URL="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("node pay.mjs timed out\nstdout: %s\nstderr: %s", stdout.String(), stderr.String())
		}
		t.Fatalf("node pay.mjs: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	t.Logf("pay.mjs: %s", strings.TrimSpace(stdout.String()))
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var got struct {
		Status          int                     `json:"status"`
		Requirement     string                  `json:"requirement"`
		AllowedStayDays int                     `json:"allowed_stay_days"`
		PaymentResponse x402.SettlementResponse `json:"payment_response"`
		Payer           string                  `json:"payer"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("pay.mjs output %q: %v\nstderr: %s", stdout.String(), err, stderr.String())
	}
	if got.Status != http.StatusOK || got.Requirement != "visa_free" || got.AllowedStayDays != 60 {
		t.Errorf("answer: status %d, %s, %d days; want 200, visa_free, 60", got.Status, got.Requirement, got.AllowedStayDays)
	}
	pr := got.PaymentResponse
	if !pr.Success || !strings.HasPrefix(pr.Transaction, "local:") || pr.Network != "eip155:8453" {
		t.Errorf("PAYMENT-RESPONSE: %+v; want success, a local: transaction on eip155:8453", pr)
	}
	if got.Payer != testPayer || !strings.EqualFold(pr.Payer, testPayer) {
		t.Errorf("payer: client %s, settlement %s; want %s", got.Payer, pr.Payer, testPayer)
	}
	if pr.Amount != "" && pr.Amount != "30000" {
		t.Errorf("settled amount %s, want 30000", pr.Amount)
	}
}

// cleanEnv is the environment without the variables pay.mjs reads, so the
// test pays with the public test key for the default request.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "BASE_URL", "PRIVATE_KEY", "CHECK_PATH":
			continue
		}
		env = append(env, kv)
	}
	return env
}
