package exact

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/entrycheck/entrycheck/internal/x402"
)

const payTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"

var now = time.Unix(1_750_000_000, 0)

func offer() x402.PaymentRequirements { return x402.ExactUSDC("30000", payTo, 120) }

// typedData is the EIP-712 message as go-ethereum's apitypes builds it: the
// tests sign with it, so the package's own digest code is checked against an
// independent implementation.
func typedData(name, version string, chainID int64, contract string, a TransferAuthorization) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
			},
			"TransferWithAuthorization": {
				{Name: "from", Type: "address"}, {Name: "to", Type: "address"}, {Name: "value", Type: "uint256"},
				{Name: "validAfter", Type: "uint256"}, {Name: "validBefore", Type: "uint256"}, {Name: "nonce", Type: "bytes32"},
			},
		},
		PrimaryType: "TransferWithAuthorization",
		Domain: apitypes.TypedDataDomain{
			Name: name, Version: version,
			ChainId:           (*math.HexOrDecimal256)(big.NewInt(chainID)),
			VerifyingContract: contract,
		},
		Message: apitypes.TypedDataMessage{
			"from": a.From, "to": a.To, "value": a.Value,
			"validAfter": a.ValidAfter, "validBefore": a.ValidBefore, "nonce": a.Nonce,
		},
	}
}

type signOpts struct {
	mutate   func(*TransferAuthorization) // before signing
	contract string                       // verifyingContract, default USDC on Base
	chainID  int64                        // default 8453
}

// pay signs a TransferWithAuthorization for the offer with key.
func pay(t *testing.T, key *ecdsa.PrivateKey, o signOpts) (x402.PaymentPayload, Payload) {
	t.Helper()
	nonce := make([]byte, 32)
	if _, err := rand.Read(nonce); err != nil {
		t.Fatal(err)
	}
	a := TransferAuthorization{
		From:        crypto.PubkeyToAddress(key.PublicKey).Hex(),
		To:          payTo,
		Value:       "30000",
		ValidAfter:  "0",
		ValidBefore: big.NewInt(now.Unix() + 120).String(),
		Nonce:       "0x" + hex.EncodeToString(nonce),
	}
	if o.mutate != nil {
		o.mutate(&a)
	}
	if o.contract == "" {
		o.contract = x402.USDCBase
	}
	if o.chainID == 0 {
		o.chainID = 8453
	}
	digest, _, err := apitypes.TypedDataAndHash(typedData(x402.USDCDomainName, x402.USDCDomainVersion, o.chainID, o.contract, a))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	p := Payload{Signature: "0x" + hex.EncodeToString(sig), Authorization: a}
	return payloadOf(t, offer(), p), p
}

func payloadOf(t *testing.T, accepted x402.PaymentRequirements, p Payload) x402.PaymentPayload {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return x402.PaymentPayload{X402Version: x402.Version, Accepted: accepted, Payload: raw}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerifyValid(t *testing.T) {
	key := mustKey(t)
	payload, _ := pay(t, key, signOpts{})
	auth, err := Verify(payload, offer(), now)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if want := Address(crypto.PubkeyToAddress(key.PublicKey)); auth.From != want {
		t.Errorf("payer %s, want %s", auth.From.Hex(), want.Hex())
	}
	if auth.Value.String() != "30000" || auth.Network != x402.NetworkBase || auth.ChainID.Int64() != 8453 {
		t.Errorf("authorization %+v", auth)
	}
}

func TestVerifyAcceptsVariants(t *testing.T) {
	key := mustKey(t)
	// v as 0/1 instead of 27/28.
	payload, p := pay(t, key, signOpts{})
	sig, _ := hex.DecodeString(p.Signature[2:])
	sig[64] -= 27
	p.Signature = "0x" + hex.EncodeToString(sig)
	if _, err := Verify(payloadOf(t, offer(), p), offer(), now); err != nil {
		t.Errorf("v in {0,1}: %v", err)
	}
	// Addresses in lower case, and maxTimeoutSeconds omitted from accepted.
	acc := offer()
	acc.Asset, acc.PayTo, acc.MaxTimeoutSeconds = strings.ToLower(acc.Asset), strings.ToLower(acc.PayTo), 0
	payload.Accepted = acc
	if _, err := Verify(payload, offer(), now); err != nil {
		t.Errorf("lower-case addresses: %v", err)
	}
	// The last second of the window, and the first.
	payload, _ = pay(t, key, signOpts{mutate: func(a *TransferAuthorization) {
		a.ValidAfter = big.NewInt(now.Unix()).String()
		a.ValidBefore = big.NewInt(now.Unix() + 1).String()
	}})
	if _, err := Verify(payload, offer(), now); err != nil {
		t.Errorf("validAfter == now < validBefore: %v", err)
	}
}

func TestVerifyRefusals(t *testing.T) {
	key, other := mustKey(t), mustKey(t)
	otherAddr := "0x1111111111111111111111111111111111111111"
	unix := func(d int64) string { return big.NewInt(now.Unix() + d).String() }

	cases := []struct {
		name   string
		build  func(t *testing.T) x402.PaymentPayload
		reason string
	}{
		{"tampered value after signing", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			p.Authorization.Value = "30001"
			return payloadOf(t, offer(), p)
		}, ReasonValue},
		{"signed for less than offered", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.Value = "29999" }})
			return pl
		}, ReasonValue},
		{"accepted amount differs from the offer", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.Value = "1" }})
			pl.Accepted.Amount = "1"
			return pl
		}, ReasonRequirementMismatch},
		{"accepted payTo differs from the offer", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.To = otherAddr }})
			pl.Accepted.PayTo = otherAddr
			return pl
		}, ReasonRequirementMismatch},
		{"authorization to another address", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.To = otherAddr }})
			return pl
		}, ReasonRecipientMismatch},
		{"wrong network", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{chainID: 84532})
			pl.Accepted.Network = "eip155:84532"
			return pl
		}, ReasonInvalidNetwork},
		{"wrong scheme", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{})
			pl.Accepted.Scheme = "upto"
			return pl
		}, ReasonInvalidScheme},
		{"wrong asset", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{contract: otherAddr})
			pl.Accepted.Asset = otherAddr
			return pl
		}, ReasonAssetMismatch},
		{"signed for another token contract", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{contract: otherAddr})
			return pl
		}, ReasonSignature},
		{"signed for another chain", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{chainID: 1})
			return pl
		}, ReasonSignature},
		{"expired: validBefore == now", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.ValidBefore = unix(0) }})
			return pl
		}, ReasonValidBefore},
		{"expired: validBefore < now", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.ValidBefore = unix(-60) }})
			return pl
		}, ReasonValidBefore},
		{"not yet valid", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.ValidAfter = unix(1) }})
			return pl
		}, ReasonValidAfter},
		{"signed by another key", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, other, signOpts{})
			p.Authorization.From = crypto.PubkeyToAddress(key.PublicKey).Hex()
			return payloadOf(t, offer(), p)
		}, ReasonSignature},
		{"flipped signature byte", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			sig, _ := hex.DecodeString(p.Signature[2:])
			sig[10] ^= 0x01
			p.Signature = "0x" + hex.EncodeToString(sig)
			return payloadOf(t, offer(), p)
		}, ReasonSignature},
		{"high-s signature (malleated)", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			sig, _ := hex.DecodeString(p.Signature[2:])
			s := new(big.Int).Sub(crypto.S256().Params().N, new(big.Int).SetBytes(sig[32:64]))
			s.FillBytes(sig[32:64])
			sig[64] ^= 1 // 27 <-> 28: the same signer, were high s allowed
			p.Signature = "0x" + hex.EncodeToString(sig)
			return payloadOf(t, offer(), p)
		}, ReasonSignature},
		{"bad v", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			p.Signature = p.Signature[:len(p.Signature)-2] + "1d"
			return payloadOf(t, offer(), p)
		}, ReasonSignature},
		{"short signature", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			p.Signature = p.Signature[:len(p.Signature)-2]
			return payloadOf(t, offer(), p)
		}, ReasonSignature},
		{"short nonce", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			p.Authorization.Nonce = "0x0102"
			return payloadOf(t, offer(), p)
		}, ReasonNonce},
		{"value not decimal", func(t *testing.T) x402.PaymentPayload {
			_, p := pay(t, key, signOpts{})
			p.Authorization.Value = "0x7530"
			return payloadOf(t, offer(), p)
		}, ReasonValue},
		{"permit2-shaped payload", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{})
			pl.Payload = json.RawMessage(`{"signature":"0x00","permit2Authorization":{}}`)
			return pl
		}, ReasonInvalidPayload},
		{"wrong x402 version", func(t *testing.T) x402.PaymentPayload {
			pl, _ := pay(t, key, signOpts{})
			pl.X402Version = 1
			return pl
		}, ReasonInvalidVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Verify(c.build(t), offer(), now)
			if err == nil {
				t.Fatal("accepted")
			}
			if got := ReasonOf(err); got != c.reason {
				t.Fatalf("reason %q (%v), want %q", got, err, c.reason)
			}
			if err.(*Error).Message == "" {
				t.Error("no message")
			}
		})
	}
}

func TestVerifyMissingDomain(t *testing.T) {
	payload, _ := pay(t, mustKey(t), signOpts{})
	o := offer()
	o.Extra = nil
	if _, err := Verify(payload, o, now); ReasonOf(err) != ReasonMissingDomain {
		t.Fatalf("got %v", err)
	}
}

// TestDigestMatchesAPITypes checks the explicit EIP-712 construction against
// go-ethereum's generic TypedDataAndHash.
func TestDigestMatchesAPITypes(t *testing.T) {
	key := mustKey(t)
	payload, p := pay(t, key, signOpts{})
	auth, err := Verify(payload, offer(), now)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := apitypes.TypedDataAndHash(typedData(x402.USDCDomainName, x402.USDCDomainVersion, 8453, x402.USDCBase, p.Authorization))
	if err != nil {
		t.Fatal(err)
	}
	d := Domain{Name: x402.USDCDomainName, Version: x402.USDCDomainVersion, ChainID: big.NewInt(8453), VerifyingContract: Address(common.HexToAddress(x402.USDCBase))}
	if got := Digest(d, auth); got != Hash(want) {
		t.Fatalf("digest %s, apitypes %x", got.Hex(), want)
	}
}

// TestKnownAnswer uses values computed outside Go. The USDC domain separator
// on Ethereum mainnet is the one the token contract publishes
// (DOMAIN_SEPARATOR()). The signature and digest were produced by viem 2.57.20
// (account.signTypedData / hashTypedData) with the well-known Hardhat test
// key #1 (0x59c6995e…690d, address 0x70997970…79C8), for the authorization
// below on USDC on Base.
func TestKnownAnswer(t *testing.T) {
	mainnet := Domain{Name: "USD Coin", Version: "2", ChainID: big.NewInt(1), VerifyingContract: Address(common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"))}
	if got, want := mainnet.Separator().Hex(), "0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335"; got != want {
		t.Errorf("mainnet USDC domain separator %s, want %s", got, want)
	}

	p := Payload{
		Signature: "0x2f441915299e6dca0b5c52bad369fce1f2223b5401b564de644f4cfb97983553137b8f0d8bac7d2c02b2bfcf26cd21f8013af11a38cc4332b82022caaf634e631b",
		Authorization: TransferAuthorization{
			From:        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
			To:          payTo,
			Value:       "30000",
			ValidAfter:  "1740672089",
			ValidBefore: "1740672154",
			Nonce:       "0xf3746613c2d920b5fdabc0856f2aeb2d4f88ee6037b8cc5d04a71a4462f13480",
		},
	}
	at := time.Unix(1740672100, 0)
	auth, err := Verify(payloadOf(t, offer(), p), offer(), at)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if auth.From.Hex() != p.Authorization.From {
		t.Errorf("payer %s", auth.From.Hex())
	}
	d := Domain{Name: x402.USDCDomainName, Version: x402.USDCDomainVersion, ChainID: big.NewInt(8453), VerifyingContract: Address(common.HexToAddress(x402.USDCBase))}
	if got, want := Digest(d, auth).Hex(), "0xaab42bf43e65b58c64ccaee53dcd29abc39f4e609836ce15a7f2e09c2c1f4f6d"; got != want {
		t.Errorf("digest %s, viem %s", got, want)
	}
	if _, err := Verify(payloadOf(t, offer(), p), offer(), time.Unix(1740672154, 0)); ReasonOf(err) != ReasonValidBefore {
		t.Errorf("at validBefore: %v", err)
	}
}

func facilitator() *LocalFacilitator {
	return &LocalFacilitator{Nonces: &MemoryNonceStore{}, Now: func() time.Time { return now }}
}

func TestSettle(t *testing.T) {
	key := mustKey(t)
	f := facilitator()
	payload, _ := pay(t, key, signOpts{})
	ctx := context.Background()

	if _, err := f.Verify(ctx, payload, offer()); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	r, err := f.Settle(ctx, payload, offer())
	if err != nil || !r.Success {
		t.Fatalf("Settle: %+v %v", r, err)
	}
	if want := crypto.PubkeyToAddress(key.PublicKey).Hex(); r.Payer != want {
		t.Errorf("payer %s, want %s", r.Payer, want)
	}
	if r.Network != x402.NetworkBase || r.Amount != "30000" || !strings.HasPrefix(r.Transaction, LocalTransactionPrefix+"0x") || len(r.Transaction) != len(LocalTransactionPrefix)+66 {
		t.Errorf("receipt %+v", r)
	}

	again, err := f.Settle(ctx, payload, offer())
	if again.Success || ReasonOf(err) != ReasonNonceAlreadyUsed || again.ErrorReason != ReasonNonceAlreadyUsed {
		t.Fatalf("reused nonce: %+v %v", again, err)
	}

	// A refused payment is not settled and does not use its nonce.
	bad, _ := pay(t, key, signOpts{mutate: func(a *TransferAuthorization) { a.ValidBefore = big.NewInt(now.Unix()).String() }})
	r, err = f.Settle(ctx, bad, offer())
	if r.Success || ReasonOf(err) != ReasonValidBefore || r.ErrorReason != ReasonValidBefore || r.Network != x402.NetworkBase {
		t.Fatalf("expired settle: %+v %v", r, err)
	}

	// The transaction id is deterministic.
	payload2, _ := pay(t, key, signOpts{})
	r1, _ := facilitator().Settle(ctx, payload2, offer())
	r2, _ := facilitator().Settle(ctx, payload2, offer())
	if !r1.Success || r1.Transaction != r2.Transaction {
		t.Errorf("transaction ids %q %q", r1.Transaction, r2.Transaction)
	}
}

func TestSettleConcurrent(t *testing.T) {
	f := facilitator()
	payload, _ := pay(t, mustKey(t), signOpts{})
	const n = 32
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		ok, dup   int
		otherErrs []error
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := f.Settle(context.Background(), payload, offer())
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && r.Success:
				ok++
			case ReasonOf(err) == ReasonNonceAlreadyUsed:
				dup++
			default:
				otherErrs = append(otherErrs, err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || dup != n-1 || len(otherErrs) != 0 {
		t.Fatalf("%d settled, %d refused as reused, others %v", ok, dup, otherErrs)
	}
}
