// Package check holds the one check the API's protocols answer: the
// request an adapter read (the query of GET /free/check or /v1/check, the
// JSON arguments of the MCP tool check_entry_requirements and of the A2A
// check skills, read by Arguments) evaluated by the evaluation core with
// every problem reported together, and for the free tier counted against
// the caller's daily quotas.
//
// It depends on the domain, the evaluation core and the quota and
// response packages; the REST, MCP and A2A packages import it.
package check

import (
	"context"
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// Checker evaluates checks and counts the free ones.
type Checker struct {
	// Evaluator is the evaluator answering now (see api.Server.SetEvaluator).
	Evaluator func() *evaluation.Evaluator
	Clock     entrycheck.Clock
	Quotas    *quota.Ledger
}

// Evaluate runs a check, reporting the problems an adapter found in the
// shape of the request (unknown or repeated parameters, wrong types)
// together with those of its values.
func (c *Checker) Evaluate(req entrycheck.CheckRequest, problems []entrycheck.Problem) (entrycheck.CheckResult, error) {
	res, err := c.Evaluator().Check(req, c.Clock)
	if problems == nil {
		return res, err
	}
	var e *entrycheck.Error
	if errors.As(err, &e) {
		reported := map[string]bool{}
		for _, p := range problems {
			reported[p.Field] = true
		}
		for _, p := range e.Problems {
			// A value the adapter could not read is not also missing.
			if p.Code != entrycheck.ProblemMissing || !reported[p.Field] {
				problems = append(problems, p)
			}
		}
	}
	return res, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
}

// Count says whether a free check spends one of the caller's checks.
type Count bool

const (
	// Spend counts the check in every bucket it consumes.
	Spend Count = true
	// Peek counts nothing and finds what spending would (a HEAD).
	Peek Count = false
)

// Free is the free check: req, with the problems the adapter found in its
// shape, is evaluated, and only a valid check is counted against the
// quotas of p calling through r (its client address). When a bucket is
// exhausted the use names it and the result is not to be sent.
func (c *Checker) Free(ctx context.Context, r *http.Request, p quota.Principal, req entrycheck.CheckRequest, problems []entrycheck.Problem, count Count) (entrycheck.CheckResult, quota.Use, error) {
	res, err := c.Evaluate(req, problems)
	if err != nil {
		return res, quota.Use{}, err
	}
	use := c.Quotas.ConsumeFree
	if count == Peek {
		use = c.Quotas.PeekFree
	}
	u, err := use(ctx, r, p, res.EvaluatedAt)
	return res, u, err
}
