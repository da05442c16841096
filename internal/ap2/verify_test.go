package ap2

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// uses is an in-memory UseStore.
type uses struct {
	seen map[string]bool
	err  error
}

func (u *uses) UseNonce(_ context.Context, network, asset, from, nonce string) (bool, error) {
	if u.err != nil {
		return false, u.err
	}
	k := network + "|" + asset + "|" + from + "|" + nonce
	fresh := !u.seen[k]
	u.seen[k] = true
	return fresh, nil
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// issue signs claims with key as an SD-JWT whose one delegate_payload
// element, content, is a disclosure.
func issue(t *testing.T, key *ecdsa.PrivateKey, claims, content map[string]any) string {
	t.Helper()
	raw, err := json.Marshal([]any{rand.Text(), content})
	if err != nil {
		t.Fatal(err)
	}
	disclosure := b64.EncodeToString(raw)
	claims["delegate_payload"] = []any{map[string]any{"...": hashOf(disclosure)}}
	jwt, err := signES256(key, header{Typ: "kb+sd-jwt"}, claims)
	if err != nil {
		t.Fatal(err)
	}
	return jwt + "~" + disclosure + "~"
}

// testMerchant is a merchant that trusts provider, at the time *now.
func testMerchant(t *testing.T, provider *ecdsa.PrivateKey, store UseStore, now *time.Time) *Merchant {
	t.Helper()
	jwk, err := jwkOf(&provider.PublicKey, "provider")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMerchant(MerchantConfig{Trusted: JWKS{Keys: []JWK{jwk}}, BaseURL: "https://entrycheck.example", Uses: store, Now: func() time.Time { return *now }})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var testSale = Sale{ItemID: "check", Title: "Entry requirements", Resource: "https://entrycheck.example/v1/check?passport=DEU&destination=THA",
	Pay: x402.ExactUSDC("30000", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", 120)}

// delegatedPair builds, for a new checkout, closed mandates an agent signs
// under an open checkout mandate and the open payment mandate given.
func delegatedPair(t *testing.T, m *Merchant, provider, agent *ecdsa.PrivateKey, openPayment string, now time.Time) (string, string) {
	t.Helper()
	o, err := m.Checkout(testSale)
	if err != nil {
		t.Fatal(err)
	}
	cnf, _ := jwkOf(&agent.PublicKey, "")
	openCheckout := issue(t, provider, map[string]any{}, map[string]any{
		"vct": VCTCheckoutOpen, "cnf": map[string]any{"jwk": cnf}, "exp": now.Add(time.Hour).Unix(),
		"constraints": []any{map[string]any{"type": "checkout.line_items", "items": []any{
			map[string]any{"id": "l", "acceptable_items": []any{map[string]any{"id": "check", "title": "t"}}, "quantity": 1}}}},
	})
	binding := func(prev string) map[string]any {
		return map[string]any{"aud": o.Audience, "nonce": o.Nonce, "iat": now.Unix(), "sd_hash": hashOf(prev)}
	}
	checkout := openCheckout + "~" + issue(t, agent, binding(openCheckout), map[string]any{
		"vct": VCTCheckout, "checkout_jwt": o.CheckoutJWT, "checkout_hash": o.CheckoutHash})
	payment := openPayment + "~" + issue(t, agent, binding(openPayment), map[string]any{
		"vct": VCTPayment, "transaction_id": o.CheckoutHash, "payee": o.Payee, "payment_amount": o.PaymentAmount, "payment_instrument": o.PaymentInstrument})
	return checkout, payment
}

func openPaymentMandate(t *testing.T, provider, agent *ecdsa.PrivateKey, now time.Time, constraints ...any) string {
	t.Helper()
	cnf, _ := jwkOf(&agent.PublicKey, "")
	return issue(t, provider, map[string]any{}, map[string]any{
		"vct": VCTPaymentOpen, "cnf": map[string]any{"jwk": cnf}, "exp": now.Add(72 * time.Hour).Unix(), "constraints": constraints})
}

// TestAgentRecurrence: an open payment mandate with a daily recurrence of
// at most two is accepted once a day, twice in all.
func TestAgentRecurrence(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	provider, agent := newKey(t), newKey(t)
	m := testMerchant(t, provider, &uses{seen: map[string]bool{}}, &now)
	open := openPaymentMandate(t, provider, agent, now, map[string]any{"type": "payment.agent_recurrence", "frequency": "DAILY", "max_occurrences": 2})
	pay := func() *Refusal {
		co, pm := delegatedPair(t, m, provider, agent, open, now)
		_, r := m.Verify(context.Background(), co, pm, Payment{Resource: testSale.Resource, Accepted: testSale.Pay})
		return r
	}
	for i, want := range []string{"", CheckAgentRecurrence, "", CheckAgentRecurrence} {
		if i == 2 {
			now = now.Add(24 * time.Hour)
		}
		if i == 3 {
			now = now.Add(24 * time.Hour)
		}
		got := ""
		if r := pay(); r != nil {
			got = r.Check
		}
		if got != want {
			t.Errorf("use %d on %s: refused %q, want %q", i+1, now.Format(time.DateOnly), got, want)
		}
	}
}

// TestOpenMandateUsedOnce: without a recurrence, an open mandate delegates
// one closed mandate only.
func TestOpenMandateUsedOnce(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	provider, agent := newKey(t), newKey(t)
	m := testMerchant(t, provider, &uses{seen: map[string]bool{}}, &now)
	open := openPaymentMandate(t, provider, agent, now, map[string]any{"type": "payment.amount_range", "currency": "USD", "max": 5})
	for i, want := range []string{"", CheckMandateReplayed} {
		co, pm := delegatedPair(t, m, provider, agent, open, now)
		_, r := m.Verify(context.Background(), co, pm, Payment{Resource: testSale.Resource, Accepted: testSale.Pay})
		if got := checkOf(r); got != want {
			t.Errorf("use %d: refused %q, want %q", i+1, got, want)
		}
	}
}

// TestVerifyRefusals: refusals the end-to-end test does not reach.
func TestVerifyRefusals(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	provider, agent := newKey(t), newKey(t)
	store := &uses{seen: map[string]bool{}}
	m := testMerchant(t, provider, store, &now)
	paid := Payment{Resource: testSale.Resource, Accepted: testSale.Pay}
	verify := func(open string, p Payment) string {
		co, pm := delegatedPair(t, m, provider, agent, open, now)
		_, r := m.Verify(context.Background(), co, pm, p)
		return checkOf(r)
	}
	budget := openPaymentMandate(t, provider, agent, now, map[string]any{"type": "payment.budget", "currency": "USD", "max": 100})
	if got := verify(budget, paid); got != CheckBudget {
		t.Errorf("budget: %q", got)
	}
	expired := openPaymentMandate(t, provider, agent, now.Add(-73*time.Hour))
	if got := verify(expired, paid); got != CheckMandateExpired {
		t.Errorf("expired open mandate: %q", got)
	}
	changed := openPaymentMandate(t, provider, agent, now)
	other := testSale
	other.Resource = "https://entrycheck.example/v1/passport/DEU"
	if got := verify(changed, Payment{Resource: other.Resource, Accepted: testSale.Pay}); got != CheckCheckoutResource {
		t.Errorf("another resource: %q", got)
	}
	store.err = errors.New("database down")
	if got := verify(openPaymentMandate(t, provider, agent, now), paid); got != CheckStoreUnavailable {
		t.Errorf("store down: %q", got)
	}
	if _, r := m.Verify(context.Background(), "", "x~", paid); checkOf(r) != CheckMissingMandate {
		t.Errorf("no checkout mandate: %v", r)
	}
}

func checkOf(r *Refusal) string {
	if r == nil {
		return ""
	}
	return r.Check
}
