package e2e_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// a2aClientDirs hold each an A2A JavaScript client: agent.mjs, built on a
// line of the official A2A JavaScript SDK, with the x402 client. Both run
// the steps of a2a-client/steps.mjs and print the same report.
var a2aClientDirs = []string{
	// @a2a-js/sdk 0.3.x, which speaks A2A 0.3.0 like the endpoint.
	"a2a-client",
	// @a2a-js/sdk 1.x, which speaks A2A 1.0, through its opt-in v0.3
	// compatibility layer (card resolver and JSON-RPC transport).
	"a2a-client-v1",
}

// a2aTask is what agent.mjs reports of a task.
type a2aTask struct {
	State         string                    `json:"state"`
	Text          string                    `json:"text"`
	PaymentStatus string                    `json:"payment_status"`
	PaymentError  string                    `json:"payment_error"`
	Receipts      []x402.SettlementResponse `json:"receipts"`
	Artifacts     int                       `json:"artifacts"`
	Answer        map[string]any            `json:"answer"`
	OfferState    string                    `json:"offer_state"`
	Offer         *x402.PaymentRequired     `json:"offer"`
}

// TestA2AJavaScriptClient calls every A2A skill with each line of the
// official A2A JavaScript SDK against the real service, paying the paid
// skills with the official x402 client over x402's A2A transport (local
// facilitator). Each client gets a service of its own and the same checks.
func TestA2AJavaScriptClient(t *testing.T) {
	for _, dir := range a2aClientDirs {
		t.Run(dir, func(t *testing.T) { testA2AClient(t, dir) })
	}
}

// testA2AClient runs e2e/dir/agent.mjs against a new service and checks
// its report against the REST answers, the evaluation core and the
// counters.
func testA2AClient(t *testing.T, dir string) {
	bin := nodeFor(t, dir, "the A2A JavaScript client test", "@a2a-js/sdk", "@x402/core", "@x402/evm", "viem")
	url := serve(t)

	stdout, err := runNode(t, bin, dir, url, "agent.mjs")
	if err != nil {
		t.Fatalf("node e2e/%s/agent.mjs: %v", dir, err)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var got struct {
		Card struct {
			URL                string   `json:"url"`
			PreferredTransport string   `json:"preferredTransport"`
			ProtocolVersion    string   `json:"protocolVersion"`
			Skills             []string `json:"skills"`
		} `json:"card"`
		Payer                                                    string  `json:"payer"`
		Dataset, Check, PaidCheck, Passport, Trip, Retry, Replay a2aTask `json:"-"`
	}
	raw := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &raw); err != nil {
		t.Fatalf("agent.mjs output %q: %v", stdout, err)
	}
	for key, into := range map[string]any{"card": &got.Card, "payer": &got.Payer, "dataset": &got.Dataset, "check": &got.Check,
		"paid_check": &got.PaidCheck, "passport": &got.Passport, "trip": &got.Trip, "retry": &got.Retry, "replay": &got.Replay} {
		if err := json.Unmarshal(raw[key], into); err != nil {
			t.Fatalf("agent.mjs %s: %v", key, err)
		}
	}

	if got.Card.URL != url+"/a2a" || got.Card.PreferredTransport != "JSONRPC" || got.Card.ProtocolVersion != "0.3.0" || len(got.Card.Skills) != 5 {
		t.Errorf("agent card as the SDK read it: %+v", got.Card)
	}
	// The free skills answer as their REST routes.
	if got.Dataset.State != "completed" || got.Dataset.Answer["dataset_version"] != datatest.Current {
		t.Errorf("dataset-info: %+v", got.Dataset)
	}
	rest := getJSON(t, url+"/free/check?passport=DEU&destination=THA")
	if got.Check.State != "completed" || !reflect.DeepEqual(stable(got.Check.Answer), stable(rest)) {
		t.Errorf("check: %s %q\nA2A:  %v\nREST: %v", got.Check.State, got.Check.Text, got.Check.Answer, rest)
	}

	// The paid skills: an offer at the REST price, then the answer and its receipt.
	ev := datatest.Evaluator(t)
	matrix, err := ev.PassportMatrix("DEU", "", entrycheck.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	trip, err := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler":{"passports":["USA"]},"trip":{"legs":[{"country":"FRA","arrival":"2027-04-01","departure":"2027-04-10"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	tripResult, err := ev.EvaluateTrip(trip, "", entrycheck.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		task   a2aTask
		amount string
		want   map[string]any
	}{
		{"paid-check", got.PaidCheck, "30000", rest},
		{"passport-matrix", got.Passport, "150000", asJSON(t, matrix)},
		{"evaluate-trip", got.Trip, "100000", asJSON(t, tripResult)},
	} {
		if c.task.OfferState != "input-required" || c.task.Offer == nil || len(c.task.Offer.Accepts) != 1 || c.task.Offer.Accepts[0].Amount != c.amount {
			t.Errorf("%s offer: %s %+v, want %s atomic USDC", c.name, c.task.OfferState, c.task.Offer, c.amount)
		}
		if c.task.State != "completed" || c.task.PaymentStatus != "payment-completed" {
			t.Errorf("%s: %s %s %q", c.name, c.task.State, c.task.PaymentStatus, c.task.Text)
			continue
		}
		if r := c.task.Receipts; len(r) != 1 || !r[0].Success || !strings.HasPrefix(r[0].Transaction, "local:") || r[0].Network != x402.NetworkBase || !strings.EqualFold(r[0].Payer, testPayer) {
			t.Errorf("%s receipts: %+v", c.name, r)
		}
		if !reflect.DeepEqual(stable(c.task.Answer), stable(c.want)) {
			t.Errorf("%s answer differs from the REST answer\nA2A:  %.600v\nREST: %.600v", c.name, c.task.Answer, c.want)
		}
	}

	// The same payment again for the same check (its answer was lost):
	// answered again with the same receipt, charged once.
	if r := got.Retry; r.State != "completed" || r.PaymentStatus != "payment-completed" || !reflect.DeepEqual(r.Receipts, got.PaidCheck.Receipts) {
		t.Errorf("the same payment again: %s %s %+v, want completed with %+v", r.State, r.PaymentStatus, r.Receipts, got.PaidCheck.Receipts)
	}
	// The same payment for another check: refused (the x402 client names
	// the resource it paid for), nothing served, nothing charged.
	if r := got.Replay; r.State != "failed" || r.PaymentStatus != "payment-failed" || r.PaymentError == "" || !strings.Contains(r.Text, "nothing was charged") || r.Artifacts != 0 {
		t.Errorf("replayed payment: %+v", r)
	}
	stats := getJSON(t, url+"/stats.json")
	if stats["paid_calls_today"] != float64(3) || stats["free_checks_today"] != float64(2) {
		t.Errorf("counters after 3 paid skills, 1 retry, 1 replay, 1 A2A and 1 REST free check: paid %v, free %v", stats["paid_calls_today"], stats["free_checks_today"])
	}
}

func getJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return m
}

func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// stable is an answer without what differs between two requests for it:
// the request id, the time it was computed and the receipt REST echoes.
func stable(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "request_id", "evaluated_at", "payment":
		default:
			out[k] = v
		}
	}
	return out
}
