package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/entrycheck/entrycheck/internal/jsonproblem"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// evaluateTrip answers evaluate_trip, paid with x402 over MCP (x402
// specs/transports-v2/mcp.md, tool-result binding): the request is decoded
// and validated first (nobody pays for invalid input); without an accepted
// payment in _meta["x402/payment"] the result is the PaymentRequired offer
// as a tool error; with one, the trip is evaluated, the payment settled,
// and only then the answer returned with the receipt in
// _meta["x402/payment-response"]. AP2 rides beside x402 as on the REST
// route: the offer carries the Checkout JWT under "ap2", the call's _meta
// may carry the closed mandates, verified before settlement, and the
// answer's _meta carries the receipts.
func (e *Endpoint) evaluateTrip(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	trip, err := evaluation.DecodeTripRequest(bytes.NewReader(req.Params.Arguments))
	if err == nil {
		err = e.Evaluator().ValidateTrip(trip)
	}
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	if e.Cashier.PayTo == "" {
		body := response.ErrorBody{Error: response.CodePaymentsOff, RequestID: id,
			Message: "this server has no payment address configured (ENTRYCHECK_PAY_TO), so " + toolTrip + " cannot be paid for; use " + toolCheck + " for each leg"}
		return errorResult(body, body.Message+".", id), nil
	}
	price := e.Cashier.Price(discovery.PathTrips)
	offer, err := e.Cashier.Offer(e.toolResourceURL(toolTrip), price)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	// AP2 mandates, when sent, are verified and their use recorded before
	// anything is settled: a refused mandate charges nothing.
	mandates := payment.MandatesIn(req.Params.Meta, ap2.MetaMCPCheckoutMandate, ap2.MetaMCPPaymentMandate)
	paid, accepted, reason, refusal := e.authorizeMeta(ctx, req.Params.Meta, offer, mandates)
	if refusal != nil && refusal.Check == ap2.CheckStoreUnavailable {
		return e.toolError(ctx, &response.StatusError{Status: http.StatusServiceUnavailable, Code: response.CodeUnavailable,
			Message: "AP2 mandates cannot be recorded right now; nothing was charged: retry in a minute with new mandates and a new payment"}), nil
	}
	if paid == nil {
		offer.Error = reason
		res := paymentRequiredResult(e.Cashier.Required(id, offer, e.Cashier.Checkout(offer, price), mandates, refusal), nil)
		if refusal != nil {
			res.Meta[ap2.MetaMCPError] = refusal.Check
		}
		return res, nil
	}
	res, err := e.Evaluator().EvaluateTrip(trip, id, e.Clock)
	if err != nil {
		return e.toolError(ctx, err), nil // not settled: nothing is charged
	}
	settled, failure, err := e.Cashier.Settle(ctx, paid, accepted)
	receipt := settled.Receipt
	if err != nil {
		return e.toolError(ctx, &response.StatusError{Status: http.StatusServiceUnavailable, Code: response.CodeUnavailable,
			Message: "payments cannot be settled right now; nothing was charged: sign a new payment and retry in a minute"}), nil
	}
	if failure != "" {
		offer.Error = failure
		var r *x402.SettlementResponse
		if receipt.Network != "" {
			r = &receipt
		}
		return paymentRequiredResult(e.Cashier.Required(id, offer, e.Cashier.Checkout(offer, price), mandates, nil), r), nil
	}
	out, err := structuredResult(res, tripText(res), id)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	out.Meta[x402.MetaPaymentResponse] = receipt
	if settled.AP2 != nil {
		out.Meta[ap2.MetaMCPReceipts] = settled.AP2
	}
	return out, nil
}

// authorizeMeta reads the PaymentPayload a tool call carries in
// _meta["x402/payment"] and asks the cashier with the call's AP2 mandates,
// as the PAYMENT-SIGNATURE and AP2 mandate headers are read on HTTP.
func (e *Endpoint) authorizeMeta(ctx context.Context, meta mcp.Meta, offer x402.PaymentRequired, mandates payment.Mandates) (*payment.Payment, *ap2.Accepted, string, *ap2.Refusal) {
	raw, ok := meta[x402.MetaPayment]
	if !ok || raw == nil {
		return nil, nil, `no payment was sent: repeat the call with a signed x402 PaymentPayload for one of the accepted requirements in params._meta["` + x402.MetaPayment + `"]`, nil
	}
	var payload x402.PaymentPayload
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &payload)
	}
	if err != nil {
		return nil, nil, `_meta["` + x402.MetaPayment + `"] must be an x402 PaymentPayload object: ` + jsonproblem.Describe("the payment", err), nil
	}
	return e.Cashier.AuthorizeWithMandates(ctx, payload, offer, mandates)
}

// toolResourceURL names a paid tool as the x402 resource, as the x402 MCP
// transport does: mcp://{host}/tools/{name}.
func (e *Endpoint) toolResourceURL(tool string) string {
	base := e.Site().BaseURL
	if _, rest, ok := strings.Cut(base, "://"); ok {
		base = rest
	}
	return "mcp://" + base + "/tools/" + tool
}

// paymentRequiredResult is the x402 "payment required" tool result: isError,
// the PaymentRequired object in structuredContent and the same object as
// JSON in content[0].text, then a sentence for the model. The object is
// the body of the REST 402 (x402's members with our code and request_id,
// and the AP2 offer or refusal under "ap2"), so that one schema describes
// both. A failed settlement's receipt goes in _meta["x402/payment-response"].
func paymentRequiredResult(body payment.Required, receipt *x402.SettlementResponse) *mcp.CallToolResult {
	b, err := response.Marshal(body)
	if err != nil { // x402 types always marshal
		panic(err)
	}
	offer := body.PaymentRequired
	text := "Payment required; nothing was charged: " + offer.Error + "."
	if len(offer.Accepts) > 0 {
		a := offer.Accepts[0]
		text += fmt.Sprintf("\n%s: %s atomic units of USDC (asset %s on %s) paid to %s, x402 version %d, scheme %s. "+
			"Sign a PaymentPayload for these requirements and repeat the same call with it in params._meta[%q]; "+
			"the settlement receipt comes back in the result's _meta[%q].",
			offer.Resource.Description, a.Amount, a.Asset, a.Network, a.PayTo, offer.X402Version, a.Scheme, x402.MetaPayment, x402.MetaPaymentResponse)
	}
	if body.AP2 != nil && body.AP2.Offer != nil {
		text += fmt.Sprintf("\nAP2 (optional): the Checkout JWT and what the closed mandates must say are under \"ap2\"; send the closed "+
			"Checkout and Payment Mandates in params._meta[%q] and params._meta[%q] beside the payment; the signed receipts come back in _meta[%q].",
			ap2.MetaMCPCheckoutMandate, ap2.MetaMCPPaymentMandate, ap2.MetaMCPReceipts)
	}
	res := &mcp.CallToolResult{
		IsError:           true,
		StructuredContent: b,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}, &mcp.TextContent{Text: text}},
		Meta:              mcp.Meta{metaPrefix + "request_id": body.RequestID},
	}
	if receipt != nil {
		res.Meta[x402.MetaPaymentResponse] = receipt
	}
	return res
}
