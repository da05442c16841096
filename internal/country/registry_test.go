package country_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/country"
)

func TestRegistryCoversISO3166(t *testing.T) {
	r, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.All()); n != 250 {
		t.Errorf("%d countries, want the 249 of ISO 3166-1 plus Kosovo", n)
	}
	for _, code := range []string{"PRI", "GRL", "ATA", "XKX", "deu", "Gbr"} {
		if _, ok := r.ByISO3(code); !ok {
			t.Errorf("%s is not known", code)
		}
	}
	for _, code := range []string{"GER", "UK", "XXX", "DE", "DEUT", ""} {
		if c, ok := r.ByISO3(code); ok {
			t.Errorf("%q resolved to %v; only alpha-3 codes may", code, c)
		}
	}
	if c, _ := r.ByISO2("de"); c.ISO3 != "DEU" {
		t.Errorf("ByISO2(de) = %v", c)
	}
}

func TestSuggestions(t *testing.T) {
	r, err := country.New(country.Alias{Name: "Swaziland", ISO3: "SWZ"})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"GER":                      "DEU",
		"Germany":                  "DEU",
		"germany":                  "DEU",
		"UK":                       "GBR",
		"South Korea":              "KOR",
		"NED":                      "NLD",
		"SUI":                      "CHE",
		"DE":                       "DEU",
		"germny":                   "DEU",
		"Swaziland":                "SWZ",
		"Cote d'Ivoire":            "CIV",
		"côte d’ivoire":            "CIV",
		"United States of America": "USA",
		"Thai":                     "THA",
	}
	for in, want := range cases {
		got := r.Suggest(in)
		if len(got) == 0 || got[0].ISO3 != want {
			t.Errorf("Suggest(%q) = %v, want %s first", in, got, want)
		}
		if len(got) > country.MaxSuggestions {
			t.Errorf("Suggest(%q) returned %d suggestions", in, len(got))
		}
	}
	if got := r.Suggest("qqqqqqqqqq"); len(got) != 0 {
		t.Errorf("Suggest(nonsense) = %v, want nothing", got)
	}
}
