package exact

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"
)

// The few EVM primitives the scheme needs, on two small libraries rather
// than a whole Ethereum client: Keccak-256 from x/crypto and secp256k1
// public key recovery from decred's pure-Go curve. The tests check them
// against go-ethereum's own implementations.

// AddressLength is the size of an EVM account address in bytes.
const AddressLength = 20

// Address is an EVM account address: the last 20 bytes of the Keccak-256
// hash of the account's uncompressed public key.
type Address [AddressLength]byte

// Hex is the address in EIP-55 mixed-case checksum form, the way wallets
// and block explorers write it: a hex letter is upper case when the
// matching nibble of keccak256(lower-case hex) is 8 or more.
func (a Address) Hex() string {
	lower := hex.EncodeToString(a[:])
	sum := keccak256([]byte(lower))
	out := make([]byte, 2+len(lower))
	copy(out, "0x")
	for i := range len(lower) {
		c := lower[i]
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		if c >= 'a' && nibble >= 8 {
			c -= 'a' - 'A'
		}
		out[2+i] = c
	}
	return string(out)
}

// word is the address as a 32-byte ABI word (left-padded with zeros).
func (a Address) word() []byte {
	w := make([]byte, 32)
	copy(w[32-AddressLength:], a[:])
	return w
}

// Hash is a 32-byte Keccak-256 digest.
type Hash [32]byte

// keccak256 is Ethereum's Keccak-256 (the original Keccak padding, not the
// standardised SHA3-256) of the concatenated parts.
func keccak256(parts ...[]byte) Hash {
	k := sha3.NewLegacyKeccak256()
	for _, p := range parts {
		k.Write(p)
	}
	var h Hash
	k.Sum(h[:0])
	return h
}

// AddressOf is the address of a secp256k1 public key.
func AddressOf(pub *secp256k1.PublicKey) Address {
	// The uncompressed serialisation is 0x04 ‖ X ‖ Y; the address hashes X ‖ Y.
	h := keccak256(pub.SerializeUncompressed()[1:])
	var a Address
	copy(a[:], h[32-AddressLength:])
	return a
}

// recoverSigner returns the address that signed digest with sig, a 65-byte
// r‖s‖v signature. v may be 27/28 or 0/1; s must be in the lower half of
// the curve order, as the token's ECRecover requires, so a signature
// accepted here is accepted on-chain.
func recoverSigner(digest Hash, sig []byte) (Address, error) {
	if len(sig) != 65 {
		return Address{}, fmt.Errorf("signature is %d bytes, want 65", len(sig))
	}
	v := sig[64]
	switch v {
	case 27, 28:
		v -= 27
	case 0, 1:
	default:
		return Address{}, fmt.Errorf("signature v is %d, want 27, 28, 0 or 1", sig[64])
	}
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(sig[:32]) || r.IsZero() || s.SetByteSlice(sig[32:64]) || s.IsZero() || s.IsOverHalfOrder() {
		return Address{}, errors.New("signature r or s out of range (s must be in the lower half of the curve order)")
	}
	// decred's compact form puts the recovery byte first, as 27 + recovery
	// id, plus 4 when the key is compressed; Ethereum addresses hash the
	// uncompressed key, so the flag stays off.
	compact := make([]byte, 65)
	compact[0] = 27 + v
	copy(compact[1:], sig[:64])
	pub, _, err := ecdsa.RecoverCompact(compact, digest[:])
	if err != nil {
		return Address{}, fmt.Errorf("no signer recovered: %w", err)
	}
	return AddressOf(pub), nil
}
