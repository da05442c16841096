package ap2

import (
	"testing"
	"time"
)

func testSubject() subject {
	return subject{
		merchant: Party{ID: "https://entrycheck.example", Name: "entrycheck", Website: "https://entrycheck.example"},
		checkout: checkout{LineItems: []lineItem{{ID: "line_1", Item: item{ID: "check", Title: "Entry requirements"}, Quantity: 1}}},
		payment: closedPayment{
			Payee:             Party{ID: "eip155:8453:0xAbC", Name: "entrycheck"},
			PaymentAmount:     Amount{Amount: 3, Currency: "USD"},
			PaymentInstrument: Instrument{ID: "exact:eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", Type: "x402"},
		},
		checkoutOpens: []openMandate{{hash: "open-checkout-hash"}},
		now:           time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC),
	}
}

func TestConstraints(t *testing.T) {
	tests := []struct {
		name, vct string
		c         constraint
		fails     string // the check that fails, "" when the constraint holds
	}{
		{"merchant allowed", VCTCheckoutOpen, constraint{"type": "checkout.allowed_merchants", "allowed": []any{
			map[string]any{"id": "other.example", "name": "Other"}, map[string]any{"id": "https://entrycheck.example", "name": "entrycheck", "website": "https://entrycheck.example"}}}, ""},
		{"merchant not allowed", VCTCheckoutOpen, constraint{"type": "checkout.allowed_merchants", "allowed": []any{map[string]any{"id": "other.example", "name": "Other"}}}, CheckAllowedMerchants},
		{"no merchant revealed", VCTCheckoutOpen, constraint{"type": "checkout.allowed_merchants", "allowed": []any{}}, CheckAllowedMerchants},
		{"same id, other website", VCTCheckoutOpen, constraint{"type": "checkout.allowed_merchants", "allowed": []any{map[string]any{"id": "https://entrycheck.example", "name": "x", "website": "https://evil.example"}}}, CheckAllowedMerchants},
		{"line item acceptable", VCTCheckoutOpen, lineItemsOf(1, "passport", "check"), ""},
		{"line item not acceptable", VCTCheckoutOpen, lineItemsOf(1, "passport"), CheckLineItems},
		{"line item quantity too high", VCTCheckoutOpen, lineItemsOf(2, "check"), CheckLineItems},
		{"two requirements, one item", VCTCheckoutOpen, constraint{"type": "checkout.line_items", "items": []any{
			map[string]any{"id": "a", "acceptable_items": []any{map[string]any{"id": "check", "title": "t"}}, "quantity": 1},
			map[string]any{"id": "b", "acceptable_items": []any{map[string]any{"id": "check", "title": "t"}}, "quantity": 1}}}, CheckLineItems},
		{"payee allowed", VCTPaymentOpen, constraint{"type": "payment.allowed_payees", "allowed": []any{map[string]any{"id": "eip155:8453:0xabc", "name": "entrycheck"}}}, ""},
		{"payee not allowed", VCTPaymentOpen, constraint{"type": "payment.allowed_payees", "allowed": []any{map[string]any{"id": "eip155:8453:0xdef", "name": "x"}}}, CheckAllowedPayees},
		{"instrument allowed", VCTPaymentOpen, constraint{"type": "payment.allowed_payment_instruments", "allowed": []any{map[string]any{"id": "exact:eip155:8453:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", "type": "x402"}}}, ""},
		{"instrument not allowed", VCTPaymentOpen, constraint{"type": "payment.allowed_payment_instruments", "allowed": []any{map[string]any{"id": "abe3c", "type": "card"}}}, CheckAllowedInstruments},
		{"amount in range", VCTPaymentOpen, constraint{"type": "payment.amount_range", "currency": "USD", "min": 1.0, "max": 3.0}, ""},
		{"amount above max", VCTPaymentOpen, constraint{"type": "payment.amount_range", "currency": "USD", "max": 2.0}, CheckAmountRange},
		{"amount below min", VCTPaymentOpen, constraint{"type": "payment.amount_range", "currency": "USD", "min": 4.0, "max": 10.0}, CheckAmountRange},
		{"amount in another currency", VCTPaymentOpen, constraint{"type": "payment.amount_range", "currency": "EUR", "max": 10.0}, CheckAmountRange},
		{"amount range without max", VCTPaymentOpen, constraint{"type": "payment.amount_range", "currency": "USD"}, CheckAmountRange},
		{"within execution window", VCTPaymentOpen, constraint{"type": "payment.execution_date", "not_before": "2026-11-01T00:00:00Z", "not_after": "2026-11-27"}, ""},
		{"before execution window", VCTPaymentOpen, constraint{"type": "payment.execution_date", "not_before": "2026-11-28"}, CheckExecutionDate},
		{"after execution window", VCTPaymentOpen, constraint{"type": "payment.execution_date", "not_after": "2026-11-27T11:59:59Z"}, CheckExecutionDate},
		{"reference held", VCTPaymentOpen, constraint{"type": "payment.reference", "conditional_transaction_id": "open-checkout-hash"}, ""},
		{"reference elsewhere", VCTPaymentOpen, constraint{"type": "payment.reference", "conditional_transaction_id": "other"}, CheckReference},
		{"budget not tracked", VCTPaymentOpen, constraint{"type": "payment.budget", "currency": "USD", "max": 100.0}, CheckBudget},
		{"no pisp in x402", VCTPaymentOpen, constraint{"type": "payment.allowed_pisps", "allowed": []any{}}, CheckAllowedPISPs},
		{"recurrence", VCTPaymentOpen, constraint{"type": "payment.agent_recurrence", "frequency": "DAILY", "max_occurrences": 3.0}, ""},
		{"recurrence of unknown frequency", VCTPaymentOpen, constraint{"type": "payment.agent_recurrence", "frequency": "HOURLY"}, CheckAgentRecurrence},
		{"unknown constraint", VCTPaymentOpen, constraint{"type": "payment.loyalty_points"}, CheckUnknownConstraint},
		{"payment constraint in a checkout mandate", VCTCheckoutOpen, constraint{"type": "payment.amount_range", "currency": "USD", "max": 10.0}, CheckUnknownConstraint},
		{"checkout constraint in a payment mandate", VCTPaymentOpen, constraint{"type": "checkout.allowed_merchants", "allowed": []any{}}, CheckUnknownConstraint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, r := evaluate(tt.vct, tt.c, testSubject())
			got := ""
			if r != nil {
				got = r.Check
			}
			if got != tt.fails {
				t.Errorf("evaluate = %v, want the check %q to fail", r, tt.fails)
			}
		})
	}
}

func lineItemsOf(quantity float64, ids ...string) constraint {
	var acceptable []any
	for _, id := range ids {
		acceptable = append(acceptable, map[string]any{"id": id, "title": id})
	}
	return constraint{"type": "checkout.line_items", "items": []any{map[string]any{"id": "line_1", "acceptable_items": acceptable, "quantity": quantity}}}
}

func TestRecurrencePeriods(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for freq, want := range map[string]string{
		"ON_DEMAND": "", "DAILY": "2026-11-27", "WEEKLY": "2026-W48", "BIWEEKLY": "2026-F24",
		"MONTHLY": "2026-11", "QUARTERLY": "2026-Q4", "ANNUALLY": "2026",
	} {
		if got := (recurrence{frequency: freq}).period(at); got != want {
			t.Errorf("%s: period %q, want %q", freq, got, want)
		}
	}
}
