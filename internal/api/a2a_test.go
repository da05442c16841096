package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/x402"
	"github.com/entrycheck/entrycheck/internal/x402/exact"
)

// a2aCall is one message/send on /a2a: a data part, in taskID when set,
// with metadata, the x402 and AP2 extensions activated or not.
type a2aCall struct {
	data     map[string]any
	taskID   string
	metadata map[string]any
	x402     bool
	ap2      bool
	// bearer is the OAuth access token to send, if any.
	bearer string
	// header are more request headers, name then value.
	header []string
}

// a2aTask is the task a message/send answers.
type a2aTask struct {
	ID     string `json:"id"`
	Status struct {
		State   string `json:"state"`
		Message struct {
			Parts []struct {
				Kind string         `json:"kind"`
				Text string         `json:"text"`
				Data map[string]any `json:"data"`
			} `json:"parts"`
			Metadata map[string]json.RawMessage `json:"metadata"`
		} `json:"message"`
	} `json:"status"`
	Artifacts []struct {
		Parts []struct {
			Kind string         `json:"kind"`
			Data map[string]any `json:"data"`
		} `json:"parts"`
	} `json:"artifacts"`
}

// answer is the data of the task's one artifact.
func (k a2aTask) answer(t *testing.T) map[string]any {
	t.Helper()
	if len(k.Artifacts) != 1 || len(k.Artifacts[0].Parts) != 1 || k.Artifacts[0].Parts[0].Kind != "data" {
		t.Fatalf("task %s (%s) has no data artifact: %+v", k.ID, k.Status.State, k)
	}
	return k.Artifacts[0].Parts[0].Data
}

// words are the texts of the status message.
func (k a2aTask) words() string {
	var out []string
	for _, p := range k.Status.Message.Parts {
		out = append(out, p.Text)
	}
	return strings.Join(out, " ")
}

func (k a2aTask) meta(t *testing.T, key string, v any) {
	t.Helper()
	raw, ok := k.Status.Message.Metadata[key]
	if !ok {
		t.Fatalf("status message has no metadata %s: %+v", key, k.Status.Message.Metadata)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("metadata %s: %v", key, err)
	}
}

func (e *env) a2a(t *testing.T, c a2aCall) a2aTask {
	t.Helper()
	msg := map[string]any{
		"kind": "message", "role": "user", "messageId": "m-" + strings.ReplaceAll(t.Name(), "/", "-"),
		"parts": []any{map[string]any{"kind": "data", "data": c.data}},
	}
	if c.taskID != "" {
		msg["taskId"] = c.taskID
	}
	if c.metadata != nil {
		msg["metadata"] = c.metadata
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": map[string]any{"message": msg}})
	req, _ := http.NewRequest(http.MethodPost, e.url+"/a2a", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	var exts []string
	if c.x402 {
		exts = append(exts, x402.A2AExtensionURI)
	}
	if c.ap2 {
		exts = append(exts, ap2.A2AExtensionURI)
	}
	if len(exts) > 0 {
		req.Header.Set("X-A2A-Extensions", strings.Join(exts, ", "))
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	for i := 0; i+1 < len(c.header); i += 2 {
		req.Header.Set(c.header[i], c.header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got := resp.Header.Get("X-A2A-Extensions"); got != strings.Join(exts, ", ") {
		t.Errorf("X-A2A-Extensions %q, want %q: the extensions asked for were not activated", got, exts)
	}
	var out struct {
		Result a2aTask         `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Error != nil {
		t.Fatalf("message/send: %v %s", err, out.Error)
	}
	return out.Result
}

// withoutVolatile drops what differs between two requests for the same
// answer: the request id, and the receipt REST echoes in the body.
func withoutVolatile(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "request_id" && k != "payment" {
			out[k] = v
		}
	}
	return out
}

func TestA2AFreeSkills(t *testing.T) {
	e := start(t, "")
	stats := e.get("/stats.json").json(t)
	k := e.a2a(t, a2aCall{data: map[string]any{"skill": "dataset-info"}})
	if k.Status.State != "completed" || !reflect.DeepEqual(k.answer(t), stats) {
		t.Errorf("dataset-info: %s %v, want %v", k.Status.State, k.answer(t), stats)
	}

	rest := e.get("/free/check?passport=DEU&destination=THA").json(t)
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "DEU", "destination": "THA"}})
	if k.Status.State != "completed" || !reflect.DeepEqual(withoutVolatile(k.answer(t)), withoutVolatile(rest)) {
		t.Fatalf("check: %s %v\nREST: %v", k.Status.State, k.answer(t), rest)
	}
	if s := e.get("/stats.json").json(t); s["free_checks_today"] != float64(2) {
		t.Errorf("free checks after one REST and one A2A check: %v", s["free_checks_today"])
	}
	// Invalid arguments count nothing and say what to fix.
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "GER", "destination": "THA"}})
	if k.Status.State != "failed" || !strings.Contains(k.words(), "DEU") {
		t.Errorf("invalid check: %s %q", k.Status.State, k.words())
	}
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "visa"}})
	if k.Status.State != "failed" || !strings.Contains(k.words(), "dataset-info, check, paid-check") {
		t.Errorf("unknown skill: %s %q", k.Status.State, k.words())
	}
	// The same anonymous quota as /free/check: five a day per address.
	for range 3 {
		if k := e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "DEU", "destination": "THA"}}); k.Status.State != "completed" {
			t.Fatalf("check within the quota: %s %q", k.Status.State, k.words())
		}
	}
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "DEU", "destination": "THA"}})
	if k.Status.State != "failed" || len(k.Status.Message.Parts) != 2 || k.Status.Message.Parts[1].Data["error"] != "rate_limited" {
		t.Errorf("check over the quota: %s %+v", k.Status.State, k.Status.Message.Parts)
	}
	if r := e.get("/free/check?passport=DEU&destination=THA"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("REST after five checks: %d", r.StatusCode)
	}
}

func TestA2APaidSkill(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	check := map[string]any{"skill": "paid-check", "passport": "DEU", "destination": "THA"}

	// Without the extension the skill says how to activate it.
	if k := e.a2a(t, a2aCall{data: check}); k.Status.State != "failed" || !strings.Contains(k.words(), "X-A2A-Extensions: "+x402.A2AExtensionURI) {
		t.Errorf("without the extension: %s %q", k.Status.State, k.words())
	}
	k := e.a2a(t, a2aCall{data: check, x402: true})
	if k.Status.State != "input-required" {
		t.Fatalf("paid-check: %s %q", k.Status.State, k.words())
	}
	var status string
	var offer x402.PaymentRequired
	k.meta(t, x402.MetaA2AStatus, &status)
	k.meta(t, x402.MetaA2ARequired, &offer)
	if status != "payment-required" || len(offer.Accepts) != 1 || offer.Accepts[0].Amount != "30000" {
		t.Fatalf("offer: %s %+v", status, offer)
	}
	key := mustKey(t)
	payload := newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key)
	payload.Resource = &offer.Resource
	submit := map[string]any{"x402.payment.status": "payment-submitted", "x402.payment.payload": payload}
	paid := e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, metadata: submit, x402: true})
	if paid.Status.State != "completed" {
		t.Fatalf("paid: %s %q", paid.Status.State, paid.words())
	}
	var receipts []x402.SettlementResponse
	paid.meta(t, x402.MetaA2AStatus, &status)
	paid.meta(t, x402.MetaA2AReceipts, &receipts)
	if status != "payment-completed" || len(receipts) != 1 || !receipts[0].Success || receipts[0].Network != x402.NetworkBase {
		t.Errorf("receipt: %s %+v", status, receipts)
	}
	rest := e.get("/free/check?passport=DEU&destination=THA").json(t)
	if !reflect.DeepEqual(withoutVolatile(paid.answer(t)), withoutVolatile(rest)) {
		t.Errorf("paid answer %v\nREST: %v", paid.answer(t), rest)
	}

	// The same payment again for the same skill, in a new task (the client
	// lost the first answer): answered again with the same receipt.
	k = e.a2a(t, a2aCall{data: check, x402: true})
	again := e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, metadata: submit, x402: true})
	var againReceipts []x402.SettlementResponse
	again.meta(t, x402.MetaA2AReceipts, &againReceipts)
	if again.Status.State != "completed" || !reflect.DeepEqual(againReceipts, receipts) {
		t.Errorf("the same payment again: %s %+v, want completed with %+v", again.Status.State, againReceipts, receipts)
	}
	// The same payment for another resource: refused, nothing charged.
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "paid-check", "passport": "DEU", "destination": "FRA"}, x402: true})
	replay := e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, metadata: submit, x402: true})
	var reason string
	replay.meta(t, x402.MetaA2AStatus, &status)
	replay.meta(t, x402.MetaA2AError, &reason)
	if replay.Status.State != "failed" || status != "payment-failed" || !strings.Contains(replay.words(), "nothing was charged") || len(replay.Artifacts) != 0 {
		t.Errorf("replay: %s %s %s %q", replay.Status.State, status, reason, replay.words())
	}
	// A payment of another amount: refused before settlement.
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "passport-matrix", "passport": "DEU"}, x402: true})
	cheap := e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, x402: true,
		metadata: map[string]any{"x402.payment.status": "payment-submitted", "x402.payment.payload": newPayment(t, key, offer.Accepts[0], e.clock.Now()).sign(t, key)}})
	if cheap.Status.State != "failed" || !strings.Contains(cheap.words(), "nothing was charged") {
		t.Errorf("wrong amount: %s %q", cheap.Status.State, cheap.words())
	}
	// A tampered payment (another nonce under the same signature): refused
	// before settlement, and the task takes no second payment.
	k = e.a2a(t, a2aCall{data: check, x402: true})
	fresh := newPayment(t, key, offer.Accepts[0], e.clock.Now())
	tampered := fresh.sign(t, key)
	var inner exact.Payload
	if err := json.Unmarshal(tampered.Payload, &inner); err != nil {
		t.Fatal(err)
	}
	inner.Authorization.Nonce = "0x" + strings.Repeat("ab", 32)
	tampered = payloadWith(t, offer.Accepts[0], inner)
	bad := e.a2a(t, a2aCall{data: map[string]any{}, taskID: k.ID, x402: true,
		metadata: map[string]any{"x402.payment.status": "payment-submitted", "x402.payment.payload": tampered}})
	bad.meta(t, x402.MetaA2AStatus, &status)
	if bad.Status.State != "failed" || status != "payment-failed" || !strings.Contains(bad.words(), "nothing was charged") {
		t.Errorf("tampered payment: %s %s %q", bad.Status.State, status, bad.words())
	}
	res, rpcErr := e.rpc(t, "message/send", map[string]any{"message": map[string]any{"kind": "message", "role": "user", "messageId": "again",
		"taskId": k.ID, "parts": []any{map[string]any{"kind": "data", "data": map[string]any{}}},
		"metadata": map[string]any{"x402.payment.status": "payment-submitted", "x402.payment.payload": fresh.sign(t, key)}}})
	if rpcErr == nil {
		t.Errorf("a failed task took a second payment: %s", res)
	}
	if s := e.get("/stats.json").json(t); s["paid_calls_today"] != float64(1) {
		t.Errorf("paid calls: %v, want 1", s["paid_calls_today"])
	}
}

// rpc sends one JSON-RPC request to /a2a and returns its result or error.
func (e *env) rpc(t *testing.T, method string, params any) (json.RawMessage, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	resp, err := http.Post(e.url+"/a2a", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return out.Result, out.Error
}

func TestA2ATaskLifecycle(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	// An invalid paid request fails before any offer, with the problems.
	k := e.a2a(t, a2aCall{data: map[string]any{"skill": "passport-matrix", "passport": "GER"}, x402: true})
	if k.Status.State != "failed" || len(k.Status.Message.Parts) != 2 || k.Status.Message.Parts[1].Data["error"] != "invalid_parameters" {
		t.Errorf("invalid passport: %s %+v", k.Status.State, k.Status.Message.Parts)
	}
	if _, ok := k.Status.Message.Metadata[x402.MetaA2ARequired]; ok {
		t.Error("an invalid request was offered for payment")
	}

	// A task waiting for its payment can be read and canceled; then it
	// takes no payment.
	k = e.a2a(t, a2aCall{data: map[string]any{"skill": "evaluate-trip", "traveler": map[string]any{"passports": []string{"USA"}},
		"trip": map[string]any{"legs": []any{map[string]any{"country": "FRA"}}}}, x402: true})
	if k.Status.State != "input-required" {
		t.Fatalf("trip: %s %q", k.Status.State, k.words())
	}
	if res, rpcErr := e.rpc(t, "tasks/get", map[string]any{"id": k.ID}); rpcErr != nil || !strings.Contains(string(res), `"input-required"`) {
		t.Errorf("tasks/get: %s %+v", res, rpcErr)
	}
	if res, rpcErr := e.rpc(t, "tasks/cancel", map[string]any{"id": k.ID}); rpcErr != nil || !strings.Contains(string(res), `"canceled"`) {
		t.Errorf("tasks/cancel: %s %+v", res, rpcErr)
	}
	msg := map[string]any{"kind": "message", "role": "user", "messageId": "pay-canceled", "taskId": k.ID, "parts": []any{map[string]any{"kind": "data", "data": map[string]any{}}}}
	if _, rpcErr := e.rpc(t, "message/send", map[string]any{"message": msg}); rpcErr == nil {
		t.Error("a canceled task took a message")
	}
	// A message without a data part says how to call a skill.
	msg = map[string]any{"kind": "message", "role": "user", "messageId": "text-only", "parts": []any{map[string]any{"kind": "text", "text": "visa for Thailand?"}}}
	res, rpcErr := e.rpc(t, "message/send", map[string]any{"message": msg})
	if rpcErr != nil || !strings.Contains(string(res), `"failed"`) || !strings.Contains(string(res), `{\"skill\":\"check\",\"passport\":\"DEU\",\"destination\":\"THA\"}`) {
		t.Errorf("text message: %s %+v", res, rpcErr)
	}
	// Other methods than POST get the service's JSON error.
	if r := e.get("/a2a"); r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("GET /a2a: %d %s", r.StatusCode, r.Header.Get("Allow"))
	}
}

func TestA2ARegisteredClient(t *testing.T) {
	e := start(t, "")
	id, secret := e.register("a2a agent")
	tok, err := (&clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: e.url + "/oauth/token"}).Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The bearer token counts the check against the client's quota.
	k := e.a2a(t, a2aCall{data: map[string]any{"skill": "check", "passport": "DEU", "destination": "THA"}, bearer: tok.AccessToken})
	var limit struct {
		Scope string `json:"scope"`
		Limit int    `json:"limit"`
	}
	k.meta(t, "rate_limit", &limit)
	if k.Status.State != "completed" || limit.Scope != "client_daily" || limit.Limit != 20 {
		t.Errorf("registered check: %s %+v", k.Status.State, limit)
	}
	// An invalid token is refused before anything is read, as on /free/check.
	req, _ := http.NewRequest(http.MethodPost, e.url+"/a2a", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer ect_nope")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata") {
		t.Errorf("invalid token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}
