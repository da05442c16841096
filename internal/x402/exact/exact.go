// Package exact verifies x402 "exact" payments on EVM networks made with
// the EIP-3009 asset transfer method (transferWithAuthorization, as USDC
// supports): the client signs an EIP-712 TransferWithAuthorization for
// exactly the offered amount and recipient, and whoever settles submits it.
//
// Verify checks a PaymentPayload against the requirements the server
// offered, without any chain access: the offer matches, the authorization
// pays the offered amount to the offered address within its validity window,
// and its signature recovers the payer. It does not check the payer's
// balance, simulate the transfer, or support smart-contract wallets
// (ERC-1271/ERC-6492 signatures): those need a chain client.
//
// LocalFacilitator adds a settlement that only records the authorization's
// nonce, for development and tests. Nothing moves on-chain.
//
// Reference: x402 specs/schemes/exact/scheme_exact_evm.md (§1, EIP-3009).
package exact

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/entrycheck/entrycheck/internal/jsonproblem"
	"math/big"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// Machine reasons of a refused payment, in the style of x402's invalidReason
// and errorReason. The EVM ones follow the x402 reference facilitator's.
const (
	ReasonInvalidVersion      = "invalid_x402_version"
	ReasonInvalidScheme       = "invalid_scheme"
	ReasonInvalidNetwork      = "invalid_network"
	ReasonInvalidPayload      = "invalid_payload"
	ReasonAssetMismatch       = "invalid_exact_evm_asset_mismatch"
	ReasonRequirementMismatch = "invalid_exact_evm_requirements_mismatch"
	ReasonMissingDomain       = "invalid_exact_evm_missing_eip712_domain"
	ReasonRecipientMismatch   = "invalid_exact_evm_payload_recipient_mismatch"
	ReasonValue               = "invalid_exact_evm_payload_authorization_value"
	ReasonValidAfter          = "invalid_exact_evm_payload_authorization_valid_after"
	ReasonValidBefore         = "invalid_exact_evm_payload_authorization_valid_before"
	ReasonNonce               = "invalid_exact_evm_payload_authorization_nonce"
	ReasonSignature           = "invalid_exact_evm_payload_signature"
	ReasonNonceAlreadyUsed    = "invalid_exact_evm_nonce_already_used"
)

// Error is a refused payment: Reason is the machine code, Message says why
// to a person. Payer is the claimed payer when the payload names one (it is
// only proven when the reason is not a signature failure).
type Error struct {
	Reason  string
	Message string
	Payer   string
}

func (e *Error) Error() string { return e.Reason + ": " + e.Message }

func refuse(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// ReasonOf returns the machine reason of err if it is an *Error, else "".
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// Payload is the scheme's payload, x402 PaymentPayload.payload, for the
// EIP-3009 method.
type Payload struct {
	// Signature is the 65-byte r‖s‖v signature, 0x-prefixed hex.
	Signature     string                `json:"signature"`
	Authorization TransferAuthorization `json:"authorization"`
}

// TransferAuthorization is the signed EIP-3009 message, as the spec writes
// it: addresses and the nonce in 0x hex, integers in decimal strings.
type TransferAuthorization struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Value       string `json:"value"`
	ValidAfter  string `json:"validAfter"`
	ValidBefore string `json:"validBefore"`
	Nonce       string `json:"nonce"`
}

// Authorization is a verified transfer authorization: the signature
// recovers From, and it pays exactly the offered amount of Asset on Network
// to To.
type Authorization struct {
	Network     string // CAIP-2, "eip155:<chainId>"
	ChainID     *big.Int
	Asset       Address
	From        Address
	To          Address
	Value       *big.Int
	ValidAfter  *big.Int
	ValidBefore *big.Int
	Nonce       [32]byte
	Signature   []byte // 65 bytes, as sent
}

// NonceHex is the nonce as 0x-prefixed lower-case hex.
func (a Authorization) NonceHex() string { return "0x" + hex.EncodeToString(a.Nonce[:]) }

// Key names an authorization as the token contract counts it, once per
// (network, asset, from, nonce): the CAIP-2 network and lower-case 0x hex
// for the rest, as NonceStore and the settlement records take them.
type Key struct{ Network, Asset, From, Nonce string }

// Key returns the authorization's Key.
func (a Authorization) Key() Key {
	return Key{Network: a.Network, Asset: strings.ToLower(a.Asset.Hex()), From: strings.ToLower(a.From.Hex()), Nonce: a.NonceHex()}
}

// Domain is the EIP-712 domain of an EIP-3009 token.
type Domain struct {
	Name              string
	Version           string
	ChainID           *big.Int
	VerifyingContract Address
}

// The EIP-712 type strings; their hashes are part of every digest.
const (
	domainType = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
	// TransferWithAuthorizationType is the EIP-3009 primary type signed by the payer.
	TransferWithAuthorizationType = "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
)

// Separator is the EIP-712 domain separator.
func (d Domain) Separator() Hash {
	name, version := keccak256([]byte(d.Name)), keccak256([]byte(d.Version))
	typeHash := keccak256([]byte(domainType))
	return keccak256(typeHash[:], name[:], version[:], word(d.ChainID), d.VerifyingContract.word())
}

// Digest is the EIP-712 hash the payer signs:
// keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(TransferWithAuthorization)).
func Digest(d Domain, a Authorization) Hash {
	typeHash := keccak256([]byte(TransferWithAuthorizationType))
	structHash := keccak256(
		typeHash[:],
		a.From.word(),
		a.To.word(),
		word(a.Value),
		word(a.ValidAfter),
		word(a.ValidBefore),
		a.Nonce[:],
	)
	sep := d.Separator()
	return keccak256([]byte{0x19, 0x01}, sep[:], structHash[:])
}

// word is the 32-byte big-endian ABI encoding of a uint256 (callers have
// checked the range).
func word(x *big.Int) []byte {
	return x.FillBytes(make([]byte, 32))
}

// Verify checks a payment sent for the requirements offered, at time now.
// The accepted requirements must be the offered ones; the authorization
// must pay exactly the offered amount to payTo, be valid at now
// (validAfter <= now < validBefore, no tolerance: the spec gives none),
// carry a 32-byte nonce, and be signed by its from address under the
// token's EIP-712 domain (name and version from offered.Extra, chainId
// from the network, verifyingContract the asset). A refusal is an *Error.
func Verify(payload x402.PaymentPayload, offered x402.PaymentRequirements, now time.Time) (Authorization, error) {
	if payload.X402Version != x402.Version {
		return Authorization{}, refuse(ReasonInvalidVersion, "x402Version is %d, this server speaks version %d", payload.X402Version, x402.Version)
	}
	acc := payload.Accepted
	if offered.Scheme != x402.SchemeExact {
		return Authorization{}, refuse(ReasonInvalidScheme, "the offer's scheme %q is not %q", offered.Scheme, x402.SchemeExact)
	}
	if acc.Scheme != offered.Scheme {
		return Authorization{}, refuse(ReasonInvalidScheme, "accepted scheme %q, offered %q", acc.Scheme, offered.Scheme)
	}
	chainID, ok := evmChainID(offered.Network)
	if !ok {
		return Authorization{}, refuse(ReasonInvalidNetwork, "the offer's network %q is not an eip155:<chainId> network", offered.Network)
	}
	if acc.Network != offered.Network {
		return Authorization{}, refuse(ReasonInvalidNetwork, "accepted network %q, offered %q", acc.Network, offered.Network)
	}
	asset, ok := ParseAddress(offered.Asset)
	if !ok {
		return Authorization{}, refuse(ReasonAssetMismatch, "the offer's asset %q is not an address", offered.Asset)
	}
	if a, ok := ParseAddress(acc.Asset); !ok || a != asset {
		return Authorization{}, refuse(ReasonAssetMismatch, "accepted asset %q, offered %s", acc.Asset, offered.Asset)
	}
	payTo, ok := ParseAddress(offered.PayTo)
	if !ok {
		return Authorization{}, refuse(ReasonRequirementMismatch, "the offer's payTo %q is not an address", offered.PayTo)
	}
	if p, ok := ParseAddress(acc.PayTo); !ok || p != payTo {
		return Authorization{}, refuse(ReasonRequirementMismatch, "accepted payTo %q, offered %s", acc.PayTo, offered.PayTo)
	}
	amount, ok := uint256(offered.Amount)
	if !ok || amount.Sign() == 0 {
		return Authorization{}, refuse(ReasonRequirementMismatch, "the offer's amount %q is not a positive integer", offered.Amount)
	}
	if acc.Amount != offered.Amount {
		return Authorization{}, refuse(ReasonRequirementMismatch, "accepted amount %q, offered %q", acc.Amount, offered.Amount)
	}
	if acc.MaxTimeoutSeconds != 0 && acc.MaxTimeoutSeconds != offered.MaxTimeoutSeconds {
		return Authorization{}, refuse(ReasonRequirementMismatch, "accepted maxTimeoutSeconds %d, offered %d", acc.MaxTimeoutSeconds, offered.MaxTimeoutSeconds)
	}
	name, _ := offered.Extra["name"].(string)
	version, _ := offered.Extra["version"].(string)
	if name == "" || version == "" {
		return Authorization{}, refuse(ReasonMissingDomain, "the offer's extra lacks the token's EIP-712 name and version")
	}

	var p Payload
	if err := json.Unmarshal(payload.Payload, &p); err != nil {
		return Authorization{}, refuse(ReasonInvalidPayload, "payload is not an exact EVM payload ({\"signature\": ..., \"authorization\": {...}}): %s", jsonproblem.Describe("the payload", err))
	}
	w := p.Authorization
	if w == (TransferAuthorization{}) || p.Signature == "" {
		return Authorization{}, refuse(ReasonInvalidPayload, "payload needs signature and authorization (the EIP-3009 method; no other method is accepted)")
	}
	from, ok := ParseAddress(w.From)
	if !ok {
		return Authorization{}, refuse(ReasonInvalidPayload, "authorization.from %q is not an address", w.From)
	}
	payer := from.Hex()
	fail := func(reason, format string, args ...any) (Authorization, error) {
		e := refuse(reason, format, args...)
		e.Payer = payer
		return Authorization{}, e
	}
	to, ok := ParseAddress(w.To)
	if !ok {
		return fail(ReasonInvalidPayload, "authorization.to %q is not an address", w.To)
	}
	if to != payTo {
		return fail(ReasonRecipientMismatch, "authorization pays %s, the offer is to %s", to.Hex(), payTo.Hex())
	}
	value, ok := uint256(w.Value)
	if !ok {
		return fail(ReasonValue, "authorization.value %q is not a uint256 in decimal", w.Value)
	}
	if value.Cmp(amount) != 0 {
		return fail(ReasonValue, "authorization.value is %s, the offer is for exactly %s", value, amount)
	}
	validAfter, ok := uint256(w.ValidAfter)
	if !ok {
		return fail(ReasonValidAfter, "authorization.validAfter %q is not a uint256 in decimal", w.ValidAfter)
	}
	validBefore, ok := uint256(w.ValidBefore)
	if !ok {
		return fail(ReasonValidBefore, "authorization.validBefore %q is not a uint256 in decimal", w.ValidBefore)
	}
	t := big.NewInt(now.Unix())
	if validAfter.Cmp(t) > 0 {
		return fail(ReasonValidAfter, "authorization is not valid before %s (now %d)", validAfter, t)
	}
	if validBefore.Cmp(t) <= 0 {
		return fail(ReasonValidBefore, "authorization expired at %s (now %d)", validBefore, t)
	}
	nonce, ok := hexBytes(w.Nonce, 32)
	if !ok {
		return fail(ReasonNonce, "authorization.nonce must be 32 bytes of 0x hex")
	}
	sig, ok := hexBytes(p.Signature, 65)
	if !ok {
		return fail(ReasonSignature, "signature must be 65 bytes of 0x hex (r‖s‖v)")
	}

	auth := Authorization{
		Network: offered.Network, ChainID: chainID, Asset: asset,
		From: from, To: to, Value: value, ValidAfter: validAfter, ValidBefore: validBefore,
		Signature: sig,
	}
	copy(auth.Nonce[:], nonce)
	digest := Digest(Domain{Name: name, Version: version, ChainID: chainID, VerifyingContract: asset}, auth)
	signer, err := recoverSigner(digest, sig)
	if err != nil {
		return fail(ReasonSignature, "%v", err)
	}
	if signer != from {
		return fail(ReasonSignature, "the signature is not from %s", from.Hex())
	}
	return auth, nil
}

// evmChainID parses a CAIP-2 "eip155:<decimal chain id>" network.
func evmChainID(network string) (*big.Int, bool) {
	ref, ok := strings.CutPrefix(network, "eip155:")
	if !ok || ref == "" || (len(ref) > 1 && ref[0] == '0') {
		return nil, false
	}
	id, ok := uint256(ref)
	if !ok || id.Sign() == 0 {
		return nil, false
	}
	return id, true
}

// ParseAddress parses a 0x-prefixed 20-byte hex address, in any letter case
// (the checksum casing is not required).
func ParseAddress(s string) (Address, bool) {
	b, ok := hexBytes(s, AddressLength)
	if !ok {
		return Address{}, false
	}
	return Address(b), true
}

// hexBytes decodes 0x-prefixed hex of exactly n bytes.
func hexBytes(s string, n int) ([]byte, bool) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok {
		h, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || len(h) != 2*n {
		return nil, false
	}
	b, err := hex.DecodeString(h)
	return b, err == nil
}

// uint256 parses a decimal string of digits only, in the uint256 range.
func uint256(s string) (*big.Int, bool) {
	if s == "" || len(s) > 78 {
		return nil, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return nil, false
		}
	}
	x, ok := new(big.Int).SetString(s, 10)
	if !ok || x.BitLen() > 256 {
		return nil, false
	}
	return x, true
}
