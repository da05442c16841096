package ap2

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Merchant is the service in the AP2 merchant role: it signs Checkout JWTs
// and receipts with its key, and accepts mandates signed by the trusted keys.
type Merchant struct {
	key   *ecdsa.PrivateKey
	jwk   JWK
	trust []JWK
	// identity is who the service is in checkouts: id and website the
	// base URL, name the service's name.
	identity Party
	// audience is what a key-binding JWT's aud must be: the base URL.
	audience string
	jwksURI  string
	uses     UseStore
	now      func() time.Time
}

// MerchantConfig is what a Merchant is built from.
type MerchantConfig struct {
	// Key signs; nil makes one.
	Key *ecdsa.PrivateKey
	// Trusted are the keys that may sign a mandate (user keys, agent
	// providers' keys); none, every mandate is refused.
	Trusted JWKS
	// BaseURL is the service's public address.
	BaseURL string
	// JWKSPath is where the service publishes its key, below BaseURL.
	JWKSPath string
	Uses     UseStore
	Now      func() time.Time
}

// NewMerchant builds the merchant of cfg.
func NewMerchant(cfg MerchantConfig) (*Merchant, error) {
	key := cfg.Key
	if key == nil {
		var err error
		if key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
			return nil, fmt.Errorf("making an AP2 key: %w", err)
		}
	}
	jwk, err := jwkOf(&key.PublicKey, "")
	if err != nil {
		return nil, err
	}
	jwk.Kid = jwk.thumbprint()
	for _, k := range cfg.Trusted.Keys {
		if _, err := k.PublicKey(); err != nil {
			return nil, fmt.Errorf("trusted AP2 key: %w", err)
		}
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("AP2 merchant: base URL %q has no host", cfg.BaseURL)
	}
	base := strings.TrimSuffix(cfg.BaseURL, "/")
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Merchant{
		key: key, jwk: jwk, trust: cfg.Trusted.Keys,
		identity: Party{ID: base, Name: "entrycheck", Website: base},
		audience: base, jwksURI: base + cfg.JWKSPath, uses: cfg.Uses, now: now,
	}, nil
}

// JWKS is the set of the service's public keys, which verify its Checkout
// JWTs and receipts.
func (m *Merchant) JWKS() JWKS { return JWKS{Keys: []JWK{m.jwk}} }

// Identity is the service as a merchant.
func (m *Merchant) Identity() Party { return m.identity }

// ReadKey reads a PEM EC P-256 private key (SEC 1 "EC PRIVATE KEY" or
// PKCS #8 "PRIVATE KEY").
func ReadKey(pemBytes []byte) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return p256(k)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("not an EC private key: %w", err)
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an EC private key")
	}
	return p256(ec)
}

func p256(k *ecdsa.PrivateKey) (*ecdsa.PrivateKey, error) {
	if k.Curve != elliptic.P256() {
		return nil, errors.New("the key is not on P-256")
	}
	return k, nil
}

// ReadJWKS reads a JWKS document of EC P-256 keys.
func ReadJWKS(b []byte) (JWKS, error) {
	var s JWKS
	if err := json.Unmarshal(b, &s); err != nil {
		return JWKS{}, fmt.Errorf("reading a JWKS: %w", err)
	}
	for _, k := range s.Keys {
		if _, err := k.PublicKey(); err != nil {
			return JWKS{}, err
		}
	}
	return s, nil
}
