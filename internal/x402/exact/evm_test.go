package exact

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	decredecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// The package computes Keccak-256, EIP-55 addresses, EIP-712 digests and
// signer recovery on its own small libraries; go-ethereum, linked only into
// these tests, is the independent implementation they must agree with.

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// randomUint256 is a random integer of up to 256 bits, often small, so that
// both short and full-width words are encoded.
func randomUint256(t *testing.T, r *mrand.Rand) *big.Int {
	return new(big.Int).SetBytes(randomBytes(t, 1+r.IntN(32)))
}

func TestKeccak256MatchesGoEthereum(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	for range 500 {
		a, b := randomBytes(t, r.IntN(300)), randomBytes(t, r.IntN(300))
		if got, want := keccak256(a, b), crypto.Keccak256(a, b); !strings.EqualFold(got.Hex(), "0x"+hex.EncodeToString(want)) {
			t.Fatalf("keccak256(%x, %x) = %s, go-ethereum %x", a, b, got.Hex(), want)
		}
	}
	// The empty input's hash, as every Ethereum tool prints it.
	if got := keccak256().Hex(); got != "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470" {
		t.Errorf("keccak256() = %s", got)
	}
}

func TestAddressHexEIP55(t *testing.T) {
	// The examples of EIP-55 itself.
	for _, want := range []string{
		"0x52908400098527886E0F7030069857D2E4169EE7",
		"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
		"0xde709f2102306220921060314715629080e2fb77",
		"0x27b1fdb04752bbc536007a920d24acb045561c26",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
		"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
	} {
		a, ok := ParseAddress(strings.ToLower(want))
		if !ok {
			t.Fatalf("ParseAddress(%q) not parsed", want)
		}
		if got := a.Hex(); got != want {
			t.Errorf("Hex() = %s, EIP-55 %s", got, want)
		}
	}
	for range 500 {
		var a Address
		copy(a[:], randomBytes(t, AddressLength))
		if got, want := a.Hex(), common.Address(a).Hex(); got != want {
			t.Fatalf("Hex() = %s, go-ethereum %s", got, want)
		}
	}
}

// TestDigestAndRecoveryMatchGoEthereum signs random authorizations under
// random domains with random keys using go-ethereum's generic EIP-712
// encoder and signer, and checks that the package computes the same digest
// and recovers the same signer, with v as 27/28 and as 0/1.
func TestDigestAndRecoveryMatchGoEthereum(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 4))
	n := 200
	if testing.Short() {
		n = 20
	}
	for i := range n {
		key := mustKey(t)
		signer := crypto.PubkeyToAddress(key.PublicKey)
		var to, contract Address
		copy(to[:], randomBytes(t, AddressLength))
		copy(contract[:], randomBytes(t, AddressLength))
		a := Authorization{
			ChainID:     big.NewInt(1 + r.Int64N(1<<40)),
			From:        Address(signer),
			To:          to,
			Value:       randomUint256(t, r),
			ValidAfter:  randomUint256(t, r),
			ValidBefore: randomUint256(t, r),
		}
		copy(a.Nonce[:], randomBytes(t, 32))
		d := Domain{
			Name:              "Token " + hex.EncodeToString(randomBytes(t, r.IntN(40))),
			Version:           big.NewInt(r.Int64N(100)).String(),
			ChainID:           a.ChainID,
			VerifyingContract: contract,
		}
		// Addresses go to apitypes in lower case, so its own checksum
		// handling cannot hide a difference in ours.
		msg := TransferAuthorization{
			From: strings.ToLower(a.From.Hex()), To: strings.ToLower(a.To.Hex()),
			Value: a.Value.String(), ValidAfter: a.ValidAfter.String(), ValidBefore: a.ValidBefore.String(),
			Nonce: a.NonceHex(),
		}
		want, _, err := apitypes.TypedDataAndHash(typedData(d.Name, d.Version, a.ChainID.Int64(), strings.ToLower(contract.Hex()), msg))
		if err != nil {
			t.Fatalf("case %d: apitypes: %v", i, err)
		}
		digest := Digest(d, a)
		if digest != Hash(want) {
			t.Fatalf("case %d: digest %s, go-ethereum %x", i, digest.Hex(), want)
		}
		sig, err := crypto.Sign(digest[:], key)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []byte{sig[64], sig[64] + 27} {
			s := append(append([]byte(nil), sig[:64]...), v)
			got, err := recoverSigner(digest, s)
			if err != nil {
				t.Fatalf("case %d, v=%d: %v", i, v, err)
			}
			if got != Address(signer) {
				t.Fatalf("case %d, v=%d: recovered %s, signer %s", i, v, got.Hex(), signer.Hex())
			}
		}
	}
}

// TestRecoverySignatureChecksMatchGoEthereum feeds the recovery damaged and
// out-of-range signatures and checks it accepts exactly those go-ethereum
// accepts under the same rules (homestead: low s), with the same signer.
func TestRecoverySignatureChecksMatchGoEthereum(t *testing.T) {
	r := mrand.New(mrand.NewPCG(5, 6))
	n := crypto.S256().Params().N
	halfN := new(big.Int).Rsh(n, 1)
	key := mustKey(t)
	digest := keccak256(randomBytes(t, 32))
	good, err := crypto.Sign(digest[:], key)
	if err != nil {
		t.Fatal(err)
	}
	put := func(sig []byte, at int, x *big.Int) { x.FillBytes(sig[at : at+32]) }
	cases := map[string][]byte{}
	mk := func(name string, edit func(s []byte)) {
		s := append([]byte(nil), good...)
		edit(s)
		cases[name] = s
	}
	mk("good", func([]byte) {})
	mk("r zero", func(s []byte) { put(s, 0, new(big.Int)) })
	mk("s zero", func(s []byte) { put(s, 32, new(big.Int)) })
	mk("r = N", func(s []byte) { put(s, 0, n) })
	mk("s = N/2", func(s []byte) { put(s, 32, halfN) })
	mk("s = N/2 + 1", func(s []byte) { put(s, 32, new(big.Int).Add(halfN, big.NewInt(1))) })
	mk("high s", func(s []byte) {
		put(s, 32, new(big.Int).Sub(n, new(big.Int).SetBytes(s[32:64])))
		s[64] ^= 1
	})
	mk("v = 2", func(s []byte) { s[64] = 2 })
	mk("v = 29", func(s []byte) { s[64] = 29 })
	for i := range 300 {
		mk("random "+big.NewInt(int64(i)).String(), func(s []byte) {
			copy(s, randomBytes(t, 64))
			s[64] = byte(r.IntN(2))
			if r.IntN(2) == 0 {
				s[32] &= 0x7f // usually below N/2, so recovery itself is exercised
			}
		})
	}
	for name, sig := range cases {
		got, err := recoverSigner(digest, sig)

		v := sig[64]
		if v >= 27 {
			v -= 27
		}
		var want common.Address
		ok := v <= 1 && crypto.ValidateSignatureValues(v, new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64]), true)
		if ok {
			norm := append(append([]byte(nil), sig[:64]...), v)
			pub, perr := crypto.SigToPub(digest[:], norm)
			ok = perr == nil
			if ok {
				want = crypto.PubkeyToAddress(*pub)
			}
		}
		switch {
		case ok != (err == nil):
			t.Errorf("%s: accepted %v (%v), go-ethereum accepts %v", name, err == nil, err, ok)
		case ok && got != Address(want):
			t.Errorf("%s: recovered %s, go-ethereum %s", name, got.Hex(), want.Hex())
		}
	}
	if _, err := recoverSigner(digest, good[:64]); err == nil {
		t.Error("a 64-byte signature was accepted")
	}
}

// TestRecoverSignCompact checks the byte order between decred's compact
// signatures (recovery byte first) and Ethereum's r‖s‖v, as a client that
// signs with decred (scripts/reqbench) converts them.
func TestRecoverSignCompact(t *testing.T) {
	for range 50 {
		key, err := secp256k1.GeneratePrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		digest := keccak256(randomBytes(t, 32))
		compact := decredecdsa.SignCompact(key, digest[:], false)
		sig := append(compact[1:65:65], compact[0])
		got, err := recoverSigner(digest, sig)
		if err != nil {
			t.Fatal(err)
		}
		want := crypto.PubkeyToAddress(*key.ToECDSA().Public().(*ecdsa.PublicKey))
		if got != Address(want) || AddressOf(key.PubKey()) != Address(want) {
			t.Fatalf("recovered %s, AddressOf %s, go-ethereum %s", got.Hex(), AddressOf(key.PubKey()).Hex(), want.Hex())
		}
	}
}

// Hex is the hash as 0x-prefixed lower-case hex, for the tests' messages.
func (h Hash) Hex() string { return "0x" + hex.EncodeToString(h[:]) }
