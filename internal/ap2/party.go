package ap2

import (
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// Party is a merchant or payee (AP2 types/merchant.json).
type Party struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Website string `json:"website,omitempty"`
}

// Instrument is a payment instrument (AP2 types/payment_instrument.json).
type Instrument struct {
	ID          string `json:"id" jsonschema:"<scheme>:<network>:<asset> of the x402 payment."`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

// Amount is an amount in the minor units of an ISO 4217 currency (AP2
// types/amount.json).
type Amount struct {
	Amount   int64  `json:"amount" jsonschema:"US cents; USDC counts one to one with USD, one cent is 10000 atomic units."`
	Currency string `json:"currency"`
}

// InstrumentType is the payment instrument type of an x402 payment.
const InstrumentType = "x402"

// instrumentOf maps the x402 way of paying to an AP2 payment instrument:
// type "x402", id "<scheme>:<network>:<asset>" (the network a CAIP-2 chain
// id, the asset the token contract), e.g. "exact:eip155:8453:0x8335…".
func instrumentOf(r x402.PaymentRequirements) Instrument {
	return Instrument{ID: r.Scheme + ":" + r.Network + ":" + r.Asset, Type: InstrumentType, Description: "USDC paid with x402 " + r.Scheme + " on " + r.Network}
}

// payeeID names who is paid: the CAIP-10 account "<network>:<payTo>".
func payeeID(r x402.PaymentRequirements) string {
	return r.Network + ":" + r.PayTo
}

// atomicPerCent is how many atomic USDC units make one US cent: USDC is
// counted one to one with USD, whose ISO 4217 minor unit is the cent.
const atomicPerCent = 10_000

// amountOf is the x402 amount (atomic USDC) in US cents; ok is false when
// it is not a whole number of cents.
func amountOf(r x402.PaymentRequirements) (Amount, bool) {
	var atomic int64
	if _, err := fmt.Sscan(r.Amount, &atomic); err != nil || atomic%atomicPerCent != 0 {
		return Amount{}, false
	}
	return Amount{Amount: atomic / atomicPerCent, Currency: "USD"}, true
}

func sameID(a, b string) bool { return strings.EqualFold(a, b) }
