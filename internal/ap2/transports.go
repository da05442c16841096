package ap2

// Where AP2 travels beside x402 on the transports that are not HTTP
// headers. Each transport carries the same three things: the offer (the
// Offer object, with its Checkout JWT) beside the x402 PaymentRequired,
// the closed Checkout and Payment Mandates beside the x402
// PaymentPayload, and the signed receipts beside the x402 settlement.
// Mandates are optional: a payment without them is plain x402.

// A2AExtensionURI declares AP2 in an A2A agent card and activates it in
// the X-A2A-Extensions header, as the AP2 reference samples name it.
const A2AExtensionURI = "https://github.com/google-agentic-commerce/ap2/v1"

// A2A message metadata keys, beside x402's (x402.MetaA2ARequired and
// the others). MetaA2ACheckout holds the Offer in the input-required
// status message; the payment message may hold the mandates; the
// completed task's status message holds the receipts object
// {"checkout_receipt", "payment_receipt"}, and a task failed for a refused
// mandate names the failed check in MetaA2AError (a Check constant) and
// may hold the error Checkout Receipt in MetaA2AReceipts.
const (
	MetaA2ACheckout        = "ap2.checkout"
	MetaA2ACheckoutMandate = "ap2.checkout_mandate"
	MetaA2APaymentMandate  = "ap2.payment_mandate"
	MetaA2AReceipts        = "ap2.receipts"
	MetaA2AError           = "ap2.error"
)

// MCP _meta keys, beside x402's "x402/payment" and
// "x402/payment-response": the mandates in a tools/call's params._meta,
// the receipts in the result's _meta, and for a refused mandate the failed
// check. The offer goes in the payment-required result's structured
// content under "ap2", as in the REST 402 body.
const (
	MetaMCPCheckoutMandate = "ap2/checkout_mandate"
	MetaMCPPaymentMandate  = "ap2/payment_mandate"
	MetaMCPReceipts        = "ap2/receipts"
	MetaMCPError           = "ap2/error"
)
