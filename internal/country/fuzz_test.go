package country_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// FuzzLookup reads country input as a person or a client types it. Whatever
// the input, a country found is a registry entry that its own alpha-3 and
// alpha-2 codes, in any case, and its name find again; Lookup finds nothing
// Resolve would read otherwise; and Suggest offers at most MaxSuggestions
// known countries, the resolved one alone when there is one.
func FuzzLookup(f *testing.F) {
	r, err := country.New()
	if err != nil {
		f.Fatal(err)
	}
	// A sample of the registry: every 25th country's codes, name and
	// aliases (all of them would make the baseline outlast a short run).
	for i, c := range r.All() {
		if i%25 != 0 {
			continue
		}
		f.Add(c.ISO3)
		f.Add(strings.ToLower(c.ISO2))
		f.Add(c.Name)
		for _, a := range r.Aliases(c.ISO3) {
			f.Add(a)
		}
	}
	for _, s := range []string{"", " deu ", "GER", "UK", "germny", "côte d’ivoire", "St. Lucia", "d'", "ÅLAND", "\x00", "\xff\xfe", strings.Repeat("a", 101)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		resolved, rok := r.Resolve(input)
		c, ok := r.Lookup(input)
		if ok {
			if !rok || resolved != c {
				t.Errorf("Lookup(%q) = %v, Resolve = %v %v", input, c, resolved, rok)
			}
			sameCountry(t, r, c)
			if again, _ := r.Lookup("  " + input + "\t"); again != c {
				t.Errorf("Lookup(%q) = %v, with spaces around %v", input, c, again)
			}
		}
		if rok {
			sameCountry(t, r, resolved)
		}
		got := r.Suggest(input)
		if len(got) > country.MaxSuggestions {
			t.Errorf("Suggest(%q) gives %d countries", input, len(got))
		}
		for _, s := range got {
			if known, ok := r.ByISO3(s.ISO3); !ok || known != s {
				t.Errorf("Suggest(%q) offers %v, not a registry entry", input, s)
			}
		}
		if rok && (len(got) != 1 || got[0] != resolved) {
			t.Errorf("Suggest(%q) = %v, want only %v, which it resolves to", input, got, resolved)
		}
	})
}

// sameCountry fails unless c is the registry's entry for its codes and its
// codes and name look it up again.
func sameCountry(t *testing.T, r *country.Registry, c entrycheck.Country) {
	t.Helper()
	if len(c.ISO3) != 3 || strings.ToUpper(c.ISO3) != c.ISO3 || len(c.ISO2) != 2 || strings.ToUpper(c.ISO2) != c.ISO2 {
		t.Fatalf("%v: codes are not upper-case ISO 3166-1", c)
	}
	for _, in := range []string{c.ISO3, strings.ToLower(c.ISO3), c.ISO2, strings.ToLower(c.ISO2), c.Name} {
		if got, ok := r.Lookup(in); !ok || got != c {
			t.Errorf("%v: Lookup(%q) = %v %v", c, in, got, ok)
		}
	}
}
