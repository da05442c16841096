package jsonproblem_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/jsonproblem"
)

func TestDescribe(t *testing.T) {
	type leg struct {
		Country string `json:"country"`
	}
	type doc struct {
		Name   string   `json:"name"`
		Legs   []leg    `json:"legs"`
		Amount int      `json:"amount"`
		Tags   []string `json:"tags"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"name":5}`, "the body member /name must be a JSON string, not a number"},
		{`{"legs":[{"country":true}]}`, "the body member /legs/country must be a JSON string, not a boolean"},
		{`{"amount":"7"}`, "the body member /amount must be a JSON integer, not a string"},
		{`{"tags":{}}`, "the body member /tags must be a JSON array, not an object"},
		{`[]`, "the body must be a JSON object, not an array"},
		{`{"name":`, "the body ends in the middle of a JSON value"},
		{`{"nome":"x"}`, `the body has an unknown member "nome"`},
		{`{"name" 5}`, "the body is not valid JSON (at byte 9)"},
	} {
		var d doc
		dec := json.NewDecoder(strings.NewReader(c.in))
		dec.DisallowUnknownFields()
		if got := jsonproblem.Describe("the body", dec.Decode(&d)); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}
