package x402

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
)

// knownPayment is a PAYMENT-SIGNATURE payload as a client signs it (the
// viem known answer of package exact).
const knownPayment = `{"x402Version":2,"resource":{"url":"https://entrycheck.example/v1/check?passport=DEU&destination=THA"},` +
	`"accepted":{"scheme":"exact","network":"eip155:8453","amount":"30000","asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",` +
	`"payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","maxTimeoutSeconds":120,"extra":{"name":"USD Coin","version":"2"}},` +
	`"payload":{"signature":"0x2f441915299e6dca0b5c52bad369fce1f2223b5401b564de644f4cfb97983553137b8f0d8bac7d2c02b2bfcf26cd21f8013af11a38cc4332b82022caaf634e631b",` +
	`"authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","to":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C","value":"30000",` +
	`"validAfter":"1740672089","validBefore":"1740672154","nonce":"0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480"}}}`

// FuzzDecode reads PAYMENT-SIGNATURE headers: the fuzzed bytes both as the
// header itself and as the JSON a well-formed header carries. A header is
// read or refused with an error; a payload read writes out (Encode) as a
// header that reads back to the same payload, and writes out the same
// again, so that what a server stores or forwards is what it was sent.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(knownPayment))
	f.Add([]byte(base64.StdEncoding.EncodeToString([]byte(knownPayment))))
	f.Add([]byte(`{"x402Version":2,"accepted":{},"payload":null,"extensions":{"bazaar":{"n":1e308,"x":[-0,true,null]}}}`))
	f.Add([]byte(`{"x402Version":"2","payload":{"signature":"\ud800"}}`))
	f.Add([]byte(" e30= \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, header := range []string{string(data), base64.StdEncoding.EncodeToString(data)} {
			var p PaymentPayload
			if err := Decode(header, &p); err != nil {
				continue
			}
			once, err := Encode(p)
			if err != nil {
				t.Fatalf("payload %+v read from %q does not encode: %v", p, header, err)
			}
			var back PaymentPayload
			if err := Decode(once, &back); err != nil {
				t.Fatalf("Encode wrote %q, which does not decode: %v", once, err)
			}
			twice, err := Encode(back)
			if err != nil || twice != once {
				t.Fatalf("payload written %q, read back and written again %q (%v)", once, twice, err)
			}
			var third PaymentPayload
			if err := Decode(twice, &third); err != nil || !reflect.DeepEqual(third, back) {
				t.Fatalf("payload %+v read again as %+v (%v)", back, third, err)
			}
			if !json.Valid(back.Payload) {
				t.Fatalf("payload field %q is not JSON", back.Payload)
			}
		}
	})
}
