// Command reqbench measures whole requests to running `entrycheck serve`
// processes over loopback HTTP, one request at a time on a keep-alive
// connection, as a client feels them: GET /free/check, a paid GET /v1/check
// and a paid POST /v1/trips/evaluate (the server settles with its local
// facilitator). Payments are signed before the clock starts, each with a
// fresh nonce, so a measure holds the server's verification, settlement,
// evaluation and encoding and the client's read of the answer.
//
// Given several servers (-server name=url, repeated) it measures them in
// alternating rounds, so that a drift of the machine falls on all alike,
// and prints p50 and p99 of each endpoint for each server and the change
// from the first. scripts/bench-compare.sh starts the servers and runs it.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// endpoint is one measured request.
type endpoint struct {
	name   string
	method string
	path   string
	body   []byte
	paid   bool
}

type server struct {
	name, url string
	// samples holds the latencies of each endpoint, by endpoint name.
	samples map[string][]time.Duration
}

type serverFlags []*server

func (s *serverFlags) String() string { return "" }

func (s *serverFlags) Set(v string) error {
	name, url, ok := strings.Cut(v, "=")
	if !ok || name == "" || url == "" {
		return errors.New("want name=url, for example head=http://127.0.0.1:18101")
	}
	*s = append(*s, &server{name: name, url: strings.TrimRight(url, "/"), samples: map[string][]time.Duration{}})
	return nil
}

func main() {
	var servers serverFlags
	flag.Var(&servers, "server", "`name=url` of a running server; repeat to compare (the first is the reference)")
	n := flag.Int("n", 500, "requests per endpoint and round")
	rounds := flag.Int("rounds", 4, "alternating rounds over the servers (0: only -record)")
	trip := flag.String("trip", "internal/evaluation/testdata/trips/ten-legs-three-passports.json", "`file` holding the trip body to POST")
	record := flag.String("record", "", "`directory` to write each server's answer of each endpoint (and a paid passport matrix) to, before measuring")
	flag.Parse()
	if len(servers) == 0 {
		fmt.Fprintln(os.Stderr, "reqbench: at least one -server name=url is required")
		os.Exit(2)
	}
	body, err := os.ReadFile(*trip)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reqbench:", err)
		os.Exit(2)
	}
	endpoints := []endpoint{
		{name: "GET /free/check", method: http.MethodGet, path: "/free/check?passport=DEU&destination=THA"},
		{name: "GET /v1/check (paid)", method: http.MethodGet, path: "/v1/check?passport=DEU&destination=THA", paid: true},
		{name: "POST /v1/trips/evaluate (paid, 10 legs x 3 passports)", method: http.MethodPost, path: "/v1/trips/evaluate", body: body, paid: true},
	}
	if *record != "" {
		passport := endpoint{name: "passport", method: http.MethodGet, path: "/v1/passport/DEU", paid: true}
		if err := recordAnswers(servers, append(endpoints, passport), *record); err != nil {
			fmt.Fprintln(os.Stderr, "reqbench:", err)
			os.Exit(1)
		}
	}
	if *rounds == 0 {
		return
	}
	if err := run(servers, endpoints, *n, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "reqbench:", err)
		os.Exit(1)
	}
	report(servers, endpoints)
}

func run(servers []*server, endpoints []endpoint, n, rounds int) error {
	key, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for round := 0; round < rounds; round++ {
		for _, s := range servers {
			for _, e := range endpoints {
				d, err := measure(client, key, s.url, e, n)
				if err != nil {
					return fmt.Errorf("%s %s: %w", s.name, e.name, err)
				}
				s.samples[e.name] = append(s.samples[e.name], d...)
			}
		}
	}
	return nil
}

// recordAnswers writes the answer of each endpoint, paid for, to
// dir/<server>/reqbench-<n>.txt, for a comparison of the bytes.
func recordAnswers(servers []*server, endpoints []endpoint, dir string) error {
	key, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, s := range servers {
		if err := os.MkdirAll(filepath.Join(dir, s.name), 0o755); err != nil {
			return err
		}
		for i, e := range endpoints {
			req, err := http.NewRequest(e.method, s.url+e.path, bytes.NewReader(e.body))
			if err != nil {
				return err
			}
			req.Header.Set("Content-Type", "application/json")
			if e.paid {
				offer, err := offerOf(client, s.url, e)
				if err != nil {
					return fmt.Errorf("%s %s: %w", s.name, e.name, err)
				}
				p, err := pay(key, offer)
				if err != nil {
					return err
				}
				req.Header.Set(x402.HeaderPaymentSignature, p)
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			name := filepath.Join(dir, s.name, fmt.Sprintf("reqbench-%d.txt", i))
			if err := os.WriteFile(name, fmt.Appendf(nil, "%s %s: %d\n%s\n", e.method, e.path, resp.StatusCode, body), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// measure times n requests of e; a paid endpoint's payments are signed
// first, outside the timing.
func measure(client *http.Client, key *secp256k1.PrivateKey, base string, e endpoint, n int) ([]time.Duration, error) {
	var payments []string
	if e.paid {
		offer, err := offerOf(client, base, e)
		if err != nil {
			return nil, err
		}
		for range n {
			p, err := pay(key, offer)
			if err != nil {
				return nil, err
			}
			payments = append(payments, p)
		}
	}
	d := make([]time.Duration, 0, n)
	for i := range n {
		req, err := http.NewRequest(e.method, base+e.path, bytes.NewReader(e.body))
		if err != nil {
			return nil, err
		}
		if e.body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if e.paid {
			req.Header.Set(x402.HeaderPaymentSignature, payments[i])
		}
		start := time.Now()
		status, err := do(client, req)
		elapsed := time.Since(start)
		if err != nil {
			return nil, err
		}
		if status != http.StatusOK {
			return nil, fmt.Errorf("answered %d (is the quota high enough? see bench-compare.sh)", status)
		}
		d = append(d, elapsed)
	}
	return d, nil
}

// do sends req and reads the answer to its end.
func do(client *http.Client, req *http.Request) (int, error) {
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// offerOf asks for e without paying and returns the first offer of the 402.
func offerOf(client *http.Client, base string, e endpoint) (x402.PaymentRequirements, error) {
	req, err := http.NewRequest(e.method, base+e.path, bytes.NewReader(e.body))
	if err != nil {
		return x402.PaymentRequirements{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return x402.PaymentRequirements{}, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	var offer x402.PaymentRequired
	if err := x402.Decode(resp.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil || len(offer.Accepts) == 0 {
		return x402.PaymentRequirements{}, fmt.Errorf("no payment offer (status %d): %v", resp.StatusCode, err)
	}
	return offer.Accepts[0], nil
}

// pay signs an EIP-3009 transfer of the offered amount, valid for an hour,
// and returns the PAYMENT-SIGNATURE header.
func pay(key *secp256k1.PrivateKey, offer x402.PaymentRequirements) (string, error) {
	chain, ok := new(big.Int).SetString(strings.TrimPrefix(offer.Network, "eip155:"), 10)
	if !ok {
		return "", fmt.Errorf("network %q is not eip155", offer.Network)
	}
	value, ok := new(big.Int).SetString(offer.Amount, 10)
	if !ok {
		return "", fmt.Errorf("amount %q", offer.Amount)
	}
	name, _ := offer.Extra["name"].(string)
	version, _ := offer.Extra["version"].(string)
	payTo, ok := exact.ParseAddress(offer.PayTo)
	if !ok {
		return "", fmt.Errorf("payTo %q is not an address", offer.PayTo)
	}
	asset, ok := exact.ParseAddress(offer.Asset)
	if !ok {
		return "", fmt.Errorf("asset %q is not an address", offer.Asset)
	}
	auth := exact.Authorization{
		From: exact.AddressOf(key.PubKey()), To: payTo, Value: value,
		ValidAfter: big.NewInt(0), ValidBefore: big.NewInt(time.Now().Add(time.Hour).Unix()),
	}
	if _, err := rand.Read(auth.Nonce[:]); err != nil {
		return "", err
	}
	domain := exact.Domain{Name: name, Version: version, ChainID: chain, VerifyingContract: asset}
	digest := exact.Digest(domain, auth)
	// SignCompact writes the recovery byte (27 + recovery id) first;
	// Ethereum wants r ‖ s ‖ v with the same v.
	compact := ecdsa.SignCompact(key, digest[:], false)
	sig := append(compact[1:65:65], compact[0])
	payload, err := json.Marshal(exact.Payload{
		Signature: "0x" + hex.EncodeToString(sig),
		Authorization: exact.TransferAuthorization{
			From: auth.From.Hex(), To: auth.To.Hex(), Value: auth.Value.String(),
			ValidAfter: "0", ValidBefore: auth.ValidBefore.String(), Nonce: auth.NonceHex(),
		},
	})
	if err != nil {
		return "", err
	}
	return x402.Encode(x402.PaymentPayload{X402Version: x402.Version, Accepted: offer, Payload: payload})
}

func report(servers []*server, endpoints []endpoint) {
	ref := servers[0]
	for _, e := range endpoints {
		fmt.Println(e.name)
		for _, s := range servers {
			p50, p99 := percentiles(s.samples[e.name])
			line := fmt.Sprintf("  %-6s p50 %8.3f ms   p99 %8.3f ms   (%d requests)", s.name, ms(p50), ms(p99), len(s.samples[e.name]))
			if s != ref {
				r50, r99 := percentiles(ref.samples[e.name])
				line += fmt.Sprintf("   p50 %+.1f%%, p99 %+.1f%% against %s", change(r50, p50), change(r99, p99), ref.name)
			}
			fmt.Println(line)
		}
	}
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[int(q*float64(len(s)-1))] }
	return at(0.50), at(0.99)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func change(from, to time.Duration) float64 {
	return 100 * (float64(to) - float64(from)) / float64(from)
}
