package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/response"
)

// argument is an argument of a check: the member of the request it sets,
// a text (text) or a list of texts (list), and what a value of another
// type must be.
type argument struct {
	name string
	want string
	text func(*entrycheck.CheckRequest) *string
	list func(*entrycheck.CheckRequest) *[]string
}

const wantCountry = "a string: an ISO 3166-1 code such as DEU, or a country name"

// arguments are the arguments of a check, in the order messages list them.
var arguments = []argument{
	{name: "passport", want: wantCountry, text: func(r *entrycheck.CheckRequest) *string { return &r.Passport }},
	{name: "destination", want: wantCountry, text: func(r *entrycheck.CheckRequest) *string { return &r.Destination }},
	{name: "transit", want: wantCountry, text: func(r *entrycheck.CheckRequest) *string { return &r.Transit }},
	{name: "purpose", want: `a string: "tourism" or "business"`, text: func(r *entrycheck.CheckRequest) *string { return &r.Purpose }},
	{name: "residence_permits_of", want: wantCountries, list: func(r *entrycheck.CheckRequest) *[]string { return &r.ResidencePermitsOf }},
	{name: "visas_of", want: wantCountries, list: func(r *entrycheck.CheckRequest) *[]string { return &r.VisasOf }},
	{name: "language", want: `a string: a language tag such as "fr" or "pt-BR"`, text: func(r *entrycheck.CheckRequest) *string { return &r.Language }},
}

const wantCountries = `an array of ISO 3166-1 alpha-3 codes (or SCHENGEN), such as ["USA"]`

// argumentNames lists the arguments of a check, for messages: "passport,
// destination, ... and language".
func argumentNames() string {
	names := make([]string, len(arguments))
	for i, a := range arguments {
		names[i] = a.name
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Arguments reads the JSON arguments of a check: those of the MCP tool
// check_entry_requirements and of the A2A check skills. Like the query of
// /free/check, unknown arguments are refused so that a typo is not
// silently ignored, and every problem is reported; the values are
// validated by the evaluation core.
func Arguments(raw json.RawMessage) (entrycheck.CheckRequest, []entrycheck.Problem) {
	var req entrycheck.CheckRequest
	var fields map[string]json.RawMessage
	if b := bytes.TrimSpace(raw); len(b) > 0 && !bytes.Equal(b, []byte("null")) {
		if err := json.Unmarshal(b, &fields); err != nil {
			return req, []entrycheck.Problem{{Field: "arguments", Code: entrycheck.ProblemWrongType, Value: Clip(string(b)),
				Message: `the arguments must be a JSON object such as {"passport": "DEU", "destination": "THA"}`}}
		}
	}
	var problems []entrycheck.Problem
	wrong := func(name, v, want string) {
		problems = append(problems, entrycheck.Problem{Field: name, Code: entrycheck.ProblemWrongType, Value: Clip(v),
			Message: fmt.Sprintf("%s must be %s", name, want)})
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range fields {
			if !yield(k) {
				return
			}
		}
	}) {
		v := fields[name]
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		i := slices.IndexFunc(arguments, func(a argument) bool { return a.name == name })
		switch {
		case name == "":
			problems = append(problems, entrycheck.Problem{Field: "arguments", Code: response.CodeUnknownParameter, Value: Clip(string(v)),
				Message: "an argument has an empty name: the arguments are " + argumentNames()})
		case i < 0:
			problems = append(problems, entrycheck.Problem{Field: name, Code: response.CodeUnknownParameter, Value: Clip(string(v)),
				Message: fmt.Sprintf("unknown argument %q: the arguments are %s", name, argumentNames())})
		case arguments[i].text != nil:
			var str string
			if json.Unmarshal(v, &str) != nil {
				wrong(name, string(v), arguments[i].want)
				continue
			}
			*arguments[i].text(&req) = strings.TrimSpace(str)
		default:
			var list []string
			if json.Unmarshal(v, &list) != nil {
				wrong(name, string(v), arguments[i].want)
				continue
			}
			for j := range list {
				list[j] = strings.TrimSpace(list[j])
			}
			*arguments[i].list(&req) = list
		}
	}
	return req, problems
}

// Clip shortens a value quoted back in a problem.
func Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
