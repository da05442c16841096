package ap2

import "github.com/entrycheck/entrycheck/internal/x402"

// checkoutReceipt is a Checkout Receipt (schemas/ap2/checkout_receipt.json).
type checkoutReceipt struct {
	Status           string `json:"status"`
	Issuer           string `json:"iss"`
	IssuedAt         int64  `json:"iat"`
	Reference        string `json:"reference"`
	OrderID          string `json:"order_id,omitempty"`
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// paymentReceipt is a Payment Receipt (schemas/ap2/payment_receipt.json).
type paymentReceipt struct {
	Status                string `json:"status"`
	Issuer                string `json:"iss"`
	IssuedAt              int64  `json:"iat"`
	Reference             string `json:"reference"`
	PaymentID             string `json:"payment_id"`
	PSPConfirmationID     string `json:"psp_confirmation_id,omitempty"`
	NetworkConfirmationID string `json:"network_confirmation_id,omitempty"`
}

// Receipts signs the Checkout Receipt and the Payment Receipt of accepted
// mandates whose x402 payment settled: JWTs whose payload is the receipt,
// signed with the key of JWKS. The payment is identified by the checkout
// hash; both confirmations are the settlement's transaction (the x402
// facilitator is the payment service provider, the chain the network).
func (m *Merchant) Receipts(a *Accepted, settled x402.SettlementResponse) (checkoutJWT, paymentJWT string, err error) {
	iat := m.now().Unix()
	h := header{Typ: "JWT", Kid: m.jwk.Kid}
	checkoutJWT, err = signES256(m.key, h, checkoutReceipt{
		Status: "Success", Issuer: m.audience, IssuedAt: iat, Reference: a.CheckoutReference, OrderID: a.OrderID,
	})
	if err != nil {
		return "", "", err
	}
	paymentJWT, err = signES256(m.key, h, paymentReceipt{
		Status: "Success", Issuer: m.audience, IssuedAt: iat, Reference: a.PaymentReference, PaymentID: a.TransactionID,
		PSPConfirmationID: settled.Transaction, NetworkConfirmationID: settled.Transaction,
	})
	return checkoutJWT, paymentJWT, err
}

// RefusalReceipt signs the error Checkout Receipt of a refused Checkout
// Mandate, when it could be read far enough to hash: AP2 has the merchant
// answer every Checkout Mandate with a receipt. It returns "" otherwise.
func (m *Merchant) RefusalReceipt(checkoutMandate string, r *Refusal) string {
	chain, err := parseChain(checkoutMandate)
	if err != nil {
		return ""
	}
	jwt, err := signES256(m.key, header{Typ: "JWT", Kid: m.jwk.Kid}, checkoutReceipt{
		Status: "Error", Issuer: m.audience, IssuedAt: m.now().Unix(), Reference: hashOf(chain[len(chain)-1].text),
		Error: r.Check, ErrorDescription: r.Message,
	})
	if err != nil {
		return ""
	}
	return jwt
}
