package quota

import (
	"context"
	"testing"
)

// A day's address hashes depend on the secret, the day and the day's salt:
// they change daily, and once the salt is gone the secret alone does not
// reproduce them.
func TestIPHashesNeedTheDaysSalt(t *testing.T) {
	salts := map[string]string{"2026-11-22": "s1", "2026-11-23": "s2"}
	saltOf := func(_ context.Context, day string) (string, error) { return salts[day], nil }
	hash := func(h *Hasher, day string) string {
		t.Helper()
		v, err := h.Hash(context.Background(), day, "ip", "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	h := NewHasher([]byte("secret"), saltOf)
	a, b := hash(h, "2026-11-22"), hash(h, "2026-11-23")
	if a == b || a == "192.0.2.1" || len(a) != 32 || hash(h, "2026-11-23") != b {
		t.Errorf("hashes %q %q", a, b)
	}
	if other := hash(NewHasher([]byte("other secret"), saltOf), "2026-11-22"); other == a {
		t.Error("another secret gives the same hash")
	}
	salts["2026-11-22"] = "a new salt" // the old one was deleted
	if again := hash(NewHasher([]byte("secret"), saltOf), "2026-11-22"); again == a {
		t.Error("the secret alone reproduces a hash whose salt is gone")
	}
	if KeyFingerprint([]byte("secret")) == KeyFingerprint([]byte("other secret")) || len(KeyFingerprint([]byte("secret"))) != 32 {
		t.Error("fingerprints do not tell keys apart")
	}
}
