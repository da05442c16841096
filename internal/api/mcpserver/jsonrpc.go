package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/jsonproblem"
)

// JSON-RPC 2.0 error codes the transport answers itself.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
)

// rpcError is a JSON-RPC 2.0 error response.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcErrorBody    `json:"error"`
}

type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	response.Write(w, status, rpcError{JSONRPC: "2.0", ID: id, Error: rpcErrorBody{Code: code, Message: message}})
}

// rpcMessage is what the transport reads of a single JSON-RPC message
// before the SDK does.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// rpcRequestOf reads a single JSON-RPC message; ok is false for a batch or
// anything that is not an object.
func rpcRequestOf(body []byte) (m rpcMessage, method string, ok bool) {
	if err := json.Unmarshal(body, &m); err != nil {
		return rpcMessage{}, "", false
	}
	json.Unmarshal(m.Method, &method)
	return m, method, true
}

// problem is the JSON-RPC error the transport answers a message with
// before the SDK sees it, or code 0. A message with neither a method nor a
// result or error is no request, notification or response: the SDK would
// accept it with 202 and answer nothing. Params of the wrong shape are
// refused here in the client's terms, where the SDK would name its own Go
// types.
func (m rpcMessage) problem(method string) (code int, message string) {
	if method == "" && m.Result == nil && m.Error == nil {
		return rpcInvalidRequest, `invalid request: the message has no method (a non-empty string): send one object with jsonrpc "2.0", an id, a method and params`
	}
	if method == "" || m.Params == nil || string(m.Params) == "null" {
		return 0, ""
	}
	shape := paramsShape(method)
	if err := json.Unmarshal(m.Params, shape); err != nil {
		return rpcInvalidParams, "invalid params of " + method + ": " + jsonproblem.Describe("params", err)
	}
	return 0, ""
}

// paramsShape is a value of the SDK's type for the params of method; any
// other method's params must be an object.
func paramsShape(method string) any {
	switch method {
	case "tools/call":
		return &mcp.CallToolParamsRaw{}
	case "initialize":
		return &mcp.InitializeParams{}
	case "tools/list":
		return &mcp.ListToolsParams{}
	}
	return &map[string]json.RawMessage{}
}

// rpcErrors turns the SDK's plain-text refusals of a JSON-RPC message into
// JSON-RPC error responses, which MCP clients show to their user: an
// unknown method is -32601 (with the request's id, HTTP 200 like any
// JSON-RPC response), anything else the SDK refuses (a wrong Content-Type
// or Accept, a message that is not a request) -32600 with the SDK's HTTP
// status. Other answers pass through untouched, streamed or not.
type rpcErrors struct {
	http.ResponseWriter
	id        json.RawMessage
	method    string
	intercept bool
	status    int
	text      bytes.Buffer
}

func (w *rpcErrors) WriteHeader(status int) {
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.intercept, w.status = true, status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcErrors) Write(b []byte) (int, error) {
	if w.intercept {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *rpcErrors) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.intercept {
		f.Flush()
	}
}

// finish writes the JSON-RPC error of an intercepted refusal.
func (w *rpcErrors) finish() {
	if !w.intercept {
		return
	}
	w.Header().Del("Content-Type")
	if strings.Contains(w.text.String(), "not handled") || strings.Contains(w.text.String(), "unsupported") {
		writeRPCError(w.ResponseWriter, http.StatusOK, w.id, rpcMethodNotFound, "method not found: "+w.method+": see tools/list for what this server offers")
		return
	}
	writeRPCError(w.ResponseWriter, w.status, w.id, rpcInvalidRequest, "invalid request: "+sdkRefusal(w.text.String()))
}

// sdkRefusal is the SDK's refusal in words for the client: its own text,
// which names the header or member at fault, unless it describes a Go
// type rather than the message.
func sdkRefusal(text string) string {
	text = strings.TrimSpace(text)
	if strings.Contains(text, "Go value") || strings.Contains(text, "Go struct") || text == "" {
		return "the message is not a JSON-RPC 2.0 request this server understands; send one object with jsonrpc \"2.0\", an id, a method and params"
	}
	return text
}
