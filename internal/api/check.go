package api

import (
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
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
	count := check.Spend
	if r.Method == http.MethodHead {
		count = check.Peek
	}
	req, problems := checkRequest(r)
	res, u, err := s.checker.Free(r.Context(), r, p, req, problems, count)
	if err != nil {
		response.Error(s.log, w, r, err)
		return
	}
	quota.LimitHeaders(w, u)
	if u.Exhausted != nil {
		s.quotas.TooMany(w, r, *u.Exhausted, u.Reset)
		return
	}
	response.JSON(w, http.StatusOK, res, response.CacheNone)
}

// paidCheck answers GET /v1/check once the payment is settled: the same
// result as the free check.
func (s *Server) paidCheck(r *http.Request) (any, error) {
	return s.checker.Evaluate(checkRequest(r))
}
