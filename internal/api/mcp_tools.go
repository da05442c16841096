package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The handlers of the MCP tools. Each answers with a tool result, never a
// protocol error: invalid arguments, an exhausted quota and a required
// payment are tool errors (isError) that a model can read and act on, with
// the same machine-readable bodies as the REST API in structuredContent.

// mcpCheck answers check_entry_requirements: the check of GET /free/check,
// counted against the same buckets. Invalid arguments are refused before
// anything is counted.
func (s *Server) mcpCheck(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	c := callerFrom(ctx)
	if c.r == nil {
		return s.toolError(ctx, errors.New("MCP call without its HTTP request")), nil
	}
	creq, problems := checkArgs(req.Params.Arguments)
	creq.RequestID = id
	res, u, err := s.checker.Free(ctx, c.r, c.p, creq, problems, check.Spend)
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	if u.Exhausted != nil {
		body := s.quotas.Refusal(id, *u.Exhausted, u.Reset)
		body.Alternatives = []string{
			fmt.Sprintf("register a client at POST %s and send its token as Authorization: Bearer on the MCP requests for %d free calls a day (see %s)",
				discovery.PathRegister, s.cfg.Quotas.Client, discovery.PathAuthGuide),
			quota.AltPay,
		}
		return errorResult(body, rateLimitedText(body), id), nil
	}
	out, err := structuredResult(res, checkText(res), id)
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	out.Meta[metaPrefix+"rate_limit"] = map[string]any{
		"scope": u.Own.Scope, "limit": u.Own.Limit, "remaining": max(0, u.Own.Limit-u.Used), "reset_at": u.Reset,
	}
	return out, nil
}

// checkArgParams lists the arguments of check_entry_requirements, for messages.
const checkArgParams = "passport, destination, transit, purpose, residence_permits_of and visas_of"

// checkArgs reads the arguments of check_entry_requirements. Like the query
// of /free/check, unknown arguments are refused so that a typo is not
// silently ignored, and every problem is reported; the values are
// validated by the evaluation core.
func checkArgs(raw json.RawMessage) (entrycheck.CheckRequest, []entrycheck.Problem) {
	var req entrycheck.CheckRequest
	var fields map[string]json.RawMessage
	if b := bytes.TrimSpace(raw); len(b) > 0 && !bytes.Equal(b, []byte("null")) {
		if err := json.Unmarshal(b, &fields); err != nil {
			return req, []entrycheck.Problem{{Field: "arguments", Code: entrycheck.ProblemWrongType, Value: clip(string(b)),
				Message: `the arguments must be a JSON object such as {"passport": "DEU", "destination": "THA"}`}}
		}
	}
	var problems []entrycheck.Problem
	wrong := func(name, v, want string) {
		problems = append(problems, entrycheck.Problem{Field: name, Code: entrycheck.ProblemWrongType, Value: clip(v),
			Message: fmt.Sprintf("%s must be %s", name, want)})
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range fields {
			if !yield(k) {
				return
			}
		}
	}) {
		v := fields[name]
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		switch name {
		case "passport", "destination", "transit", "purpose":
			var str string
			if json.Unmarshal(v, &str) != nil {
				if name == "purpose" {
					wrong(name, string(v), `a string: "tourism" or "business"`)
				} else {
					wrong(name, string(v), "a string: an ISO 3166-1 code such as DEU, or a country name")
				}
				continue
			}
			str = strings.TrimSpace(str)
			switch name {
			case "passport":
				req.Passport = str
			case "destination":
				req.Destination = str
			case "transit":
				req.Transit = str
			case "purpose":
				req.Purpose = str
			}
		case "residence_permits_of", "visas_of":
			var list []string
			if json.Unmarshal(v, &list) != nil {
				wrong(name, string(v), `an array of ISO 3166-1 alpha-3 codes (or SCHENGEN), such as ["USA"]`)
				continue
			}
			for i := range list {
				list[i] = strings.TrimSpace(list[i])
			}
			if name == "visas_of" {
				req.VisasOf = list
			} else {
				req.ResidencePermitsOf = list
			}
		default:
			problems = append(problems, entrycheck.Problem{Field: name, Code: response.CodeUnknownParameter, Value: clip(string(v)),
				Message: fmt.Sprintf("unknown argument %q: the arguments are %s", name, checkArgParams)})
		}
	}
	return req, problems
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// mcpTrip answers evaluate_trip, paid with x402 over MCP (x402
// specs/transports-v2/mcp.md, tool-result binding): the request is decoded
// and validated first (nobody pays for invalid input); without an accepted
// payment in _meta["x402/payment"] the result is the PaymentRequired offer
// as a tool error; with one, the trip is evaluated, the payment settled,
// and only then the answer returned with the receipt in
// _meta["x402/payment-response"].
func (s *Server) mcpTrip(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	trip, err := evaluation.DecodeTripRequest(bytes.NewReader(req.Params.Arguments))
	if err == nil {
		err = s.evaluator().ValidateTrip(trip)
	}
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	if s.cfg.PayTo == "" {
		body := response.ErrorBody{Error: response.CodePaymentsOff, RequestID: id,
			Message: "this server has no payment address configured (ENTRYCHECK_PAY_TO), so " + toolTrip + " cannot be paid for; use " + toolCheck + " for each leg"}
		return errorResult(body, body.Message+".", id), nil
	}
	offer, err := s.offer(s.toolResourceURL(toolTrip), s.price(discovery.PathTrips))
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	payment, reason := s.authorizeMeta(ctx, req.Params.Meta, offer)
	if payment == nil {
		offer.Error = reason
		return paymentRequiredResult(offer, id, nil), nil
	}
	res, err := s.evaluator().EvaluateTrip(trip, id, s.clock)
	if err != nil {
		return s.toolError(ctx, err), nil // not settled: nothing is charged
	}
	receipt, failure, err := s.settle(ctx, payment)
	if err != nil {
		return s.toolError(ctx, &response.StatusError{Status: http.StatusServiceUnavailable, Code: response.CodeUnavailable, Message: "payments cannot be settled right now; nothing was charged: sign a new payment and retry in a minute"}), nil
	}
	if failure != "" {
		offer.Error = failure
		var r *x402.SettlementResponse
		if receipt.Network != "" {
			r = &receipt
		}
		return paymentRequiredResult(offer, id, r), nil
	}
	out, err := structuredResult(res, tripText(res), id)
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	out.Meta[x402.MetaPaymentResponse] = receipt
	return out, nil
}

// authorizeMeta reads the PaymentPayload a tool call carries in
// _meta["x402/payment"] and asks the payment gate, as the PAYMENT-SIGNATURE
// header is read on HTTP.
func (s *Server) authorizeMeta(ctx context.Context, meta mcp.Meta, offer x402.PaymentRequired) (*Payment, string) {
	raw, ok := meta[x402.MetaPayment]
	if !ok || raw == nil {
		return nil, `no payment was sent: repeat the call with a signed x402 PaymentPayload for one of the accepted requirements in params._meta["` + x402.MetaPayment + `"]`
	}
	var payload x402.PaymentPayload
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &payload)
	}
	if err != nil {
		return nil, `_meta["` + x402.MetaPayment + `"] must be an x402 PaymentPayload object: ` + err.Error()
	}
	return s.payments.Authorize(ctx, payload, offer)
}

// toolResourceURL names a paid tool as the x402 resource, as the x402 MCP
// transport does: mcp://{host}/tools/{name}.
func (s *Server) toolResourceURL(tool string) string {
	base := s.site().BaseURL
	if _, rest, ok := strings.Cut(base, "://"); ok {
		base = rest
	}
	return "mcp://" + base + "/tools/" + tool
}

// paymentRequiredResult is the x402 "payment required" tool result: isError,
// the PaymentRequired object in structuredContent and the same object as
// JSON in content[0].text, then a sentence for the model. The object is
// the body of the REST 402 (x402's members with our code and request_id),
// so that one schema describes both. A failed settlement's receipt goes in
// _meta["x402/payment-response"].
func paymentRequiredResult(offer x402.PaymentRequired, requestID string, receipt *x402.SettlementResponse) *mcp.CallToolResult {
	b, err := response.Marshal(paymentRequired{PaymentRequired: offer, Code: response.CodePaymentRequired, RequestID: requestID})
	if err != nil { // x402 types always marshal
		panic(err)
	}
	text := "Payment required; nothing was charged: " + offer.Error + "."
	if len(offer.Accepts) > 0 {
		a := offer.Accepts[0]
		text += fmt.Sprintf("\n%s: %s atomic units of USDC (asset %s on %s) paid to %s, x402 version %d, scheme %s. "+
			"Sign a PaymentPayload for these requirements and repeat the same call with it in params._meta[%q]; "+
			"the settlement receipt comes back in the result's _meta[%q].",
			offer.Resource.Description, a.Amount, a.Asset, a.Network, a.PayTo, offer.X402Version, a.Scheme, x402.MetaPayment, x402.MetaPaymentResponse)
	}
	res := &mcp.CallToolResult{
		IsError:           true,
		StructuredContent: b,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}, &mcp.TextContent{Text: text}},
		Meta:              mcp.Meta{metaPrefix + "request_id": requestID},
	}
	if receipt != nil {
		res.Meta[x402.MetaPaymentResponse] = receipt
	}
	return res
}

// mcpDataset answers get_dataset_info: free and counted against nothing.
func (s *Server) mcpDataset(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	var args map[string]json.RawMessage
	if b := bytes.TrimSpace(req.Params.Arguments); len(b) > 0 && !bytes.Equal(b, []byte("null")) {
		if err := json.Unmarshal(b, &args); err != nil || len(args) > 0 {
			return s.toolError(ctx, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: []entrycheck.Problem{{
				Field: "arguments", Code: response.CodeUnknownParameter, Value: clip(string(b)), Message: toolDataset + " takes no arguments: send {}",
			}}}), nil
		}
	}
	info, err := s.datasetInfo(ctx)
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	out, err := structuredResult(info, datasetText(info), id)
	if err != nil {
		return s.toolError(ctx, err), nil
	}
	return out, nil
}

func (s *Server) datasetInfo(ctx context.Context) (datasetInfo, error) {
	snap := s.evaluator().Snapshot()
	src := s.evaluator().Source()
	today, err := s.quotas.Today(ctx)
	if err != nil {
		return datasetInfo{}, err
	}
	countries := len(snap.Matrix.Countries())
	curated := snap.Curated.SortedCodes()
	info := datasetInfo{
		DatasetVersion:          snap.Version(),
		Routes:                  snap.Matrix.Routes(),
		Passports:               countries,
		Destinations:            countries,
		CuratedDestinations:     len(curated),
		CuratedDestinationCodes: curated,
		StaleAfterDays:          entrycheck.StaleAfterDays,
		MatrixSource:            matrixSource{Kind: src.Kind, Name: src.Name, URL: src.URL, Commit: src.Commit, License: src.License, Snapshot: src.Snapshot},
		Today: todayCounters{
			Date: today.Date, FreeChecks: today.FreeChecks, FreeChecksCeiling: s.cfg.Quotas.Global,
			PaidCalls: today.PaidCalls, ResetAt: today.Reset.Format(time.RFC3339),
		},
	}
	for _, r := range entrycheck.Requirements {
		info.RequirementValues = append(info.RequirementValues, requirementValue{Value: r, Label: r.Label(), Action: r.Action()})
	}
	site := s.site()
	info.Links = datasetLinks{
		OpenAPI:      site.URL(discovery.PathOpenAPI),
		Transparency: site.URL(discovery.PathTransparency + "/"),
		Changes:      site.URL(site.ChangesPath),
		Feed:         site.URL(site.FeedPath),
		ServerCard:   site.URL(discovery.PathServerCard),
		AuthGuide:    site.URL(discovery.PathAuthGuide),
	}
	return info, nil
}

// structuredResult is a successful tool result: the answer in
// structuredContent (encoded as the API encodes it) and a readable summary.
func structuredResult(v any, text, requestID string) (*mcp.CallToolResult, error) {
	b, err := response.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		StructuredContent: b,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		Meta:              mcp.Meta{metaPrefix + "request_id": requestID},
	}, nil
}

// errorResult is a tool error: the API's error body in structuredContent
// and a readable text.
func errorResult(body any, text, requestID string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		Meta:    mcp.Meta{metaPrefix + "request_id": requestID},
	}
	if b, err := response.Marshal(body); err == nil {
		res.StructuredContent = b
	}
	return res
}

// toolError maps an error to a tool error in one place, as response.Error
// does for HTTP (see response.AnswerOf): invalid input lists every
// problem; anything else is logged and reported as ours.
func (s *Server) toolError(ctx context.Context, err error) *mcp.CallToolResult {
	body := response.AnswerOf(ctx, s.log, err).Body
	var invalid *entrycheck.Error
	if errors.As(err, &invalid) && invalid.Code == entrycheck.EINVALID {
		return errorResult(body, problemsText(invalid), body.RequestID)
	}
	return errorResult(body, body.Message+" (request_id "+body.RequestID+").", body.RequestID)
}
