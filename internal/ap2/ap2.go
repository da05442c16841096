// Package ap2 is the merchant role of the Agent Payments Protocol (AP2)
// v0.2 on top of x402: it issues merchant-signed Checkout JWTs, verifies
// the closed Checkout and Payment Mandates a shopping agent presents
// (SD-JWTs, directly user-signed or delegated through open mandates whose
// constraints must hold) against the x402 payment they come with, and
// signs the Checkout and Payment Receipts.
//
// It speaks the protocol only: no HTTP. It imports the x402 message types
// and nothing else of the module; the payment package wires it into the
// paid answers.
package ap2

import (
	"context"
	"fmt"
)

// Mandate types (vct), matched exactly, version suffix included.
const (
	VCTCheckout     = "mandate.checkout.1"
	VCTCheckoutOpen = "mandate.checkout.open.1"
	VCTPayment      = "mandate.payment.1"
	VCTPaymentOpen  = "mandate.payment.open.1"
)

// Refusal is a mandate the merchant does not accept, and why. Check is a
// stable machine name of the failed check (see the Check constants);
// Message says what was wrong in words.
type Refusal struct {
	Check   string `json:"check"`
	Message string `json:"message"`
}

func (r *Refusal) Error() string { return r.Check + ": " + r.Message }

func refuse(check, format string, args ...any) *Refusal {
	return &Refusal{Check: check, Message: fmt.Sprintf(format, args...)}
}

// The checks a mandate can fail, as named in refusals.
const (
	CheckMissingMandate     = "missing_mandate"
	CheckMalformed          = "malformed"
	CheckUntrustedSigner    = "untrusted_signer"
	CheckSignature          = "signature"
	CheckDelegation         = "delegation"
	CheckVCT                = "vct"
	CheckMandateExpired     = "mandate_expired"
	CheckOpenClaims         = "open_claims"
	CheckKeyBindingAudience = "key_binding_audience"
	CheckKeyBindingNonce    = "key_binding_nonce"
	CheckKeyBindingIAT      = "key_binding_iat"
	CheckKeyBindingExpired  = "key_binding_expired"
	CheckCheckoutHash       = "checkout_hash"
	CheckCheckoutSignature  = "checkout_signature"
	CheckCheckoutExpired    = "checkout_expired"
	CheckCheckoutResource   = "checkout_resource"
	CheckCheckoutUsed       = "checkout_used"
	CheckTransactionID      = "transaction_id"
	CheckAmount             = "amount"
	CheckCurrency           = "currency"
	CheckPayee              = "payee"
	CheckInstrument         = "instrument"
	CheckExecutionDate      = "execution_date"
	CheckPISP               = "pisp"
	CheckAllowedMerchants   = "allowed_merchants"
	CheckLineItems          = "line_items"
	CheckAllowedPayees      = "allowed_payees"
	CheckAllowedInstruments = "allowed_payment_instruments"
	CheckAllowedPISPs       = "allowed_pisps"
	CheckAmountRange        = "amount_range"
	CheckBudget             = "budget"
	CheckAgentRecurrence    = "agent_recurrence"
	CheckReference          = "reference"
	CheckUnknownConstraint  = "unknown_constraint"
	CheckMandateReplayed    = "mandate_replayed"
	CheckStoreUnavailable   = "store_unavailable"
)

// UseStore records what may be used once: UseNonce records the key
// (network, asset, from, nonce) and reports whether it was fresh. The
// service's durable nonce store of x402 payments is one; this package
// keeps its records under the network "ap2".
type UseStore interface {
	UseNonce(ctx context.Context, network, asset, from, nonce string) (fresh bool, err error)
}

// useNetwork is the namespace of AP2's records in the UseStore.
const useNetwork = "ap2"
