package x402

// The A2A transport of x402 (specs/transports-v2/a2a.md): a paid request is
// answered by a task in state input-required whose status message carries
// the offer under MetaA2ARequired; the client answers in the same task with
// its PaymentPayload under MetaA2APayload; the server settles and completes
// the task with the SettlementResponses under MetaA2AReceipts. Each message
// names its step in MetaA2AStatus.
const (
	// A2AExtensionURI declares the extension in the agent card and
	// activates it in the X-A2A-Extensions header, as the transport
	// specification writes it.
	A2AExtensionURI = "https://github.com/google-a2a/a2a-x402/v0.1"

	MetaA2AStatus   = "x402.payment.status"
	MetaA2ARequired = "x402.payment.required"
	MetaA2APayload  = "x402.payment.payload"
	MetaA2AReceipts = "x402.payment.receipts"
	MetaA2AError    = "x402.payment.error"
)

// The values of MetaA2AStatus.
const (
	A2APaymentRequired  = "payment-required"
	A2APaymentSubmitted = "payment-submitted"
	A2APaymentCompleted = "payment-completed"
	A2APaymentFailed    = "payment-failed"
)
