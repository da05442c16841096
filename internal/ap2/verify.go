package ap2

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// Payment is the x402 payment the mandates come with: the resource it pays
// for and the requirements it was accepted under.
type Payment struct {
	Resource string
	Accepted x402.PaymentRequirements
}

// Accepted is a Checkout and Payment Mandate pair the merchant accepted,
// whose uses are recorded: what the receipts are made of.
type Accepted struct {
	// CheckoutReference and PaymentReference are the hashes of the closed
	// mandates, as sd_hash is computed: the receipts' reference.
	CheckoutReference, PaymentReference string
	// OrderID is the Checkout JWT's id.
	OrderID string
	// TransactionID is the checkout_hash both mandates name.
	TransactionID string
}

// Verify checks a closed Checkout Mandate and a closed Payment Mandate
// (each an SD-JWT, or a chain of SD-JWTs from open mandates) against the
// x402 payment they come with, then records their use, so that neither,
// nor their Checkout JWT, is ever accepted again. It verifies only: the
// caller settles the payment afterwards. A refusal names the check that
// failed; nothing is recorded for a refused pair except where a store
// failure (CheckStoreUnavailable) or a replay stops it halfway.
func (m *Merchant) Verify(ctx context.Context, checkoutMandate, paymentMandate string, paid Payment) (*Accepted, *Refusal) {
	if checkoutMandate == "" || paymentMandate == "" {
		return nil, refuse(CheckMissingMandate, "AP2 needs both the closed Checkout Mandate and the closed Payment Mandate")
	}
	nonce, r := m.checkoutNonce(checkoutMandate)
	if r != nil {
		return nil, r
	}
	co, r := m.verifyChain(checkoutMandate, VCTCheckoutOpen, VCTCheckout, nonce)
	if r != nil {
		return nil, r
	}
	c, hash, r := m.checkoutOf(co, paid)
	if r != nil {
		return nil, r
	}
	pm, r := m.verifyChain(paymentMandate, VCTPaymentOpen, VCTPayment, nonce)
	if r != nil {
		return nil, r
	}
	var closed closedPayment
	if decode(pm.closed, &closed) != nil {
		return nil, refuse(CheckMalformed, "the closed Payment Mandate does not follow payment_mandate.json")
	}
	if r := m.matchPayment(closed, hash, paid.Accepted); r != nil {
		return nil, r
	}
	s := subject{merchant: m.identity, checkout: c, payment: closed, checkoutOpens: co.opens, now: m.now()}
	recurring := map[string]*recurrence{}
	for _, md := range []*mandate{co, pm} {
		for _, o := range md.opens {
			constraints, _ := o.content["constraints"].([]any)
			for _, x := range constraints {
				cx, _ := x.(map[string]any)
				rec, r := evaluate(o.content["vct"].(string), cx, s)
				if r != nil {
					return nil, r
				}
				if rec != nil {
					recurring[o.hash] = rec
				}
			}
		}
	}
	if r := m.recordUses(ctx, co, pm, hash, recurring); r != nil {
		return nil, r
	}
	return &Accepted{CheckoutReference: co.reference, PaymentReference: pm.reference, OrderID: c.ID, TransactionID: hash}, nil
}

// checkoutNonce reads, unverified, the jti of the Checkout JWT the closed
// Checkout Mandate carries: the nonce both key bindings must name. The
// Checkout JWT itself is verified later.
func (m *Merchant) checkoutNonce(checkoutMandate string) (string, *Refusal) {
	chain, err := parseChain(checkoutMandate)
	if err != nil {
		return "", refuse(CheckMalformed, "Checkout Mandate: %v", err)
	}
	c, ok := content(chain[len(chain)-1])
	jwt, _ := c["checkout_jwt"].(string)
	if !ok || jwt == "" {
		return "", refuse(CheckMalformed, "the closed Checkout Mandate must disclose checkout_jwt")
	}
	j, err := parseJWS(jwt)
	var claims struct {
		JTI string `json:"jti"`
	}
	if err != nil || json.Unmarshal(j.payload, &claims) != nil {
		return "", refuse(CheckCheckoutSignature, "checkout_jwt is not a JWT")
	}
	return claims.JTI, nil
}

// checkoutOf checks the closed Checkout Mandate names, by its hash, a
// Checkout JWT this service signed for the resource paid for.
func (m *Merchant) checkoutOf(co *mandate, paid Payment) (checkout, string, *Refusal) {
	jwt, _ := co.closed["checkout_jwt"].(string)
	hash := hashOf(jwt)
	if co.closed["checkout_hash"] != hash {
		return checkout{}, "", refuse(CheckCheckoutHash, "checkout_hash is not the hash of the checkout_jwt presented")
	}
	c, r := m.ownCheckout(jwt)
	if r != nil {
		return checkout{}, "", r
	}
	if c.Resource != paid.Resource {
		return checkout{}, "", refuse(CheckCheckoutResource, "the Checkout JWT is for %s, not %s", c.Resource, paid.Resource)
	}
	// The price and payee may have changed since the checkout was signed:
	// the checkout must still be what the x402 payment pays.
	if amount, _ := amountOf(paid.Accepted); c.Payment.Amount != amount {
		return checkout{}, "", refuse(CheckAmount, "the Checkout JWT's price is %d cents, the x402 payment %s atomic USDC", c.Payment.Amount.Amount, paid.Accepted.Amount)
	}
	if !strings.EqualFold(c.Payment.Payee.ID, payeeID(paid.Accepted)) {
		return checkout{}, "", refuse(CheckPayee, "the Checkout JWT's payee is %s, the x402 payTo %s", c.Payment.Payee.ID, payeeID(paid.Accepted))
	}
	return c, hash, nil
}

// matchPayment checks the closed Payment Mandate pays this checkout with
// this x402 payment: its transaction_id, amount, payee and instrument.
func (m *Merchant) matchPayment(p closedPayment, checkoutHash string, accepted x402.PaymentRequirements) *Refusal {
	if p.TransactionID != checkoutHash {
		return refuse(CheckTransactionID, "transaction_id must be the checkout_hash of the Checkout Mandate")
	}
	amount, ok := amountOf(accepted)
	if !ok {
		return refuse(CheckAmount, "the x402 amount %s is not a whole number of US cents", accepted.Amount)
	}
	if p.PaymentAmount.Currency != amount.Currency {
		return refuse(CheckCurrency, "payment_amount.currency must be %s (USDC counts one to one with USD)", amount.Currency)
	}
	if p.PaymentAmount.Amount != amount.Amount {
		return refuse(CheckAmount, "payment_amount.amount is %d cents, the x402 payment %d (%s atomic USDC)", p.PaymentAmount.Amount, amount.Amount, accepted.Amount)
	}
	if !strings.EqualFold(p.Payee.ID, payeeID(accepted)) {
		return refuse(CheckPayee, "payee.id must be %s, the x402 payTo", payeeID(accepted))
	}
	want := instrumentOf(accepted)
	if p.PaymentInstrument.Type != want.Type || !strings.EqualFold(p.PaymentInstrument.ID, want.ID) {
		return refuse(CheckInstrument, "payment_instrument must be type %q, id %q: the x402 scheme, network and asset", want.Type, want.ID)
	}
	if p.PISP != nil {
		return refuse(CheckPISP, "no payment initiation service provider takes part in an x402 payment")
	}
	// x402 payments execute at once: a dated payment must be dated today.
	if d := p.ExecutionDate; d != "" && (len(d) < 10 || d[:10] != m.now().UTC().Format(time.DateOnly)) {
		return refuse(CheckExecutionDate, "execution_date must be today (UTC): x402 payments execute at once")
	}
	return nil
}

// recordUses records, in the durable store, the closed mandates, the
// Checkout JWT and the open mandates as used: a second presentation of any
// of them is refused. An open mandate with a payment.agent_recurrence
// constraint may be used once per period, up to its occurrences.
func (m *Merchant) recordUses(ctx context.Context, co, pm *mandate, checkoutHash string, recurring map[string]*recurrence) *Refusal {
	uses := []struct{ kind, key, check string }{
		{"checkout_mandate", co.reference, CheckMandateReplayed},
		{"payment_mandate", pm.reference, CheckMandateReplayed},
		{"checkout_jwt", checkoutHash, CheckCheckoutUsed},
	}
	for _, md := range []*mandate{co, pm} {
		for _, o := range md.opens {
			if rec := recurring[o.hash]; rec != nil {
				if r := m.recordRecurrence(ctx, o.hash, *rec); r != nil {
					return r
				}
				continue
			}
			uses = append(uses, struct{ kind, key, check string }{"open_mandate", o.hash, CheckMandateReplayed})
		}
	}
	for _, u := range uses {
		if r := m.use(ctx, u.kind, u.key, u.check); r != nil {
			return r
		}
	}
	return nil
}

func (m *Merchant) recordRecurrence(ctx context.Context, hash string, rec recurrence) *Refusal {
	if p := rec.period(m.now()); p != "" {
		if r := m.use(ctx, "open_mandate_period", hash+"#"+p, CheckAgentRecurrence); r != nil {
			return refuse(CheckAgentRecurrence, "the open mandate was already used this period (%s)", p)
		}
	}
	for n := int64(1); n <= rec.max; n++ {
		fresh, err := m.uses.UseNonce(ctx, useNetwork, "open_mandate_occurrence", "", fmt.Sprintf("%s#%d", hash, n))
		if err != nil {
			return refuse(CheckStoreUnavailable, "recording the mandate's use failed; nothing was charged, retry later")
		}
		if fresh {
			return nil
		}
	}
	return refuse(CheckAgentRecurrence, "the open mandate was used its %d allowed times", rec.max)
}

func (m *Merchant) use(ctx context.Context, kind, key, check string) *Refusal {
	fresh, err := m.uses.UseNonce(ctx, useNetwork, kind, "", key)
	if err != nil {
		return refuse(CheckStoreUnavailable, "recording the mandate's use failed; nothing was charged, retry later")
	}
	if !fresh {
		return refuse(check, "this %s was already presented; mandates and Checkout JWTs are accepted once", strings.ReplaceAll(kind, "_", " "))
	}
	return nil
}
