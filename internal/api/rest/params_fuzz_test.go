package rest

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
)

// FuzzCheckQuery reads the query of GET /free/check and /v1/check. A
// query is read, or refused with problems that each have a code and name a
// parameter of the query (or the query, when it is not URL encoding); a
// query without problems names only known parameters, once each; and the
// order of the parameters changes neither the request read nor the
// problems found, as a client's HTTP library may reorder them.
func FuzzCheckQuery(f *testing.F) {
	for _, q := range []string{
		"passport=DEU&destination=THA",
		"passport=deu&destination=tha&transit=SGP&purpose=business&lang=pt-BR",
		"passport=IND&destination=SCHENGEN&residence_permits_of=USA,%20GBR&visas_of=USA,,CAN",
		"passport=Germany&destination=Thailand&visas_held=US+B1%2FB2&residence_permits=Canada",
		"pasport=DEU&destination=THA",
		"passport=DEU&passport=FRA",
		"passport=%zz",
		"passport=DEU;destination=THA",
		"&&=&passport",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		req, problems := checkRequest(queryRequest(raw))
		q, err := url.ParseQuery(raw)
		if err != nil {
			if len(problems) != 1 || problems[0].Field != "query" || problems[0].Code != "malformed_query" {
				t.Fatalf("query %q does not parse (%v), problems %+v", raw, err, problems)
			}
			return
		}
		for _, p := range problems {
			// The field is a parameter of the query, or the query as a whole
			// when a parameter has no name ("=DEU").
			_, given := q[p.Field]
			_, unnamed := q[""]
			if !(given || p.Field == "query" && unnamed) || p.Field == "" || p.Code == "" {
				t.Fatalf("query %q: problem %+v names no parameter of it or has no code", raw, p)
			}
		}
		if len(problems) == 0 {
			for name, values := range q {
				if _, known := check.QueryParameters[name]; !known || len(values) != 1 {
					t.Fatalf("query %q is accepted with %s given %d times", raw, name, len(values))
				}
			}
		}
		parts := strings.Split(raw, "&")
		slices.Reverse(parts)
		reordered := strings.Join(parts, "&")
		again, againProblems := checkRequest(queryRequest(reordered))
		// A refused query's request is not used: only its problems must agree.
		if len(problems) == 0 && !reflect.DeepEqual(again, req) || !slices.Equal(fieldCodes(againProblems), fieldCodes(problems)) {
			t.Fatalf("query %q gives %+v %v, in reverse order %+v %v", raw, req, fieldCodes(problems), again, fieldCodes(againProblems))
		}
	})
}

func queryRequest(raw string) *http.Request {
	return &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/free/check", RawQuery: raw}, Header: http.Header{}}
}

// fieldCodes lists what problems are about; their values quote the first
// of a repeated parameter, which the order changes.
func fieldCodes(problems []entrycheck.Problem) []string {
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = p.Field + " " + p.Code
	}
	return out
}
