package api

import (
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck"
)

// freeCheck answers GET /free/check: anonymous or with a bearer token,
// counted against the daily quotas. Invalid requests are refused before
// anything is counted.
//
// HEAD counts nothing: it carries no answer, so it cannot spend a check
// (nor, by repetition, the worldwide ceiling). It answers what GET would
// now, status and headers, with X-RateLimit-Remaining the checks left
// before this one: a free way to read one's quota.
func (s *Server) freeCheck(w http.ResponseWriter, r *http.Request) {
	p, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	res, err := s.check(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	count := s.consumeFree
	if r.Method == http.MethodHead {
		count = s.peekFree
	}
	u, err := count(r.Context(), r, p, res.EvaluatedAt)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	limitHeaders(w, u.own, u.used, u.reset)
	if u.exhausted != nil {
		s.tooMany(w, r, *u.exhausted, u.reset)
		return
	}
	respond(w, http.StatusOK, res, cacheNone)
}

// paidCheck answers GET /v1/check once the payment is settled: the same
// result as the free check.
func (s *Server) paidCheck(r *http.Request) (any, error) {
	return s.check(r)
}

// check evaluates the query of a check, reporting the problems of the query
// and of the values together.
func (s *Server) check(r *http.Request) (entrycheck.CheckResult, error) {
	req, problems := checkRequest(r)
	return s.evaluateCheck(req, problems)
}

// evaluateCheck runs a check, reporting the problems an adapter found in
// the shape of the request (unknown or repeated parameters, wrong types)
// together with those of its values.
func (s *Server) evaluateCheck(req entrycheck.CheckRequest, problems []entrycheck.Problem) (entrycheck.CheckResult, error) {
	res, err := s.evaluator().Check(req, s.clock)
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
