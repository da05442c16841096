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

// argumentNames lists the arguments of a check, for messages.
const argumentNames = "passport, destination, transit, purpose, residence_permits_of, visas_of and language"

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
		switch name {
		case "passport", "destination", "transit", "purpose", "language":
			var str string
			if json.Unmarshal(v, &str) != nil {
				switch name {
				case "purpose":
					wrong(name, string(v), `a string: "tourism" or "business"`)
				case "language":
					wrong(name, string(v), `a string: a language tag such as "fr" or "pt-BR"`)
				default:
					wrong(name, string(v), "a string: an ISO 3166-1 code such as DEU, or a country name")
				}
				continue
			}
			str = strings.TrimSpace(str)
			switch name {
			case "passport":
				req.Passport = str
			case "destination":
				req.Destination = str
			case "transit":
				req.Transit = str
			case "purpose":
				req.Purpose = str
			case "language":
				req.Language = str
			}
		case "residence_permits_of", "visas_of":
			var list []string
			if json.Unmarshal(v, &list) != nil {
				wrong(name, string(v), `an array of ISO 3166-1 alpha-3 codes (or SCHENGEN), such as ["USA"]`)
				continue
			}
			for i := range list {
				list[i] = strings.TrimSpace(list[i])
			}
			if name == "visas_of" {
				req.VisasOf = list
			} else {
				req.ResidencePermitsOf = list
			}
		case "":
			problems = append(problems, entrycheck.Problem{Field: "arguments", Code: response.CodeUnknownParameter, Value: Clip(string(v)),
				Message: "an argument has an empty name: the arguments are " + argumentNames})
		default:
			problems = append(problems, entrycheck.Problem{Field: name, Code: response.CodeUnknownParameter, Value: Clip(string(v)),
				Message: fmt.Sprintf("unknown argument %q: the arguments are %s", name, argumentNames)})
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
