package check_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
)

// FuzzArguments reads the JSON arguments of a check as MCP and A2A clients
// send them. Arguments are read, or refused with problems that each have a
// code and name a member of them (or the arguments, when they are not an
// object); the text values read are trimmed; and the order of an object's
// members changes nothing, as a client's JSON encoder may reorder them.
func FuzzArguments(f *testing.F) {
	for _, s := range []string{
		`{"passport": "DEU", "destination": "THA"}`,
		`{"passport":" deu ","destination":"Thailand","transit":"SGP","purpose":"business","language":"pt-BR"}`,
		`{"passport":"IND","destination":"SCHENGEN","residence_permits_of":["USA"," GBR"],"visas_of":[]}`,
		`{"pasport":"DEU","destination":null,"visas_of":"USA","purpose":1}`,
		`null`, ``, `[]`, `{"": ""}`, `{"passport":"\ud800"}`, `{"language":"a","language":"b"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		req, problems := check.Arguments(raw)
		var members map[string]json.RawMessage
		isObject := json.Unmarshal(raw, &members) == nil && members != nil
		for _, p := range problems {
			// The field is a member of the object, or the arguments as a
			// whole: when they are not an object, or a member has no name
			// ({"": 1}).
			_, given := members[p.Field]
			_, unnamed := members[""]
			if !(given || p.Field == "arguments" && (!isObject || unnamed)) || p.Field == "" || p.Code == "" {
				t.Fatalf("arguments %q: problem %+v names no member of them or has no code", raw, p)
			}
		}
		for _, v := range append([]string{req.Passport, req.Destination, req.Transit, req.Purpose, req.Language}, append(req.VisasOf, req.ResidencePermitsOf...)...) {
			if v != strings.TrimSpace(v) {
				t.Errorf("arguments %q: value %q is not trimmed", raw, v)
			}
		}
		if !isObject {
			return
		}
		// Marshal writes the members sorted by name: another order, unless
		// the client sorted them already.
		sorted, err := json.Marshal(members)
		if err != nil {
			t.Fatal(err)
		}
		again, againProblems := check.Arguments(sorted)
		if !reflect.DeepEqual(again, req) || !slices.Equal(fieldCodes(againProblems), fieldCodes(problems)) {
			t.Fatalf("arguments %q give %+v %+v, their members sorted %+v %+v", raw, req, problems, again, againProblems)
		}
	})
}

// fieldCodes lists what problems are about; their values quote the JSON
// as sent, which re-encoding compacts.
func fieldCodes(problems []entrycheck.Problem) []string {
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = p.Field + " " + p.Code
	}
	return out
}
