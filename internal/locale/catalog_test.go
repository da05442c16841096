package locale_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestEmbeddedCatalogsLoad loads the catalogs the service ships: every
// language has every message of the English catalog.
func TestEmbeddedCatalogsLoad(t *testing.T) {
	cs, err := locale.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(cs.List()), len(locale.Languages()); got != want {
		t.Errorf("%d catalogs, want %d", got, want)
	}
}

// TestEveryCountryHasItsNameInEveryLanguage names every country of the
// registry in every language from CLDR: no name is written by hand, and
// none falls back to English unless the language writes it so.
func TestEveryCountryHasItsNameInEveryLanguage(t *testing.T) {
	reg, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range locale.Embedded().List() {
		same := 0
		for _, k := range reg.All() {
			if !c.HasCountryName(k.ISO2) {
				t.Errorf("%s: CLDR has no name for %s (%s)", c.Code, k.ISO3, k.Name)
			}
			if c.Country(k.ISO2, k.Name) == k.Name {
				same++
			}
		}
		// Languages of the Latin script share many names with English
		// (Nigeria, Kenya); those of another script share none.
		if script, _ := c.Tag.Script(); script.String() != "Latn" && same > 0 {
			t.Errorf("%s: %d of %d country names are the English ones", c.Code, same, len(reg.All()))
		}
	}
}

// TestMatchPicksTheLanguageAsked reads the lang parameter before the
// Accept-Language header, matches regional variants to the language and
// falls back to English, saying so, for a language not spoken.
func TestMatchPicksTheLanguageAsked(t *testing.T) {
	cs := locale.Embedded()
	cases := []struct {
		asked, accept, want string
		spoken              bool
	}{
		{"", "", "en", true},
		{"fr", "", "fr", true},
		{"FR", "de", "fr", true},
		{"pt-BR", "", "pt", true},
		{"zh-CN", "", "zh", true},
		{"zh-Hans", "", "zh", true},
		{"", "de-CH,de;q=0.9,en;q=0.8", "de", true},
		{"", "ar-EG", "ar", true},
		{"", "xx, es;q=0.9", "es", true},
		{"", "ru;q=0.2, hi;q=0.8", "hi", true},
		{"", "fr;q=0, de;q=0.5", "de", true},
		{"xx", "", "en", false},
		{"not a tag!", "", "en", false},
		{"", "xx", "en", false},
		{"", "tlh", "en", false},
		{"", "tlh, en;q=0.1", "en", true},
		{"zh-TW", "", "zh", true},
	}
	for _, c := range cases {
		got, spoken := cs.Match(c.asked, c.accept)
		if got.Code != c.want || spoken != c.spoken {
			t.Errorf("Match(%q, %q) = %s, %v; want %s, %v", c.asked, c.accept, got.Code, spoken, c.want, c.spoken)
		}
	}
}

// TestLanguagesHaveOneCatalogEach keeps the table of languages and the
// catalog files one for one.
func TestLanguagesHaveOneCatalogEach(t *testing.T) {
	codes := locale.Codes()
	if codes[0] != locale.English {
		t.Errorf("the first language is %s, want English", codes[0])
	}
	for _, c := range locale.Embedded().List() {
		if !slices.Contains(codes, c.Code) {
			t.Errorf("catalog %s is not a language of the table", c.Code)
		}
		if c.Name == "" || strings.ToLower(c.Dir()) != c.Dir() {
			t.Errorf("%s: name %q, dir %q", c.Code, c.Name, c.Dir())
		}
	}
}

// TestSelectKeepsEnglishFirst reads a build's --languages.
func TestSelectKeepsEnglishFirst(t *testing.T) {
	cs := locale.Embedded()
	for in, want := range map[string]string{"": strings.Join(locale.Codes(), ","), "es": "en,es", "ES, ar ,en": "en,es,ar"} {
		got, err := cs.Select(in)
		if err != nil {
			t.Fatalf("Select(%q): %v", in, err)
		}
		var codes []string
		for _, c := range got {
			codes = append(codes, c.Code)
		}
		if strings.Join(codes, ",") != want {
			t.Errorf("Select(%q) = %v, want %s", in, codes, want)
		}
	}
	if _, err := cs.Select("en,xx"); err == nil || !strings.Contains(err.Error(), `"xx"`) {
		t.Errorf("Select(en,xx): %v", err)
	}
}

// TestDigitsPadsInTheLanguagesDigits writes the parts of a date in
// figures: at least the width asked, zeros first, no grouping, in the
// language's digits.
func TestDigitsPadsInTheLanguagesDigits(t *testing.T) {
	cs := locale.Embedded()
	for _, c := range []struct {
		code     string
		n, width int
		want     string
	}{
		{"en", 3, 2, "03"}, {"en", 12, 2, "12"}, {"en", 2027, 4, "2027"}, {"de", 12345, 4, "12345"}, {"ar", 3, 2, "٠٣"}, {"ar", 2027, 4, "٢٠٢٧"},
	} {
		cat, _ := cs.Get(c.code)
		if got := cat.Digits(c.n, c.width); got != c.want {
			t.Errorf("%s: Digits(%d, %d) = %q, want %q", c.code, c.n, c.width, got, c.want)
		}
	}
}
