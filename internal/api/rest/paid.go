package rest

import (
	"net/http"

	"github.com/entrycheck/entrycheck/internal/discovery"
)

// PaidAnswers are the answers of the paid routes of discovery.Routes by
// path, computed once the payment is authorized (payment.Cashier.Paid
// wraps each). A new paid route is its row in discovery.Routes, its answer
// here and its description in the API document: the router registers
// every paid row from this map and panics at start on a row without an
// answer.
func (e *Endpoints) PaidAnswers() map[string]func(*http.Request) (any, error) {
	return map[string]func(*http.Request) (any, error){
		discovery.PathCheck:    e.PaidCheck,
		discovery.PathPassport: e.PaidPassport,
		discovery.PathTrips:    e.PaidTrip,
	}
}
