package ap2

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"time"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// CheckoutTTL is how long a Checkout JWT can be presented in a mandate.
const CheckoutTTL = 15 * time.Minute

// Sale is what a paid answer sells: one item, at the resource URL, paid
// as the x402 requirements say.
type Sale struct {
	// ItemID and Title name the item (the priced route).
	ItemID, Title string
	// Resource is the URL of the paid answer.
	Resource string
	Pay      x402.PaymentRequirements
}

// Offer is the AP2 part of a 402 answer: the Checkout JWT and what the
// closed mandates must say to be accepted.
type Offer struct {
	CheckoutJWT string `json:"checkout_jwt" jsonschema:"ES256 JWT signed with the key at jwks_uri: a UCP checkout object (merchant, line_items, totals in US cents) with iss, jti, iat, exp, the resource and the payment (payee, payment_amount, payment_instrument) it must be paid with."`
	// CheckoutHash is the checkout_hash (and transaction_id) of the mandates.
	CheckoutHash string `json:"checkout_hash" jsonschema:"base64url SHA-256 of checkout_jwt: the mandates' checkout_hash and transaction_id."`
	// Audience and Nonce are the aud and nonce the key-binding JWTs of
	// the closed mandates must carry.
	Audience          string     `json:"aud" jsonschema:"The aud of the closed mandates' key binding: the service's base URL."`
	Nonce             string     `json:"nonce" jsonschema:"The nonce of the closed mandates' key binding: the Checkout JWT's jti."`
	JWKSURI           string     `json:"jwks_uri"`
	Merchant          Party      `json:"merchant"`
	Payee             Party      `json:"payee"`
	PaymentAmount     Amount     `json:"payment_amount"`
	PaymentInstrument Instrument `json:"payment_instrument"`
	ExpiresAt         int64      `json:"exp" jsonschema:"When the Checkout JWT expires, Unix seconds."`
}

// checkout is the payload of a Checkout JWT: a UCP checkout object
// (schemas/ucp/types/checkout.json, whose merchant field is AP2's) with
// the JWT's own claims, the resource it buys and how it is paid.
type checkout struct {
	Issuer    string     `json:"iss"`
	JTI       string     `json:"jti"`
	IssuedAt  int64      `json:"iat"`
	Expires   int64      `json:"exp"`
	ID        string     `json:"id"`
	Merchant  Party      `json:"merchant"`
	LineItems []lineItem `json:"line_items"`
	Status    string     `json:"status"`
	Currency  string     `json:"currency"`
	Totals    []total    `json:"totals"`
	Links     []link     `json:"links"`
	Resource  string     `json:"resource"`
	Payment   payment    `json:"payment"`
}

type lineItem struct {
	ID       string  `json:"id"`
	Item     item    `json:"item"`
	Quantity int     `json:"quantity"`
	Totals   []total `json:"totals"`
}

type item struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Price int64  `json:"price"`
}

type total struct {
	Type   string `json:"type"`
	Amount int64  `json:"amount"`
}

type link struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// payment is how the checkout is paid: what the Payment Mandate must name.
type payment struct {
	Payee      Party      `json:"payee"`
	Amount     Amount     `json:"payment_amount"`
	Instrument Instrument `json:"payment_instrument"`
}

// ErrNotCents is a price AP2 cannot state: not a whole number of US cents.
var ErrNotCents = errors.New("the price is not a whole number of US cents")

// Checkout signs the Checkout JWT of sale and returns it with what the
// mandates must carry.
func (m *Merchant) Checkout(sale Sale) (Offer, error) {
	amount, ok := amountOf(sale.Pay)
	if !ok {
		return Offer{}, ErrNotCents
	}
	id := rand.Text()
	now := m.now()
	c := checkout{
		Issuer: m.audience, JTI: id, IssuedAt: now.Unix(), Expires: now.Add(CheckoutTTL).Unix(),
		ID: id, Merchant: m.identity, Status: "ready_for_complete", Currency: amount.Currency,
		LineItems: []lineItem{{ID: "line_1", Item: item{ID: sale.ItemID, Title: sale.Title, Price: amount.Amount}, Quantity: 1,
			Totals: []total{{Type: "total", Amount: amount.Amount}}}},
		Totals:   []total{{Type: "subtotal", Amount: amount.Amount}, {Type: "total", Amount: amount.Amount}},
		Links:    []link{{Type: "resource", URL: sale.Resource}},
		Resource: sale.Resource,
		Payment:  payment{Payee: m.payee(sale.Pay), Amount: amount, Instrument: instrumentOf(sale.Pay)},
	}
	jwt, err := signES256(m.key, header{Typ: "JWT", Kid: m.jwk.Kid}, c)
	if err != nil {
		return Offer{}, err
	}
	return Offer{
		CheckoutJWT: jwt, CheckoutHash: hashOf(jwt), Audience: m.audience, Nonce: id, JWKSURI: m.jwksURI,
		Merchant: m.identity, Payee: c.Payment.Payee, PaymentAmount: amount, PaymentInstrument: c.Payment.Instrument,
		ExpiresAt: c.Expires,
	}, nil
}

func (m *Merchant) payee(r x402.PaymentRequirements) Party {
	return Party{ID: payeeID(r), Name: m.identity.Name, Website: m.identity.Website}
}

// ownCheckout verifies that jwt is a Checkout JWT this service signed,
// still valid, and returns its payload.
func (m *Merchant) ownCheckout(jwt string) (checkout, *Refusal) {
	j, err := parseJWS(jwt)
	if err != nil || !j.verify(&m.key.PublicKey) {
		return checkout{}, refuse(CheckCheckoutSignature, "checkout_jwt is not a Checkout JWT signed by this service")
	}
	var c checkout
	if err := json.Unmarshal(j.payload, &c); err != nil {
		return checkout{}, refuse(CheckCheckoutSignature, "checkout_jwt payload: %v", err)
	}
	if m.now().Unix() >= c.Expires {
		return checkout{}, refuse(CheckCheckoutExpired, "the Checkout JWT expired at %s; pay again from a new 402 answer", time.Unix(c.Expires, 0).UTC().Format(time.RFC3339))
	}
	return c, nil
}
