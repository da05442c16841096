package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// JSON-RPC 2.0 error codes the transport answers itself.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
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

// rpcRequestOf reads the id and method of a single JSON-RPC message; ok is
// false for a batch or anything that is not an object.
func rpcRequestOf(body []byte) (id json.RawMessage, method string, ok bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, "", false
	}
	return m.ID, m.Method, true
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
