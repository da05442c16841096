package rest

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
)

// MaxAcceptLanguage bounds the Accept-Language header read: browsers send
// a few dozen bytes, and a longer one is not read at all.
const MaxAcceptLanguage = 256

// checkRequest reads the query of a check. Unknown or repeated parameters
// are refused so that a typo (pasport=) is not silently ignored.
func checkRequest(r *http.Request) (entrycheck.CheckRequest, []entrycheck.Problem) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return entrycheck.CheckRequest{}, []entrycheck.Problem{{Field: "query", Code: "malformed_query", Message: "the query string is not valid URL encoding: " + err.Error()}}
	}
	var problems []entrycheck.Problem
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "" {
			problems = append(problems, entrycheck.Problem{Field: "query", Code: response.CodeUnknownParameter, Value: q.Get(name),
				Message: "a parameter has no name (=" + check.Clip(q.Get(name)) + "): the parameters are " + check.ParameterList()})
		} else if _, known := check.QueryParameters[name]; !known {
			problems = append(problems, entrycheck.Problem{Field: name, Code: response.CodeUnknownParameter, Value: q.Get(name),
				Message: fmt.Sprintf("unknown parameter %q: the parameters are %s", name, check.ParameterList())})
		} else if len(q[name]) > 1 {
			problems = append(problems, entrycheck.Problem{Field: name, Code: "repeated_parameter",
				Message: fmt.Sprintf("%s is given %d times: give it once (lists are comma-separated)", name, len(q[name]))})
		}
	}
	req := entrycheck.CheckRequest{
		Passport:             strings.TrimSpace(q.Get("passport")),
		Destination:          strings.TrimSpace(q.Get("destination")),
		Transit:              strings.TrimSpace(q.Get("transit")),
		Purpose:              strings.TrimSpace(q.Get("purpose")),
		ResidencePermitsOf:   entrycheck.SplitCodes(q.Get("residence_permits_of")),
		VisasOf:              entrycheck.SplitCodes(q.Get("visas_of")),
		ResidencePermitsText: strings.TrimSpace(q.Get("residence_permits")),
		VisasHeldText:        strings.TrimSpace(q.Get("visas_held")),
		RequestID:            request.ID(r),
		Language:             strings.TrimSpace(q.Get("lang")),
	}
	if h := r.Header.Get("Accept-Language"); len(h) <= MaxAcceptLanguage {
		req.AcceptLanguage = h
	}
	return req, problems
}
