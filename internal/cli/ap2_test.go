package cli_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestServeReadsTheAP2Keys: serve signs with the --ap2-key it is given,
// warns when it makes a key for the run, and refuses keys it cannot read.
func TestServeReadsTheAP2Keys(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close() // serve stops at the taken port once the keys are read
	dir := t.TempDir()
	t.Setenv("ENTRYCHECK_VERIFY_AT", "")
	t.Setenv("ENTRYCHECK_IP_HASH_KEY", "the tests' key, of at least thirty-two characters")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("ap2.pem", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
	junk := write("junk.pem", []byte("not a key"))
	point, err := key.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	x, y := base64.RawURLEncoding.EncodeToString(point[1:33]), base64.RawURLEncoding.EncodeToString(point[33:])
	trusted := write("trusted.jwks", []byte(`{"keys":[{"kty":"EC","crv":"P-256","x":"`+x+`","y":"`+y+`","kid":"user-1"}]}`))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no key", nil, "made for this run"},
		{"a key and trusted keys", []string{"--ap2-key", good, "--ap2-trusted-keys", trusted}, "listening on"},
		{"an unreadable key", []string{"--ap2-key", junk}, "the AP2 key"},
		{"unreadable trusted keys", []string{"--ap2-trusted-keys", junk}, "the AP2 trusted keys"},
	} {
		args := append([]string{"serve", "--addr", ln.Addr().String(), "--public", dir, "--db", filepath.Join(dir, "e.db"),
			"--data", datatest.MatrixDir(t, datatest.Current)}, tc.args...)
		code, _, stderr := run(t, args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr lacks %q: %s", tc.name, code, tc.want, stderr)
		}
		if tc.name == "a key and trusted keys" && strings.Contains(stderr, "made for this run") {
			t.Errorf("%s: warns of a key made for the run: %s", tc.name, stderr)
		}
	}
}
