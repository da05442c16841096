package sitetree_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/sitetree"
)

func spoken(code string) bool { return code == "es" || code == "ar" || code == "en" }

// TestPageFilesAndAddressesMeet walks a page's address to its file and
// back, in English and in another language.
func TestPageFilesAndAddressesMeet(t *testing.T) {
	for _, tc := range []struct{ code, path, file string }{
		{"en", "/passports/deu/tha/", "passports/deu/tha/index.html"},
		{"es", "/passports/deu/tha/", "passports/deu/tha/index.es.html"},
		{"ar", "/", "index.ar.html"},
		{"es", "/404.html", "404.es.html"},
		{"es", "/widget/", "widget/index.es.html"},
	} {
		if got := sitetree.PageFile(tc.code, tc.path); got != tc.file {
			t.Errorf("PageFile(%s, %s) = %s, want %s", tc.code, tc.path, got, tc.file)
		}
		if tc.code == "en" {
			continue
		}
		address, ok := sitetree.Translated(tc.file, spoken)
		if !ok || address != "/"+tc.code+tc.path {
			t.Errorf("Translated(%s) = %s %v, want /%s%s", tc.file, address, ok, tc.code, tc.path)
		}
		code, english, ok := sitetree.LanguageOf(address, spoken)
		if !ok || code != tc.code || english != tc.path {
			t.Errorf("LanguageOf(%s) = %s %s %v", address, code, english, ok)
		}
	}
	for _, path := range []string{"/passports/deu/", "/en/passports/", "/xx/passports/", "/es"} {
		if code, _, ok := sitetree.LanguageOf(path, spoken); ok {
			t.Errorf("LanguageOf(%s) = %s, want none", path, code)
		}
	}
	for _, file := range []string{"passports/deu/tha/index.html", "assets/site.1234.css", "embed.abc.js", "index.xx.html", "passports/deu/index.en.html"} {
		if address, ok := sitetree.Translated(file, spoken); ok {
			t.Errorf("Translated(%s) = %s, want none", file, address)
		}
	}
}
