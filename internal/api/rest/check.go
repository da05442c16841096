// Package rest answers the REST endpoints of the check: the quota-gated
// GET /free/check, the paid answers of /v1/check, /v1/passport/{iso3} and
// /v1/trips/evaluate (served once paid, see payment.Cashier.Paid), and the
// live counters and health.
//
// It depends on the domain, the evaluation core, the route table
// (discovery) and the check, quota, request and response packages; only
// the API assembly imports it.
package rest

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// Endpoints answer the REST endpoints.
type Endpoints struct {
	Checker *check.Checker
	Quotas  *quota.Ledger
	// Authenticate reads the caller's bearer token, answering the request
	// when it is refused (see oauth.Endpoints.Authenticate).
	Authenticate func(w http.ResponseWriter, r *http.Request) (quota.Principal, bool)
	// Evaluator is the evaluator answering now.
	Evaluator func() *evaluation.Evaluator
	Database  Database
	Clock     entrycheck.Clock
	Log       *slog.Logger
}

// Database is what the health check asks of the database.
type Database interface {
	Ping(ctx context.Context) error
	Kind() string
}

// FreeCheck answers GET /free/check: anonymous or with a bearer token,
// counted against the daily quotas. Invalid requests are refused before
// anything is counted.
//
// HEAD counts nothing: it carries no answer, so it cannot spend a check
// (nor, by repetition, the worldwide ceiling). It answers what GET would
// now, status and headers, with X-RateLimit-Remaining the checks left
// before this one: a free way to read one's quota.
func (e *Endpoints) FreeCheck(w http.ResponseWriter, r *http.Request) {
	p, ok := e.Authenticate(w, r)
	if !ok {
		return
	}
	count := check.Spend
	if r.Method == http.MethodHead {
		count = check.Peek
	}
	// The answer's words follow Accept-Language when lang is not given.
	w.Header().Add("Vary", "Accept-Language")
	req, problems := checkRequest(r)
	res, u, err := e.Checker.Free(r.Context(), r, p, req, problems, count)
	if err != nil {
		response.Error(e.Log, w, r, err)
		return
	}
	quota.LimitHeaders(w, u)
	if u.Exhausted != nil {
		e.Quotas.TooMany(w, r, *u.Exhausted, u.Reset)
		return
	}
	response.JSON(w, http.StatusOK, res, response.CacheNone)
}

// PaidCheck answers GET /v1/check once the payment is settled: the same
// result as the free check.
func (e *Endpoints) PaidCheck(r *http.Request) (any, error) {
	return e.Checker.Evaluate(checkRequest(r))
}
