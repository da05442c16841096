package ap2

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// b64 is the unpadded base64url encoding of JOSE and SD-JWT.
var b64 = base64.RawURLEncoding

// JWK is a public EC P-256 key in JSON Web Key form (RFC 7517), the only
// kind AP2 mandates and this service's signatures use.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid,omitempty"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
}

// JWKS is a JSON Web Key Set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// PublicKey returns the ECDSA key k describes.
func (k JWK) PublicKey() (*ecdsa.PublicKey, error) {
	if k.Kty != "EC" || k.Crv != "P-256" {
		return nil, fmt.Errorf("key %q is %s %s, not EC P-256", k.Kid, k.Kty, k.Crv)
	}
	x, errX := b64.DecodeString(k.X)
	y, errY := b64.DecodeString(k.Y)
	if errX != nil || errY != nil || len(x) != 32 || len(y) != 32 {
		return nil, fmt.Errorf("key %q: x and y must be 32 base64url bytes each", k.Kid)
	}
	return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
}

// jwkOf describes the public half of key.
func jwkOf(key *ecdsa.PublicKey, kid string) (JWK, error) {
	b, err := key.Bytes()
	if err != nil || len(b) != 65 {
		return JWK{}, fmt.Errorf("encoding a P-256 public key: %v", err)
	}
	return JWK{Kty: "EC", Crv: "P-256", X: b64.EncodeToString(b[1:33]), Y: b64.EncodeToString(b[33:]), Kid: kid, Use: "sig", Alg: "ES256"}, nil
}

// thumbprint is the RFC 7638 SHA-256 thumbprint of k, used as key id.
func (k JWK) thumbprint() string {
	canonical := `{"crv":"` + k.Crv + `","kty":"` + k.Kty + `","x":"` + k.X + `","y":"` + k.Y + `"}`
	sum := sha256.Sum256([]byte(canonical))
	return b64.EncodeToString(sum[:])
}

// header is the protected header of a JWS.
type header struct {
	Alg string `json:"alg"`
	Typ string `json:"typ,omitempty"`
	Kid string `json:"kid,omitempty"`
}

// jws is a compact JWS split into its parts, its header and payload decoded.
type jws struct {
	header  header
	payload []byte
	signed  string // header.payload, what the signature covers
	sig     []byte
}

// parseJWS splits a compact JWS; it checks the form, not the signature.
func parseJWS(s string) (jws, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return jws{}, errors.New("a JWS has three dot-separated parts")
	}
	h, err := b64.DecodeString(parts[0])
	if err != nil {
		return jws{}, fmt.Errorf("JWS header: %w", err)
	}
	var j jws
	if err := json.Unmarshal(h, &j.header); err != nil {
		return jws{}, fmt.Errorf("JWS header: %w", err)
	}
	if j.payload, err = b64.DecodeString(parts[1]); err != nil {
		return jws{}, fmt.Errorf("JWS payload: %w", err)
	}
	if j.sig, err = b64.DecodeString(parts[2]); err != nil {
		return jws{}, fmt.Errorf("JWS signature: %w", err)
	}
	j.signed = parts[0] + "." + parts[1]
	return j, nil
}

// verify checks the ES256 signature of j with key. Only ES256 is
// accepted: AP2 requires a randomized signature for the Checkout JWT and
// its examples sign everything with it.
func (j jws) verify(key *ecdsa.PublicKey) bool {
	if j.header.Alg != "ES256" || len(j.sig) != 64 {
		return false
	}
	digest := sha256.Sum256([]byte(j.signed))
	r := new(big.Int).SetBytes(j.sig[:32])
	s := new(big.Int).SetBytes(j.sig[32:])
	return ecdsa.Verify(key, digest[:], r, s)
}

// signES256 returns the compact JWS of payload, marshalled as JSON, signed with key.
func signES256(key *ecdsa.PrivateKey, h header, payload any) (string, error) {
	h.Alg = "ES256"
	hb, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	pb, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	signed := b64.EncodeToString(hb) + "." + b64.EncodeToString(pb)
	digest := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		return "", fmt.Errorf("signing: %w", err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signed + "." + b64.EncodeToString(sig), nil
}

// hashOf is the base64url SHA-256 of s, as sd_hash, checkout_hash and the
// disclosure digests are computed.
func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return b64.EncodeToString(sum[:])
}
