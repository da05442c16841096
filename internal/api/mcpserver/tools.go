package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// The handlers of the MCP tools. Each answers with a tool result, never a
// protocol error: invalid arguments, an exhausted quota and a required
// payment are tool errors (isError) that a model can read and act on, with
// the same machine-readable bodies as the REST API in structuredContent.

// checkEntryRequirements answers check_entry_requirements: the free check
// of GET /free/check, counted against the same buckets. Invalid arguments
// are refused before anything is counted.
func (e *Endpoint) checkEntryRequirements(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	c := callerFrom(ctx)
	if c.r == nil {
		return e.toolError(ctx, errors.New("MCP call without its HTTP request")), nil
	}
	creq, problems := check.Arguments(req.Params.Arguments)
	creq.RequestID = id
	res, u, err := e.Checker.Free(ctx, c.r, c.p, creq, problems, check.Spend)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	if u.Exhausted != nil {
		body := e.Quotas.Refusal(id, *u.Exhausted, u.Reset)
		body.Alternatives = []string{
			fmt.Sprintf("register a client at POST %s and send its token as Authorization: Bearer on the MCP requests for %d free calls a day (see %s)",
				discovery.PathRegister, e.Quotas.Limits.Client, discovery.PathAuthGuide),
			quota.AltPay,
		}
		return errorResult(body, rateLimitedText(body), id), nil
	}
	out, err := structuredResult(res, checkText(res), id)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	out.Meta[metaPrefix+"rate_limit"] = map[string]any{
		"scope": u.Own.Scope, "limit": u.Own.Limit, "remaining": max(0, u.Own.Limit-u.Used), "reset_at": u.Reset,
	}
	return out, nil
}

// getDatasetInfo answers get_dataset_info: free and counted against nothing.
func (e *Endpoint) getDatasetInfo(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := request.IDFrom(ctx)
	var args map[string]json.RawMessage
	if b := bytes.TrimSpace(req.Params.Arguments); len(b) > 0 && !bytes.Equal(b, []byte("null")) {
		if err := json.Unmarshal(b, &args); err != nil || len(args) > 0 {
			return e.toolError(ctx, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: []entrycheck.Problem{{
				Field: "arguments", Code: response.CodeUnknownParameter, Value: check.Clip(string(b)), Message: toolDataset + " takes no arguments: send {}",
			}}}), nil
		}
	}
	info, err := e.datasetInfo(ctx)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	out, err := structuredResult(info, datasetText(info), id)
	if err != nil {
		return e.toolError(ctx, err), nil
	}
	return out, nil
}

func (e *Endpoint) datasetInfo(ctx context.Context) (datasetInfo, error) {
	snap := e.Evaluator().Snapshot()
	src := e.Evaluator().Source()
	today, err := e.Quotas.Today(ctx)
	if err != nil {
		return datasetInfo{}, err
	}
	countries := len(snap.Matrix.Countries())
	curated := snap.Curated.CitedCodes()
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
			Date: today.Date, FreeChecks: today.FreeChecks, FreeChecksCeiling: e.Quotas.Limits.Global,
			PaidCalls: today.PaidCalls, ResetAt: today.Reset.Format(time.RFC3339),
		},
	}
	for _, r := range entrycheck.Requirements {
		info.RequirementValues = append(info.RequirementValues, requirementValue{Value: r, Label: r.Label(), Action: r.Action()})
	}
	site := e.Site()
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
