package x402

import (
	"encoding/base64"
	"encoding/json"
	"testing"
)

func TestAtomicUSDC(t *testing.T) {
	for in, want := range map[string]string{"0.03": "30000", "0.15": "150000", "0.10": "100000", "1": "1000000", "0.000001": "1"} {
		if got, err := AtomicUSDC(in); err != nil || got != want {
			t.Errorf("AtomicUSDC(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-1", "0.0000001", "abc"} {
		if _, err := AtomicUSDC(bad); err == nil {
			t.Errorf("AtomicUSDC(%s) accepted", bad)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	offer := PaymentRequired{X402Version: Version, Resource: ResourceInfo{URL: "https://x/v1/check"}, Accepts: []PaymentRequirements{ExactUSDC("30000", "0xabc", 60)}}
	h, err := Encode(offer)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(h)
	if err != nil {
		t.Fatal(err)
	}
	var back PaymentRequired
	if err := json.Unmarshal(raw, &back); err != nil || back.Accepts[0].Network != NetworkBase || back.Accepts[0].Asset != USDCBase {
		t.Errorf("%+v %v", back, err)
	}
}

func TestDecode(t *testing.T) {
	h, err := Encode(PaymentPayload{X402Version: Version, Accepted: ExactUSDC("100000", "0xabc", 60), Payload: json.RawMessage(`{"signature":"0x1"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var p PaymentPayload
	if err := Decode(h, &p); err != nil || p.Accepted.Amount != "100000" || string(p.Payload) != `{"signature":"0x1"}` {
		t.Errorf("%+v %v", p, err)
	}
	for _, bad := range []string{"not base64!", base64.StdEncoding.EncodeToString([]byte("[1]"))} {
		if err := Decode(bad, &p); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
}
