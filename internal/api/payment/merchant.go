package payment

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// NewMerchant builds the AP2 merchant of cfg: its key from cfg.AP2Key, or
// a key for this run only; the keys trusted to sign mandates from
// cfg.AP2TrustedKeys, or none. Uses are recorded in nonces.
func NewMerchant(cfg config.Config, nonces NonceStore, clock entrycheck.Clock, log *slog.Logger) (*ap2.Merchant, error) {
	mc := ap2.MerchantConfig{BaseURL: cfg.BaseURL, JWKSPath: discovery.PathAP2JWKS, Uses: nonces}
	if clock != nil {
		mc.Now = clock.Now
	}
	if cfg.AP2Key != "" {
		b, err := os.ReadFile(cfg.AP2Key)
		if err != nil {
			return nil, fmt.Errorf("reading the AP2 key: %w", err)
		}
		if mc.Key, err = ap2.ReadKey(b); err != nil {
			return nil, fmt.Errorf("the AP2 key %s: %w", cfg.AP2Key, err)
		}
	} else {
		log.Warn("no AP2 key configured (--ap2-key, ENTRYCHECK_AP2_KEY): signing with a key made for this run; its Checkout JWTs and receipts will not verify after a restart")
	}
	if cfg.AP2TrustedKeys != "" {
		b, err := os.ReadFile(cfg.AP2TrustedKeys)
		if err != nil {
			return nil, fmt.Errorf("reading the AP2 trusted keys: %w", err)
		}
		if mc.Trusted, err = ap2.ReadJWKS(b); err != nil {
			return nil, fmt.Errorf("the AP2 trusted keys %s: %w", cfg.AP2TrustedKeys, err)
		}
	}
	return ap2.NewMerchant(mc)
}
