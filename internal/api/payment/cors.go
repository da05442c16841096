package payment

import (
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// CORS of the paid routes: the one list of the headers a page on another
// site sends to pay (the x402 payment and the AP2 mandates) and reads back
// (the offer, the receipts and the counters every answer carries). A
// browser hides any header not exposed here, so a payment client in a page
// would see a 402 without its offer and a 200 without its receipt. The
// official x402 fetch client sends Access-Control-Expose-Headers as a
// request header with its payment; a preflight that did not allow it would
// stop every payment from a page.
const (
	CORSAllowHeaders = response.CORSAllowHeaders + ", " + x402.HeaderPaymentSignature + ", " +
		HeaderAP2CheckoutMandate + ", " + HeaderAP2PaymentMandate + ", Access-Control-Expose-Headers"
	CORSExposeHeaders = response.CORSExposeHeaders + ", " + x402.HeaderPaymentRequired + ", " + x402.HeaderPaymentResponse + ", " +
		HeaderAP2Checkout + ", " + HeaderAP2CheckoutReceipt + ", " + HeaderAP2PaymentReceipt
)
