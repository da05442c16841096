package ap2

import (
	"fmt"
	"slices"
	"time"
)

// subject is what the constraints of open mandates are evaluated against.
type subject struct {
	merchant Party
	checkout checkout
	payment  closedPayment
	// checkoutOpens are the open mandates of the Checkout Mandate's chain,
	// which a payment.reference constraint names.
	checkoutOpens []openMandate
	now           time.Time
}

// closedPayment is the closed Payment Mandate (schemas/ap2/payment_mandate.json).
type closedPayment struct {
	TransactionID     string         `json:"transaction_id"`
	Payee             Party          `json:"payee"`
	PaymentAmount     Amount         `json:"payment_amount"`
	PaymentInstrument Instrument     `json:"payment_instrument"`
	PISP              map[string]any `json:"pisp"`
	ExecutionDate     string         `json:"execution_date"`
}

// recurrence is a payment.agent_recurrence constraint that held: the
// open mandate may be used again, once per period, at most max times.
type recurrence struct {
	frequency string
	max       int64
}

// constraint is a constraint as disclosed: its type and its properties.
type constraint = map[string]any

// evaluate checks one constraint of an open mandate of vct against s. An
// unknown type, or a type of the other kind of mandate, fails: AP2 makes
// unknown constraints refusals.
func evaluate(vct string, c constraint, s subject) (*recurrence, *Refusal) {
	kind, _ := c["type"].(string)
	checkoutRule, isCheckout := checkoutConstraints[kind]
	paymentRule, isPayment := paymentConstraints[kind]
	switch {
	case vct == VCTCheckoutOpen && isCheckout:
		return nil, checkoutRule(c, s)
	case vct == VCTPaymentOpen && kind == "payment.agent_recurrence":
		return agentRecurrence(c)
	case vct == VCTPaymentOpen && isPayment:
		return nil, paymentRule(c, s)
	}
	return nil, refuse(CheckUnknownConstraint, "constraint type %q is not one this service evaluates in a %s mandate", kind, vct)
}

type rule func(c constraint, s subject) *Refusal

var checkoutConstraints = map[string]rule{
	"checkout.allowed_merchants": allowedMerchants,
	"checkout.line_items":        lineItems,
}

var paymentConstraints = map[string]rule{
	"payment.allowed_payees":              allowedPayees,
	"payment.allowed_payment_instruments": allowedInstruments,
	"payment.allowed_pisps":               allowedPISPs,
	"payment.amount_range":                amountRange,
	"payment.budget":                      budget,
	"payment.reference":                   reference,
	"payment.execution_date":              executionDate,
}

// allowedMerchants: the merchant is among the revealed allowed merchants.
func allowedMerchants(c constraint, s subject) *Refusal {
	var p struct {
		Allowed []Party `json:"allowed"`
	}
	if decode(c, &p) != nil {
		return refuse(CheckAllowedMerchants, "checkout.allowed_merchants: allowed must be an array of merchants")
	}
	if !slices.ContainsFunc(p.Allowed, func(a Party) bool { return sameParty(a, s.merchant) }) {
		return refuse(CheckAllowedMerchants, "%s (%s) is not among the allowed merchants revealed", s.merchant.ID, s.merchant.Website)
	}
	return nil
}

// sameParty: the ids are the same, and the websites too when both are given.
func sameParty(a, b Party) bool {
	return sameID(a.ID, b.ID) && (a.Website == "" || b.Website == "" || a.Website == b.Website)
}

// lineItems: the checkout's items fill the required quantities exactly,
// each item counted once, as a maximal flow from the requirements to the
// items (checkout_mandate.md, Line Items).
func lineItems(c constraint, s subject) *Refusal {
	var p struct {
		Items []struct {
			ID         string `json:"id"`
			Acceptable []struct {
				ID string `json:"id"`
			} `json:"acceptable_items"`
			Quantity int64 `json:"quantity"`
		} `json:"items"`
	}
	if decode(c, &p) != nil || len(p.Items) == 0 {
		return refuse(CheckLineItems, "checkout.line_items: items must be a non-empty array of requirements")
	}
	var have []string
	qty := map[string]int64{}
	var checkoutTotal int64
	for _, li := range s.checkout.LineItems {
		if qty[li.Item.ID] == 0 {
			have = append(have, li.Item.ID)
		}
		qty[li.Item.ID] += int64(li.Quantity)
		checkoutTotal += int64(li.Quantity)
	}
	nReq := len(p.Items)
	n := nReq + len(have) + 2
	source, sink := 0, n-1
	capacity := make([][]int64, n)
	for i := range capacity {
		capacity[i] = make([]int64, n)
	}
	var required int64
	for i, req := range p.Items {
		if req.Quantity <= 0 {
			return refuse(CheckLineItems, "checkout.line_items: requirement %q needs a positive quantity", req.ID)
		}
		required += req.Quantity
		capacity[source][1+i] = req.Quantity
		for j, id := range have {
			if slices.ContainsFunc(req.Acceptable, func(a struct {
				ID string `json:"id"`
			}) bool {
				return a.ID == id
			}) {
				capacity[1+i][1+nReq+j] = required + checkoutTotal // unbounded
			}
		}
	}
	for j, id := range have {
		capacity[1+nReq+j][sink] = qty[id]
	}
	flow := maxFlow(capacity, source, sink)
	if flow != required || flow != checkoutTotal {
		return refuse(CheckLineItems, "the checkout's items do not match the required line items (%d of %d required, %d in the checkout)", flow, required, checkoutTotal)
	}
	return nil
}

// maxFlow is Edmonds-Karp on a capacity matrix, which it consumes.
func maxFlow(capacity [][]int64, source, sink int) int64 {
	var flow int64
	for {
		parent := make([]int, len(capacity))
		for i := range parent {
			parent[i] = -1
		}
		parent[source] = source
		queue := []int{source}
		for len(queue) > 0 && parent[sink] == -1 {
			u := queue[0]
			queue = queue[1:]
			for v, c := range capacity[u] {
				if c > 0 && parent[v] == -1 {
					parent[v] = u
					queue = append(queue, v)
				}
			}
		}
		if parent[sink] == -1 {
			return flow
		}
		bottleneck := int64(-1)
		for v := sink; v != source; v = parent[v] {
			if c := capacity[parent[v]][v]; bottleneck < 0 || c < bottleneck {
				bottleneck = c
			}
		}
		for v := sink; v != source; v = parent[v] {
			capacity[parent[v]][v] -= bottleneck
			capacity[v][parent[v]] += bottleneck
		}
		flow += bottleneck
	}
}

// allowedPayees: the payment mandate's payee is among the allowed.
func allowedPayees(c constraint, s subject) *Refusal {
	var p struct {
		Allowed []Party `json:"allowed"`
	}
	if decode(c, &p) != nil {
		return refuse(CheckAllowedPayees, "payment.allowed_payees: allowed must be an array of merchants")
	}
	if !slices.ContainsFunc(p.Allowed, func(a Party) bool { return sameParty(a, s.payment.Payee) }) {
		return refuse(CheckAllowedPayees, "the payee %s is not among the allowed payees revealed", s.payment.Payee.ID)
	}
	return nil
}

// allowedInstruments: the payment instrument is among the allowed.
func allowedInstruments(c constraint, s subject) *Refusal {
	var p struct {
		Allowed []Instrument `json:"allowed"`
	}
	if decode(c, &p) != nil {
		return refuse(CheckAllowedInstruments, "payment.allowed_payment_instruments: allowed must be an array of instruments")
	}
	pi := s.payment.PaymentInstrument
	if !slices.ContainsFunc(p.Allowed, func(a Instrument) bool { return sameID(a.ID, pi.ID) && a.Type == pi.Type }) {
		return refuse(CheckAllowedInstruments, "the payment instrument %s is not among the allowed instruments revealed", pi.ID)
	}
	return nil
}

// allowedPISPs cannot hold: no payment initiation service provider takes
// part in an x402 payment.
func allowedPISPs(constraint, subject) *Refusal {
	return refuse(CheckAllowedPISPs, "no payment initiation service provider takes part in an x402 payment")
}

// amountRange: the amount is within [min, max] in the constraint's currency.
func amountRange(c constraint, s subject) *Refusal {
	var p struct {
		Currency string `json:"currency"`
		Max      *int64 `json:"max"`
		Min      *int64 `json:"min"`
	}
	if decode(c, &p) != nil || p.Max == nil {
		return refuse(CheckAmountRange, "payment.amount_range needs a currency and an integer max")
	}
	a := s.payment.PaymentAmount
	if a.Currency != p.Currency {
		return refuse(CheckAmountRange, "the amount is in %s, the range in %s", a.Currency, p.Currency)
	}
	if a.Amount > *p.Max || (p.Min != nil && a.Amount < *p.Min) {
		return refuse(CheckAmountRange, "the amount %d is outside the allowed range", a.Amount)
	}
	return nil
}

// budget cannot be evaluated: the service keeps no total of what was
// spent under an open mandate, so it refuses rather than guess.
func budget(constraint, subject) *Refusal {
	return refuse(CheckBudget, "this service does not keep the total spent under an open mandate; present one without payment.budget")
}

// reference: the Checkout Mandate's chain holds the open checkout mandate
// whose hash the constraint names.
func reference(c constraint, s subject) *Refusal {
	id, _ := c["conditional_transaction_id"].(string)
	if !slices.ContainsFunc(s.checkoutOpens, func(o openMandate) bool { return o.hash == id }) {
		return refuse(CheckReference, "no open checkout mandate of the Checkout Mandate has the hash %q", id)
	}
	return nil
}

// executionDate: the payment, executed now, falls within the window.
func executionDate(c constraint, s subject) *Refusal {
	for _, bound := range []struct {
		name   string
		before bool
	}{{"not_before", true}, {"not_after", false}} {
		v, ok := c[bound.name].(string)
		if !ok {
			continue
		}
		t, err := parseDate(v, !bound.before)
		if err != nil {
			return refuse(CheckExecutionDate, "payment.execution_date %s: %v", bound.name, err)
		}
		if bound.before && s.now.Before(t) || !bound.before && s.now.After(t) {
			return refuse(CheckExecutionDate, "the payment is executed now, outside the allowed window (%s %s)", bound.name, v)
		}
	}
	return nil
}

// parseDate reads an ISO 8601 date-time, or a date: its first instant, or
// its last when end is true.
func parseDate(s string, end bool) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, err
	}
	if end {
		t = t.Add(24*time.Hour - time.Nanosecond)
	}
	return t, nil
}

// frequencies are the periods of payment.agent_recurrence.
var frequencies = []string{"ON_DEMAND", "DAILY", "WEEKLY", "BIWEEKLY", "MONTHLY", "QUARTERLY", "ANNUALLY"}

func agentRecurrence(c constraint) (*recurrence, *Refusal) {
	var p struct {
		Frequency      string `json:"frequency"`
		MaxOccurrences *int64 `json:"max_occurrences"`
	}
	if decode(c, &p) != nil || !slices.Contains(frequencies, p.Frequency) {
		return nil, refuse(CheckAgentRecurrence, "payment.agent_recurrence needs a frequency among %v", frequencies)
	}
	r := &recurrence{frequency: p.Frequency, max: maxOccurrences}
	if p.MaxOccurrences != nil {
		r.max = min(*p.MaxOccurrences, maxOccurrences)
	}
	return r, nil
}

// maxOccurrences bounds the uses of a recurring open mandate this service
// counts.
const maxOccurrences = 1000

// period names the period of t a recurring mandate may be used in once.
func (r recurrence) period(t time.Time) string {
	t = t.UTC()
	year, week := t.ISOWeek()
	switch r.frequency {
	case "DAILY":
		return t.Format(time.DateOnly)
	case "WEEKLY":
		return fmt.Sprintf("%d-W%02d", year, week)
	case "BIWEEKLY":
		return fmt.Sprintf("%d-F%02d", year, (week+1)/2)
	case "MONTHLY":
		return t.Format("2006-01")
	case "QUARTERLY":
		return fmt.Sprintf("%d-Q%d", t.Year(), (int(t.Month())+2)/3)
	case "ANNUALLY":
		return fmt.Sprintf("%d", t.Year())
	}
	return "" // ON_DEMAND: no period
}
