package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/response"
)

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
func (e *Endpoint) toolError(ctx context.Context, err error) *mcp.CallToolResult {
	body := response.AnswerOf(ctx, e.Log, err).Body
	var invalid *entrycheck.Error
	if errors.As(err, &invalid) && invalid.Code == entrycheck.EINVALID {
		return errorResult(body, response.ProblemsText(invalid), body.RequestID)
	}
	return errorResult(body, body.Message+" (request_id "+body.RequestID+").", body.RequestID)
}
