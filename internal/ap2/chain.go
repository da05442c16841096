package ap2

import (
	"encoding/json"
	"reflect"
	"time"
)

// KeyBindingMaxAge is how old the key binding of a closed mandate (its iat)
// may be; clockSkew is how far in the future it may be dated.
const (
	KeyBindingMaxAge = 5 * time.Minute
	clockSkew        = time.Minute
)

// mandate is a verified mandate chain: zero or more open mandates, each
// delegating to the key of the next, and the closed mandate last.
type mandate struct {
	closed map[string]any
	opens  []openMandate
	// binding are the claims of the closed mandate's JWT: aud, nonce, iat.
	binding map[string]any
	// reference is the hash of the closed SD-JWT, as sd_hash is computed.
	reference string
}

// openMandate is an open mandate of a chain.
type openMandate struct {
	content map[string]any
	// hash is the hash of its SD-JWT, as sd_hash is computed: what a
	// payment.reference constraint and the use records name.
	hash string
}

// content is the mandate an SD-JWT carries: the one disclosed element of
// its delegate_payload, or its claims when it has none.
func content(sd sdJWT) (map[string]any, bool) {
	dp, ok := sd.claims["delegate_payload"]
	if !ok {
		return sd.claims, true
	}
	arr, _ := dp.([]any)
	if len(arr) != 1 {
		return nil, false
	}
	m, ok := arr[0].(map[string]any)
	return m, ok
}

// verifyChain checks the signatures and delegation of a presented mandate
// of the kind named by its open and closed vct, and the key binding of
// its closed mandate to this merchant and nonce.
func (m *Merchant) verifyChain(presented, openVCT, closedVCT, nonce string) (*mandate, *Refusal) {
	chain, err := parseChain(presented)
	if err != nil {
		return nil, refuse(CheckMalformed, "%s mandate: %v", closedVCT, err)
	}
	if r := m.trusted(chain[0].jwt); r != nil {
		return nil, r
	}
	var md mandate
	for i, sd := range chain {
		c, ok := content(sd)
		if !ok {
			return nil, refuse(CheckMalformed, "SD-JWT %d must disclose exactly one delegate_payload element", i+1)
		}
		if i > 0 {
			if r := delegatedTo(chain[i-1], md.opens[i-1].content, sd); r != nil {
				return nil, r
			}
		}
		if exp, ok := number(c["exp"]); ok && m.now().Unix() >= exp {
			return nil, refuse(CheckMandateExpired, "mandate %d of the chain expired at %s", i+1, time.Unix(exp, 0).UTC().Format(time.RFC3339))
		}
		if i == len(chain)-1 {
			if c["vct"] != closedVCT {
				return nil, refuse(CheckVCT, "the closed mandate's vct is %v, not %s", c["vct"], closedVCT)
			}
			md.closed, md.binding, md.reference = c, sd.claims, hashOf(sd.text)
			break
		}
		if c["vct"] != openVCT {
			return nil, refuse(CheckVCT, "mandate %d of the chain has vct %v, not %s", i+1, c["vct"], openVCT)
		}
		md.opens = append(md.opens, openMandate{content: c, hash: hashOf(sd.text)})
	}
	if r := unchanged(md.opens, md.closed); r != nil {
		return nil, r
	}
	if r := m.keyBinding(md.binding, nonce); r != nil {
		return nil, r
	}
	return &md, nil
}

// trusted checks that a trusted key signed the first JWT of a chain.
func (m *Merchant) trusted(j jws) *Refusal {
	for _, k := range m.trust {
		if j.header.Kid != "" && k.Kid != "" && k.Kid != j.header.Kid {
			continue
		}
		pub, err := k.PublicKey()
		if err == nil && j.verify(pub) {
			return nil
		}
		if j.header.Kid != "" && k.Kid == j.header.Kid {
			return refuse(CheckSignature, "the signature does not verify with the trusted key %q", k.Kid)
		}
	}
	return refuse(CheckUntrustedSigner, "the mandate is not signed by a key this service trusts (kid %q)", j.header.Kid)
}

// delegatedTo checks that next is signed by the key the open mandate
// (prev, whose content is open) confirms in cnf, and bound to it by sd_hash.
func delegatedTo(prev sdJWT, open map[string]any, next sdJWT) *Refusal {
	var cnf struct {
		JWK *JWK `json:"jwk"`
	}
	if decode(open["cnf"], &cnf) != nil || cnf.JWK == nil {
		return refuse(CheckDelegation, "an open mandate must name its agent's key in cnf.jwk")
	}
	pub, err := cnf.JWK.PublicKey()
	if err != nil {
		return refuse(CheckDelegation, "cnf.jwk: %v", err)
	}
	if !next.jwt.verify(pub) {
		return refuse(CheckSignature, "the mandate is not signed by the key its open mandate delegates to")
	}
	if next.claims["sd_hash"] != hashOf(prev.text) {
		return refuse(CheckDelegation, "sd_hash is not the hash of the open mandate it follows")
	}
	return nil
}

// boundClaims are the claims of an open mandate that are not carried on
// to the closed mandate; every other claim must reach it unchanged.
var boundClaims = map[string]bool{"vct": true, "constraints": true, "cnf": true, "iat": true, "exp": true}

func unchanged(opens []openMandate, closed map[string]any) *Refusal {
	for _, o := range opens {
		for k, v := range o.content {
			if !boundClaims[k] && !reflect.DeepEqual(closed[k], v) {
				return refuse(CheckOpenClaims, "the closed mandate changes %q from its open mandate", k)
			}
		}
	}
	return nil
}

// keyBinding checks the closed mandate is meant for this merchant, now,
// and for the nonce of the Checkout JWT.
func (m *Merchant) keyBinding(b map[string]any, nonce string) *Refusal {
	if !audienceIs(b["aud"], m.audience) {
		return refuse(CheckKeyBindingAudience, "aud must be %s", m.audience)
	}
	if b["nonce"] != nonce || nonce == "" {
		return refuse(CheckKeyBindingNonce, "nonce must be the nonce of the 402 answer's ap2 offer (the Checkout JWT's jti)")
	}
	iat, ok := number(b["iat"])
	now := m.now()
	if !ok || time.Unix(iat, 0).After(now.Add(clockSkew)) {
		return refuse(CheckKeyBindingIAT, "iat must be the time the closed mandate was signed")
	}
	if now.Sub(time.Unix(iat, 0)) > KeyBindingMaxAge {
		return refuse(CheckKeyBindingExpired, "the closed mandate was signed at %s, more than %s ago", time.Unix(iat, 0).UTC().Format(time.RFC3339), KeyBindingMaxAge)
	}
	if exp, ok := number(b["exp"]); ok && now.Unix() >= exp {
		return refuse(CheckKeyBindingExpired, "the closed mandate expired at %s", time.Unix(exp, 0).UTC().Format(time.RFC3339))
	}
	return nil
}

func audienceIs(aud any, want string) bool {
	switch a := aud.(type) {
	case string:
		return a == want
	case []any:
		for _, x := range a {
			if x == want {
				return true
			}
		}
	}
	return false
}

// number reads a JSON number that is a whole number.
func number(v any) (int64, bool) {
	f, ok := v.(float64)
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// decode converts decoded JSON v into dst.
func decode(v, dst any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}
