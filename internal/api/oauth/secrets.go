package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// hashSecret hashes a high-entropy secret. Secrets are 256 random bits, so a
// plain SHA-256 cannot be brute-forced and needs no slow KDF.
func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

func secretMatches(secret, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(hash)) == 1
}

// The random part of client and token ids: idBytes random bytes, written
// as idHexLength hex digits.
const (
	idBytes     = 12
	idHexLength = 2 * idBytes
)

// wellFormedID tells an id the service could have issued: prefix, then
// lower-case hex of the issued length. Anything else is unknown without
// asking the database, which refuses some bytes (NUL, invalid UTF-8) with
// an error instead of "no such row".
func wellFormedID(id, prefix string) bool {
	hexPart, ok := strings.CutPrefix(id, prefix)
	if !ok || len(hexPart) != idHexLength {
		return false
	}
	for _, c := range []byte(hexPart) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
