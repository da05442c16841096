package apidoc

import (
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck/internal/discovery"
)

// aNewAnswer stands for the answer of a paid route added to
// discovery.Routes with its words in endpoints.
type aNewAnswer struct {
	Visas int `json:"visas" jsonschema:"How many visas."`
}

// TestANewPaidAnswerIsDescribedFromItsType: the answer type of a new paid
// route needs no row in components: it becomes a schema under its name,
// with its fields' words and the receipt every paid answer carries.
func TestANewPaidAnswerIsDescribedFromItsType(t *testing.T) {
	e := endpoint{Method: http.MethodGet, Path: discovery.PathCheck, Type: typ[aNewAnswer](), Answer: "A new answer."}
	all := componentsOf(append(slices.Clone(endpoints), e))
	i := slices.IndexFunc(all, func(c component) bool { return c.Type == e.Type })
	if i < 0 {
		t.Fatal("no component for the new answer type")
	}
	c := all[i]
	refs := map[reflect.Type]*jsonschema.Schema{}
	for _, c := range all {
		refs[c.Type] = ref(c.Name)
	}
	s := c.infer(refs)
	if c.Name != "aNewAnswer" || c.Description != "A new answer." || s.Properties["visas"].Description != "How many visas." {
		t.Errorf("component %s (%q): %+v", c.Name, c.Description, s.Properties["visas"])
	}
	if p := s.Properties["payment"]; p == nil || p.Ref != schemaRef("PaymentReceipt") || !slices.Contains(s.Required, "payment") {
		t.Errorf("the paid answer does not carry its receipt: %+v, required %v", p, s.Required)
	}
}
