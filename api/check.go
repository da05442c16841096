package api

import (
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck"
)

// freeCheck answers GET /free/check: anonymous or with a bearer token,
// counted against the daily quotas. Invalid requests are refused before
// anything is counted.
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
	dayKey, reset := day(res.EvaluatedAt)
	buckets := s.freeBuckets(r, dayKey, p)
	c, err := s.store.Consume(r.Context(), dayKey, buckets)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if c.Exhausted >= 0 {
		// Whichever bucket ran out, the caller has no check left today.
		limitHeaders(w, buckets[0], buckets[0].Limit, reset)
		s.tooMany(w, r, buckets[c.Exhausted], reset)
		return
	}
	limitHeaders(w, buckets[0], c.Used[0], reset)
	s.metrics.freeChecks.Inc()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, res)
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
	res, err := s.ev.Check(req, s.clock)
	if problems == nil {
		return res, err
	}
	var e *entrycheck.Error
	if errors.As(err, &e) {
		problems = append(problems, e.Problems...)
	}
	return res, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
}
