package api_test

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// withLocalFacilitator settles payments with the built-in local facilitator.
func withLocalFacilitator(c *config.Config) { c.Facilitator = config.FacilitatorLocal }

const checkPath = "/v1/check?passport=DEU&destination=THA"

// offerOf asks for path without paying and decodes the PAYMENT-REQUIRED header.
func (e *env) offerOf(path string) x402.PaymentRequired {
	e.t.Helper()
	r := e.get(path)
	if r.StatusCode != http.StatusPaymentRequired {
		e.t.Fatalf("%s without payment: %d %s", path, r.StatusCode, r.body)
	}
	var offer x402.PaymentRequired
	if err := x402.Decode(r.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil {
		e.t.Fatal(err)
	}
	return offer
}

// signed is a payment under construction: the requirements the client
// accepts, the authorization it signs, and where the signature is made.
type signed struct {
	accepted x402.PaymentRequirements
	auth     exact.TransferAuthorization
	chainID  int64
	contract string
}

// newPayment prepares an authorization that pays accepted from key, valid
// for two minutes from now, with a fresh random nonce.
func newPayment(tb testing.TB, key *ecdsa.PrivateKey, accepted x402.PaymentRequirements, now time.Time) signed {
	nonce := make([]byte, 32)
	if _, err := rand.Read(nonce); err != nil {
		tb.Fatal(err)
	}
	return signed{
		accepted: accepted,
		auth: exact.TransferAuthorization{
			From: crypto.PubkeyToAddress(key.PublicKey).Hex(), To: accepted.PayTo, Value: accepted.Amount,
			ValidAfter: "0", ValidBefore: big.NewInt(now.Unix() + 120).String(), Nonce: "0x" + hex.EncodeToString(nonce),
		},
		chainID: 8453, contract: accepted.Asset,
	}
}

// sign signs the authorization with go-ethereum's generic EIP-712 encoder
// and returns the PaymentPayload.
func (p signed) sign(tb testing.TB, key *ecdsa.PrivateKey) x402.PaymentPayload {
	td := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"TransferWithAuthorization": {
				{Name: "from", Type: "address"}, {Name: "to", Type: "address"}, {Name: "value", Type: "uint256"},
				{Name: "validAfter", Type: "uint256"}, {Name: "validBefore", Type: "uint256"}, {Name: "nonce", Type: "bytes32"},
			},
		},
		PrimaryType: "TransferWithAuthorization",
		Domain: apitypes.TypedDataDomain{
			Name: x402.USDCDomainName, Version: x402.USDCDomainVersion,
			ChainId: (*math.HexOrDecimal256)(big.NewInt(p.chainID)), VerifyingContract: p.contract,
		},
		Message: apitypes.TypedDataMessage{
			"from": p.auth.From, "to": p.auth.To, "value": p.auth.Value,
			"validAfter": p.auth.ValidAfter, "validBefore": p.auth.ValidBefore, "nonce": p.auth.Nonce,
		},
	}
	digest, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		tb.Fatal(err)
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		tb.Fatal(err)
	}
	sig[64] += 27
	return payloadWith(tb, p.accepted, exact.Payload{Signature: "0x" + hex.EncodeToString(sig), Authorization: p.auth})
}

func payloadWith(tb testing.TB, accepted x402.PaymentRequirements, p exact.Payload) x402.PaymentPayload {
	raw, err := json.Marshal(p)
	if err != nil {
		tb.Fatal(err)
	}
	return x402.PaymentPayload{X402Version: x402.Version, Accepted: accepted, Payload: raw}
}

func header(tb testing.TB, p x402.PaymentPayload) string {
	h, err := x402.Encode(p)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

func mustKey(tb testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// checkPaid checks a 200 paid answer and its receipt.
func checkPaid(t *testing.T, r response, payer string) {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("paid request: %d %s", r.StatusCode, r.body)
	}
	var receipt x402.SettlementResponse
	if err := x402.Decode(r.Header.Get(x402.HeaderPaymentResponse), &receipt); err != nil {
		t.Fatalf("PAYMENT-RESPONSE: %v", err)
	}
	if !receipt.Success || !strings.HasPrefix(receipt.Transaction, exact.LocalTransactionPrefix) || receipt.Payer != payer ||
		receipt.Network != x402.NetworkBase || receipt.Amount != "30000" {
		t.Errorf("receipt %+v", receipt)
	}
	body := r.json(t)
	p, _ := body["payment"].(map[string]any)
	if p == nil || p["success"] != true || p["transaction"] != receipt.Transaction || p["payer"] != payer {
		t.Errorf("body payment %v, header %+v", body["payment"], receipt)
	}
	if body["requirement"] == nil || body["passport"] == nil {
		t.Errorf("no answer in %s", r.body)
	}
}

// checkRefused checks a 402 that serves nothing and says why.
func checkRefused(t *testing.T, r response, reason string) {
	t.Helper()
	if r.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("%d %s, want 402 (%s)", r.StatusCode, r.body, reason)
	}
	body := r.json(t)
	if msg, _ := body["error"].(string); !strings.Contains(msg, reason) {
		t.Errorf("error %q does not name %s", msg, reason)
	}
	if body["code"] != "payment_required" || body["payment"] != nil || body["accepts"] == nil || body["requirement"] != nil {
		t.Errorf("refusal body %s", r.body)
	}
	if h := r.Header.Get(x402.HeaderPaymentResponse); h != "" {
		var receipt x402.SettlementResponse
		if x402.Decode(h, &receipt) != nil || receipt.Success {
			t.Errorf("refusal with receipt %s", h)
		}
	}
}

func TestX402PaidCheck(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	payer := crypto.PubkeyToAddress(key.PublicKey).Hex()
	offer := e.offerOf(checkPath)
	if len(offer.Accepts) != 1 {
		t.Fatalf("offer %+v", offer)
	}
	acc := offer.Accepts[0]
	now := e.clock.Now()

	good := newPayment(t, key, acc, now).sign(t, key)
	first := e.get(checkPath, x402.HeaderPaymentSignature, header(t, good))
	checkPaid(t, first, payer)

	// The same payment again, as a client whose answer was lost sends it:
	// answered again with the first receipt, and not charged again (the
	// paid calls below count one).
	again := e.get(checkPath, x402.HeaderPaymentSignature, header(t, good))
	checkPaid(t, again, payer)
	if a, b := again.Header.Get(x402.HeaderPaymentResponse), first.Header.Get(x402.HeaderPaymentResponse); a != b {
		t.Errorf("the retry's receipt %s, want the first %s", a, b)
	}
	if again.json(t)["request_id"] == first.json(t)["request_id"] {
		t.Error("the retry has the first answer's request id, want its own")
	}
	// The same payment for another resource at the same price is a replay.
	checkRefused(t, e.get("/v1/check?passport=DEU&destination=FRA", x402.HeaderPaymentSignature, header(t, good)), exact.ReasonNonceAlreadyUsed)

	other := "0x1111111111111111111111111111111111111111"
	cases := []struct {
		name   string
		build  func() x402.PaymentPayload
		reason string
	}{
		{"tampered amount", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			pl := p.sign(t, key)
			var ep exact.Payload
			json.Unmarshal(pl.Payload, &ep)
			ep.Authorization.Value = "1"
			return payloadWith(t, acc, ep)
		}, exact.ReasonValue},
		{"wrong payTo", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.accepted.PayTo, p.auth.To = other, other
			return p.sign(t, key)
		}, exact.ReasonRequirementMismatch},
		{"authorization to another address", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.auth.To = other
			return p.sign(t, key)
		}, exact.ReasonRecipientMismatch},
		{"wrong network", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.accepted.Network, p.chainID = "eip155:84532", 84532
			return p.sign(t, key)
		}, exact.ReasonInvalidNetwork},
		{"wrong asset", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.accepted.Asset, p.contract = other, other
			return p.sign(t, key)
		}, exact.ReasonAssetMismatch},
		{"expired", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.auth.ValidBefore = big.NewInt(now.Unix() - 1).String()
			return p.sign(t, key)
		}, exact.ReasonValidBefore},
		{"not yet valid", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			p.auth.ValidAfter = big.NewInt(now.Unix() + 60).String()
			return p.sign(t, key)
		}, exact.ReasonValidAfter},
		{"bad signature", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			pl := p.sign(t, key)
			var ep exact.Payload
			json.Unmarshal(pl.Payload, &ep)
			sig, _ := hex.DecodeString(ep.Signature[2:])
			sig[5] ^= 0x40
			ep.Signature = "0x" + hex.EncodeToString(sig)
			return payloadWith(t, acc, ep)
		}, exact.ReasonSignature},
		{"signed by another key", func() x402.PaymentPayload {
			p := newPayment(t, key, acc, now)
			return p.sign(t, mustKey(t))
		}, exact.ReasonSignature},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := e.t
			e.t = t
			defer func() { e.t = parent }()
			checkRefused(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, c.build())), c.reason)
		})
	}

	// Paid calls use no free quota, and are counted.
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusOK || r.Header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("free quota after paid calls: %d remaining %s", r.StatusCode, r.Header.Get("X-RateLimit-Remaining"))
	}
	if n := e.get("/stats.json").json(t)["paid_calls_today"]; n != float64(1) {
		t.Errorf("paid_calls_today %v, want 1", n)
	}

	// After a restart, the same payment is still answered again, and still
	// refused for another resource.
	e = e.restart(withLocalFacilitator)
	checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, good)), payer)
	checkRefused(t, e.get("/v1/check?passport=DEU&destination=FRA", x402.HeaderPaymentSignature, header(t, good)), exact.ReasonNonceAlreadyUsed)
	checkPaid(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key))), payer)
	if n := e.get("/stats.json").json(t)["paid_calls_today"]; n != float64(2) {
		t.Errorf("paid_calls_today %v after restart, want 2", n)
	}
	// Once its authorization has expired, the payment is refused.
	e.clock.Advance(3 * time.Minute)
	checkRefused(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, good)), exact.ReasonValidBefore)
}

func TestX402ConcurrentReplay(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	acc := e.offerOf(checkPath).Accepts[0]
	h := header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key))
	rs := parallel(8, func(int) response { return e.get(checkPath, x402.HeaderPaymentSignature, h) })
	// One settles; those that come once it is recorded are answered again
	// with its receipt, those that come while it settles are refused. It
	// is charged once.
	if c := countStatus(rs); c[http.StatusOK] < 1 || c[http.StatusOK]+c[http.StatusPaymentRequired] != 8 {
		t.Fatalf("statuses %v, want 200s and 402s", c)
	}
	var receipt string
	for _, r := range rs {
		if r.StatusCode != http.StatusOK {
			checkRefused(t, r, exact.ReasonNonceAlreadyUsed)
			continue
		}
		checkPaid(t, r, crypto.PubkeyToAddress(key.PublicKey).Hex())
		if h := r.Header.Get(x402.HeaderPaymentResponse); receipt == "" {
			receipt = h
		} else if h != receipt {
			t.Errorf("receipts differ: %s and %s", h, receipt)
		}
	}
	if n := e.get("/stats.json").json(t)["paid_calls_today"]; n != float64(1) {
		t.Errorf("paid_calls_today %v, want 1", n)
	}
}

func TestX402OtherPaidEndpoints(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	path := "/v1/passport/DEU"
	acc := e.offerOf(path).Accepts[0]
	r := e.get(path, x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key)))
	if r.StatusCode != http.StatusOK || r.json(t)["payment"] == nil || r.Header.Get(x402.HeaderPaymentResponse) == "" {
		t.Fatalf("%d %.300s", r.StatusCode, r.body)
	}
	// A payment for the check does not pay for the matrix (another amount).
	checkAcc := e.offerOf(checkPath).Accepts[0]
	checkRefused(t, e.get(path, x402.HeaderPaymentSignature, header(t, newPayment(t, key, checkAcc, e.clock.Now()).sign(t, key))), exact.ReasonRequirementMismatch)
	// A payment that names the resource it was offered for pays for that
	// one only: Germany's offer does not buy France's matrix, at the same
	// price, and nothing is charged.
	deu := e.offerOf(path)
	p := newPayment(t, key, deu.Accepts[0], e.clock.Now()).sign(t, key)
	p.Resource = &deu.Resource
	checkRefused(t, e.get("/v1/passport/FRA", x402.HeaderPaymentSignature, header(t, p)), "this payment was made for "+deu.Resource.URL)
	if r := e.get(path, x402.HeaderPaymentSignature, header(t, p)); r.StatusCode != http.StatusOK {
		t.Errorf("the same payment at its own resource: %d %.300s", r.StatusCode, r.body)
	}
}

// fakeFacilitator records the requests of an HTTP facilitator client.
type fakeFacilitator struct {
	mu    sync.Mutex
	calls []string
	valid bool
}

// seen lists the paths the facilitator was asked, in order.
func (f *fakeFacilitator) seen() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, " ")
}

func (f *fakeFacilitator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		X402Version         int                      `json:"x402Version"`
		PaymentPayload      x402.PaymentPayload      `json:"paymentPayload"`
		PaymentRequirements x402.PaymentRequirements `json:"paymentRequirements"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil || body.X402Version != 2 ||
		body.PaymentRequirements.Amount == "" || body.PaymentPayload.Accepted.Amount != body.PaymentRequirements.Amount {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, r.URL.Path)
	valid := f.valid
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/verify":
		if !valid {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"isValid": false, "invalidReason": "insufficient_funds"})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"isValid": true})
	case "/settle":
		json.NewEncoder(w).Encode(x402.SettlementResponse{Success: true, Transaction: "0xabc", Network: body.PaymentRequirements.Network})
	default:
		http.NotFound(w, r)
	}
}

func TestHTTPFacilitator(t *testing.T) {
	fake := &fakeFacilitator{valid: true}
	fs := httptest.NewServer(fake)
	defer fs.Close()
	e := start(t, "", func(c *config.Config) { c.Facilitator = fs.URL })
	key := mustKey(t)
	payer := crypto.PubkeyToAddress(key.PublicKey).Hex()
	acc := e.offerOf(checkPath).Accepts[0]
	good := header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key))
	r := e.get(checkPath, x402.HeaderPaymentSignature, good)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", r.StatusCode, r.body)
	}
	var receipt x402.SettlementResponse
	if err := x402.Decode(r.Header.Get(x402.HeaderPaymentResponse), &receipt); err != nil || receipt.Transaction != "0xabc" || receipt.Payer != payer {
		t.Errorf("receipt %+v %v", receipt, err)
	}
	if strings.Join(fake.calls, " ") != "/verify /settle" {
		t.Errorf("facilitator calls %v, want verify then settle", fake.calls)
	}
	// The same payment again, even after a restart, is answered again with
	// its receipt and never reaches the facilitator; for another resource
	// it is a replay, refused before the facilitator too.
	e = e.restart(func(c *config.Config) { c.Facilitator = fs.URL })
	again := e.get(checkPath, x402.HeaderPaymentSignature, good)
	if again.StatusCode != http.StatusOK || again.Header.Get(x402.HeaderPaymentResponse) != r.Header.Get(x402.HeaderPaymentResponse) {
		t.Errorf("the same payment after a restart: %d %s, want 200 with the first receipt", again.StatusCode, again.Header.Get(x402.HeaderPaymentResponse))
	}
	checkRefused(t, e.get("/v1/check?passport=DEU&destination=FRA", x402.HeaderPaymentSignature, good), exact.ReasonNonceAlreadyUsed)
	if len(fake.calls) != 2 {
		t.Errorf("the retry or the replay reached the facilitator: %v", fake.calls)
	}
	// The facilitator's refusal is passed on.
	fake.mu.Lock()
	fake.valid = false
	fake.mu.Unlock()
	checkRefused(t, e.get(checkPath, x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key))), "insufficient_funds")
	// A facilitator that does not answer is an outage, not a refusal: 503
	// with Retry-After, and nothing of the cause in the body.
	fs.Close()
	r = e.get(checkPath, x402.HeaderPaymentSignature, header(t, newPayment(t, key, acc, e.clock.Now()).sign(t, key)))
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || !strings.Contains(string(r.body), `"service_unavailable"`) || strings.Contains(string(r.body), "127.0.0.1") {
		t.Errorf("facilitator down: %d Retry-After=%q %s", r.StatusCode, r.Header.Get("Retry-After"), r.body)
	}
}

func TestFacilitatorConfig(t *testing.T) {
	for _, f := range []string{"ftp://x", "http://facilitator.example.com", "nonsense"} {
		if _, err := payment.NewGate(config.Config{Facilitator: f, PayTo: payTo}, nil, nil); err == nil {
			t.Errorf("facilitator %q accepted", f)
		}
	}
	for _, f := range []string{"", "local", "https://x402.org/facilitator", "http://127.0.0.1:4021"} {
		if _, err := payment.NewGate(config.Config{Facilitator: f, PayTo: payTo}, nil, nil); err != nil {
			t.Errorf("facilitator %q: %v", f, err)
		}
	}
}

// BenchmarkPaidCheckLatency compares a paid /v1/check (verification of the
// signed authorization, local settlement recording the nonce in SQLite,
// counting the paid call) with the free check, over real HTTP, one request
// at a time. The signature is made outside the timer.
func BenchmarkPaidCheckLatency(b *testing.B) {
	e := startBench(b, withLocalFacilitator, func(c *config.Config) {
		c.Quotas = config.Quotas{Anonymous: 1 << 30, Client: 1 << 30, Registrations: 3, Network: 1 << 30, Global: 1 << 30}
	})
	client := &http.Client{}
	get := func(b *testing.B, path, payment string) {
		req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
		if payment != "" {
			req.Header.Set(x402.HeaderPaymentSignature, payment)
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var sink map[string]any
		json.NewDecoder(resp.Body).Decode(&sink)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, e.url+checkPath, nil)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	var offer x402.PaymentRequired
	if err := x402.Decode(resp.Header.Get(x402.HeaderPaymentRequired), &offer); err != nil {
		b.Fatal(err)
	}
	key := mustKey(b)
	b.Run("free", func(b *testing.B) {
		for b.Loop() {
			get(b, "/free/check?passport=DEU&destination=THA", "")
		}
	})
	b.Run("paid", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			h := header(b, newPayment(b, key, offer.Accepts[0], e.clock.Now()).sign(b, key))
			b.StartTimer()
			get(b, checkPath, h)
		}
	})
}

// TestX402ResourceInOtherOrderAndCase: an honest client that rebuilt the
// check's URL with its query in another order and its codes in another
// letter case names the same resource, and its payment is served.
func TestX402ResourceInOtherOrderAndCase(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	offer := e.offerOf(checkPath)
	p := newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key)
	p.Resource = &x402.ResourceInfo{URL: e.url + "/v1/check?destination=tha&passport=deu"}
	if r := e.get(checkPath, x402.HeaderPaymentSignature, header(t, p)); r.StatusCode != http.StatusOK {
		t.Errorf("a payment naming the check as destination=tha&passport=deu: %d %.300s", r.StatusCode, r.body)
	}
}
