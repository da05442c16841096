package quota

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
)

// Hasher turns client addresses into the keys of their quota buckets, so
// that no address is stored. A day's hashes are keyed with
// HMAC(secret, day, salt): the secret is the configured address-hash key
// (shared by the instances that share a database), the salt a random value
// the database keeps for that day only and deletes with the day's quota
// rows (store.Prune). Neither the key file nor a copy of the database alone
// reverses a hash by enumerating addresses, and once a day's salt is gone
// nothing does. The day's hashes are remembered (up to maxCachedHashes)
// because the same callers come back many times a day.
type Hasher struct {
	secret []byte
	// salt returns the day's salt, creating it on first use.
	salt  func(ctx context.Context, day string) (string, error)
	mu    sync.Mutex
	day   string
	dk    []byte
	cache map[string]string
}

const maxCachedHashes = 100_000

// NewHasher keys the hashes with secret and each day's salt, which salt
// returns (creating it on first use).
func NewHasher(secret []byte, salt func(context.Context, string) (string, error)) *Hasher {
	return &Hasher{secret: secret, salt: salt}
}

// Hash is the bucket key of an address or network (kind "ip" or "net") on day.
func (h *Hasher) Hash(ctx context.Context, day, kind, value string) (string, error) {
	id := kind + ":" + value
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.day != day || len(h.cache) >= maxCachedHashes {
		salt, err := h.salt(ctx, day)
		if err != nil {
			return "", fmt.Errorf("the address-hash salt of %s: %w", day, err)
		}
		m := hmac.New(sha256.New, h.secret)
		m.Write([]byte(day + "\x00" + salt))
		h.day, h.dk, h.cache = day, m.Sum(nil), map[string]string{}
	}
	if v, ok := h.cache[id]; ok {
		return v, nil
	}
	m := hmac.New(sha256.New, h.dk)
	m.Write([]byte(id))
	v := hex.EncodeToString(m.Sum(nil)[:16])
	h.cache[id] = v
	return v, nil
}

// KeyFingerprint identifies an address-hash key without revealing
// it. The database records the first instance's; an instance with another
// key is refused at start, since it would count every address in buckets
// of its own and double every quota.
func KeyFingerprint(secret []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("entrycheck address-hash key fingerprint"))
	return hex.EncodeToString(m.Sum(nil)[:16])
}
