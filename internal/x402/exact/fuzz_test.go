package exact

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// knownAnswer is the payload of TestKnownAnswer, signed by viem, as a
// client sends it in PAYMENT-SIGNATURE, and a moment it is valid at.
const knownAnswer = `{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:8453","amount":"30000",` +
	`"asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":120,` +
	`"extra":{"name":"USD Coin","version":"2"}},"payload":{"signature":"0x2f441915299e6dca0b5c52bad369fce1f2223b5401b564de644f4cfb97983553137b8f0d8bac7d2c02b2bfcf26cd21f8013af11a38cc4332b82022caaf634e631b",` +
	`"authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","to":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","value":"30000",` +
	`"validAfter":"1740672089","validBefore":"1740672154","nonce":"0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480"}}}`

const knownAnswerAt = 1740672100

// FuzzVerify checks payment payloads against the offer of a check. Every
// refusal is an *Error with a machine reason, never a panic; a payment
// accepted pays exactly the offer to its payTo within its validity, from
// the address the signature recovers; and the signature binds the nonce:
// the same payment with another nonce is refused.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(knownAnswer), int64(knownAnswerAt))
	f.Add([]byte(knownAnswer), int64(1740672154))
	f.Add([]byte(`{"x402Version":2,"accepted":{"scheme":"exact","network":"eip155:8453"},"payload":{"signature":"0x","authorization":{"from":"0x0"}}}`), int64(0))
	f.Add([]byte(`{"x402Version":2,"payload":"e30="}`), int64(-1))
	f.Fuzz(func(t *testing.T, data []byte, at int64) {
		var payload x402.PaymentPayload
		if json.Unmarshal(data, &payload) != nil {
			return
		}
		now := time.Unix(at, 0)
		auth, err := Verify(payload, offer(), now)
		if err != nil {
			if ReasonOf(err) == "" {
				t.Fatalf("refusal %v (%T) has no reason", err, err)
			}
			return
		}
		if auth.Value.String() != offer().Amount || auth.To.Hex() != payTo || auth.Network != x402.NetworkBase {
			t.Errorf("accepted %+v for the offer %+v", auth, offer())
		}
		if t0 := now.Unix(); auth.ValidAfter.Int64() > t0 || auth.ValidBefore.Int64() <= t0 {
			t.Errorf("accepted at %d an authorization valid from %s before %s", t0, auth.ValidAfter, auth.ValidBefore)
		}
		var p Payload
		if err := json.Unmarshal(payload.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if from, _ := ParseAddress(p.Authorization.From); from != auth.From {
			t.Errorf("payer %s, authorization from %s", auth.From.Hex(), p.Authorization.From)
		}
		other := []byte(p.Authorization.Nonce)
		if last := len(other) - 1; other[last] == '0' {
			other[last] = '1'
		} else {
			other[last] = '0'
		}
		p.Authorization.Nonce = string(other)
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		payload.Payload = raw
		if _, err := Verify(payload, offer(), now); ReasonOf(err) != ReasonSignature {
			t.Errorf("the payment with nonce %s: %v, want a signature refusal", p.Authorization.Nonce, err)
		}
	})
}
