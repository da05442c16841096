// Package x402 holds the message types of the x402 payment protocol,
// version 2 (PaymentRequired, PaymentRequirements, PaymentPayload,
// SettlementResponse), their base64 header encoding for the HTTP transport,
// the _meta keys of the MCP transport and the metadata keys of the A2A
// transport. It knows nothing of the service's endpoints or storage.
package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/entrycheck/entrycheck/internal/jsonproblem"
	"math/big"
	"strings"
)

// Version is the protocol version this package speaks.
const Version = 2

// HTTP transport header names.
const (
	HeaderPaymentRequired  = "PAYMENT-REQUIRED"
	HeaderPaymentSignature = "PAYMENT-SIGNATURE"
	HeaderPaymentResponse  = "PAYMENT-RESPONSE"
)

// MCP transport _meta keys (x402 specs/transports-v2/mcp.md): the client
// sends its PaymentPayload in the tools/call params' _meta under
// MetaPayment; the server returns the SettlementResponse in the result's
// _meta under MetaPaymentResponse.
const (
	MetaPayment         = "x402/payment"
	MetaPaymentResponse = "x402/payment-response"
)

// The network and asset the service is paid in: USDC on Base mainnet.
const (
	SchemeExact = "exact"
	NetworkBase = "eip155:8453"
	// USDCBase is the USDC token contract on Base.
	USDCBase = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
	// USDCDecimals is the number of decimals of USDC: amounts are in millionths of a dollar.
	USDCDecimals = 6
	// USDCDomainName and USDCDomainVersion are the token's EIP-712 domain,
	// which clients need to sign a transferWithAuthorization.
	USDCDomainName    = "USD Coin"
	USDCDomainVersion = "2"
)

// ResourceInfo describes the paid resource.
type ResourceInfo struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

// PaymentRequirements is one accepted way to pay.
type PaymentRequirements struct {
	Scheme            string         `json:"scheme"`
	Network           string         `json:"network"`
	Amount            string         `json:"amount" jsonschema:"Price in USDC atomic units (6 decimals): 1000000 = 1 USD."`
	Asset             string         `json:"asset" jsonschema:"USDC on Base."`
	PayTo             string         `json:"payTo"`
	MaxTimeoutSeconds int            `json:"maxTimeoutSeconds"`
	Extra             map[string]any `json:"extra,omitempty" jsonschema:"The token's EIP-712 domain."`
}

// PaymentRequired is the body of a 402 answer and of the PAYMENT-REQUIRED header.
type PaymentRequired struct {
	X402Version int                   `json:"x402Version"`
	Error       string                `json:"error,omitempty" jsonschema:"Why payment is required or was refused."`
	Resource    ResourceInfo          `json:"resource"`
	Accepts     []PaymentRequirements `json:"accepts"`
	Extensions  map[string]any        `json:"extensions,omitempty"`
}

// PaymentPayload is what a client sends in PAYMENT-SIGNATURE.
type PaymentPayload struct {
	X402Version int                 `json:"x402Version"`
	Resource    *ResourceInfo       `json:"resource,omitempty"`
	Accepted    PaymentRequirements `json:"accepted"`
	Payload     json.RawMessage     `json:"payload"`
	Extensions  map[string]any      `json:"extensions,omitempty"`
}

// SettlementResponse is what the server returns in PAYMENT-RESPONSE.
type SettlementResponse struct {
	Success     bool   `json:"success"`
	ErrorReason string `json:"errorReason,omitempty"`
	Payer       string `json:"payer,omitempty"`
	Transaction string `json:"transaction" jsonschema:"The transaction hash: the on-chain receipt."`
	Network     string `json:"network"`
	Amount      string `json:"amount,omitempty"`
}

// Encode returns the base64 JSON form used in the HTTP headers.
func Encode(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// Decode reads the base64 JSON form of the HTTP headers into v.
func Decode(header string, v any) error {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(header))
	if err != nil {
		return fmt.Errorf("not base64: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errors.New(jsonproblem.Describe("the JSON", err))
	}
	return nil
}

// AtomicUSDC converts a decimal dollar price ("0.03") to USDC atomic units ("30000").
func AtomicUSDC(usd string) (string, error) {
	r, ok := new(big.Rat).SetString(usd)
	if !ok || r.Sign() <= 0 {
		return "", fmt.Errorf("price %q is not a positive decimal", usd)
	}
	r.Mul(r, new(big.Rat).SetInt64(1_000_000))
	if !r.IsInt() {
		return "", fmt.Errorf("price %q has more than %d decimals", usd, USDCDecimals)
	}
	return strings.TrimSpace(r.Num().String()), nil
}

// ExactUSDC returns the requirements to pay amount (atomic USDC) to payTo on Base.
func ExactUSDC(amount, payTo string, maxTimeoutSeconds int) PaymentRequirements {
	return PaymentRequirements{
		Scheme:            SchemeExact,
		Network:           NetworkBase,
		Amount:            amount,
		Asset:             USDCBase,
		PayTo:             payTo,
		MaxTimeoutSeconds: maxTimeoutSeconds,
		Extra:             map[string]any{"name": USDCDomainName, "version": USDCDomainVersion},
	}
}
