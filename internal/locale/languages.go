// Package locale holds the words of the service in every language it
// speaks: one message catalog per language (catalogs/*.json), keyed by
// message id, with CLDR plural rules, CLDR country names, dates and
// numbers. Every text a traveller reads is looked up here; English is the
// reference catalog, which every other must match id for id.
//
// It imports nothing of the module, so every package can use it.
package locale

import "golang.org/x/text/language"

// Language is one language the service speaks.
type Language struct {
	// Code is the language's code in URLs (/es/...), the lang parameter
	// and the catalog's file name (catalogs/es.json).
	Code string
	// Tag is its BCP 47 tag, as <html lang> and hreflang write it and as
	// CLDR's plural rules, country names and numbers are looked up by.
	Tag language.Tag
	// Name is the language's name in itself, as a language switcher shows it.
	Name string
	// RTL marks a language written right to left.
	RTL bool
}

// Dir is the language's writing direction as HTML's dir attribute takes it.
func (l Language) Dir() string {
	if l.RTL {
		return "rtl"
	}
	return "ltr"
}

// English is the reference language: its catalog defines the message ids,
// and it is the language of an answer when no other was asked for or the
// one asked for is not spoken.
const English = "en"

// languages is every language the service speaks, English first. Adding a
// language is a line here and its catalog file, catalogs/<code>.json.
var languages = []Language{
	{Code: "en", Tag: language.English, Name: "English"},
	{Code: "es", Tag: language.Spanish, Name: "Español"},
	{Code: "fr", Tag: language.French, Name: "Français"},
	{Code: "pt", Tag: language.Portuguese, Name: "Português"},
	{Code: "de", Tag: language.German, Name: "Deutsch"},
	{Code: "ar", Tag: language.Arabic, Name: "العربية", RTL: true},
	{Code: "zh", Tag: language.SimplifiedChinese, Name: "简体中文"},
	{Code: "hi", Tag: language.Hindi, Name: "हिन्दी"},
	{Code: "ru", Tag: language.Russian, Name: "Русский"},
}

// MaxTagLength bounds a language tag as requests name it (BCP 47 tags are
// short in practice: "pt-BR", "zh-Hans-CN").
const MaxTagLength = 35

// Languages lists every language the service speaks, English first.
func Languages() []Language { return append([]Language(nil), languages...) }

// Codes lists the codes of Languages, English first.
func Codes() []string {
	out := make([]string, len(languages))
	for i, l := range languages {
		out[i] = l.Code
	}
	return out
}

// Spoken reports whether code is the code of one of Languages.
func Spoken(code string) bool {
	for _, l := range languages {
		if l.Code == code {
			return true
		}
	}
	return false
}
