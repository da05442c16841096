package ap2

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// encodedTokens are the "Encoded Token" examples of a specification file.
var encodedTokens = regexp.MustCompile("```\n(eyJ[^\n]+)\n```")

// TestSpecificationExamples: the encoded mandates of the AP2 v0.2
// specification (single SD-JWTs and open-closed chains) parse, their
// disclosures in place, nested ones too.
func TestSpecificationExamples(t *testing.T) {
	dir := filepath.Join(datatest.SharedDir(t), "spec", "ap2-v0.2")
	for file, want := range map[string][][]string{
		"checkout_mandate.md": {{VCTCheckoutOpen}, {VCTCheckout}, {VCTCheckoutOpen, VCTCheckout}},
		"payment_mandate.md":  {{VCTPaymentOpen}, {VCTPayment}, {VCTPaymentOpen, VCTPayment}},
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		examples := encodedTokens.FindAllStringSubmatch(string(b), -1)
		if len(examples) != len(want) {
			t.Fatalf("%s: %d encoded examples, want %d", file, len(examples), len(want))
		}
		for i, ex := range examples {
			chain, err := parseChain(ex[1])
			if err != nil {
				t.Errorf("%s example %d: %v", file, i+1, err)
				continue
			}
			var vcts []string
			for _, sd := range chain {
				c, ok := content(sd)
				if !ok {
					t.Errorf("%s example %d: no mandate disclosed", file, i+1)
				}
				vct, _ := c["vct"].(string)
				vcts = append(vcts, vct)
			}
			if !slices.Equal(vcts, want[i]) {
				t.Errorf("%s example %d: mandates %v, want %v", file, i+1, vcts, want[i])
			}
		}
	}
	// The nested disclosures of the open checkout example: the allowed
	// merchant in its constraint.
	b, _ := os.ReadFile(filepath.Join(dir, "checkout_mandate.md"))
	chain, _ := parseChain(encodedTokens.FindStringSubmatch(string(b))[1])
	c, _ := content(chain[0])
	var open struct {
		Constraints []struct {
			Type    string  `json:"type"`
			Allowed []Party `json:"allowed"`
		} `json:"constraints"`
	}
	if err := decode(c, &open); err != nil || len(open.Constraints) != 2 || len(open.Constraints[1].Allowed) != 1 || open.Constraints[1].Allowed[0].ID != "merchant_1" {
		t.Errorf("open checkout mandate %+v (%v)", open, err)
	}
}

func TestMalformedSDJWTs(t *testing.T) {
	jwt := "eyJhbGciOiJFUzI1NiJ9.eyJfc2QiOltdfQ.c2ln" // {"alg":"ES256"}.{"_sd":[]}.sig
	disclosure := b64.EncodeToString([]byte(`["salt","name","value"]`))
	for name, s := range map[string]string{
		"no trailing tilde":       jwt,
		"not a JWS":               "abc~",
		"unreferenced disclosure": jwt + "~" + disclosure + "~",
		"disclosure not an array": jwt + "~" + b64.EncodeToString([]byte(`{"a":1}`)) + "~",
		"key binding JWT":         jwt + "~" + jwt,
	} {
		if _, err := parseChain(s); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	if _, err := parseChain(jwt + "~"); err != nil {
		t.Errorf("an SD-JWT without disclosures: %v", err)
	}
}
