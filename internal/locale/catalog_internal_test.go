package locale

import (
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/text/language"
	"golang.org/x/text/number"
)

// twoLanguages is English and Russian, whose plural rules need forms
// English lacks (few, many).
var twoLanguages = []Language{
	{Code: "en", Tag: language.English, Name: "English"},
	{Code: "ru", Tag: language.Russian, Name: "Русский"},
}

func catalogs(en, ru string) fstest.MapFS {
	return fstest.MapFS{
		"catalogs/en.json": {Data: []byte(en)},
		"catalogs/ru.json": {Data: []byte(ru)},
	}
}

// TestLoadRefusesAnIncompleteCatalog shows that a catalog that forgets a
// message, changes its placeholders, adds one English lacks or misses a
// plural form its language needs is refused, naming the language and the
// message: the build stops on it.
func TestLoadRefusesAnIncompleteCatalog(t *testing.T) {
	en := `{"a": "Hello {name}", "b": "Bye", "days": {"one": "{n} day", "other": "{n} days"}}`
	cases := []struct {
		name, ru string
		want     []string
	}{
		{"missing message", `{"a": "Привет {name}", "days": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"}}`,
			[]string{`language ru: message "b" is missing`}},
		{"other placeholder", `{"a": "Привет {who}", "b": "Пока", "days": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"}}`,
			[]string{`language ru: message "a" has placeholders [who], the English one [name]`}},
		{"extra message", `{"a": "Привет {name}", "b": "Пока", "c": "Ещё", "days": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"}}`,
			[]string{`language ru: message "c" is not in the English catalog`}},
		{"plural form missing", `{"a": "Привет {name}", "b": "Пока", "days": {"one": "{n} день", "other": "{n} дня"}}`,
			[]string{`language ru: message "days" lacks the plural form "few"`, `language ru: message "days" lacks the plural form "many"`}},
		{"counted only in one", `{"a": "Привет {name}", "b": "Пока", "days": "дни"}`,
			[]string{`language ru: message "days" must be counted`}},
	}
	for _, c := range cases {
		_, err := load(catalogs(en, c.ru), twoLanguages)
		if err == nil {
			t.Errorf("%s: loaded", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
	}
	if _, err := load(catalogs(en, `{"a": "Привет {name}", "b": "Пока", "days": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"}}`), twoLanguages); err != nil {
		t.Errorf("a complete catalog was refused: %v", err)
	}
	if _, err := load(fstest.MapFS{"catalogs/en.json": {Data: []byte(en)}}, twoLanguages); err == nil || !strings.Contains(err.Error(), "language ru: no catalog") {
		t.Errorf("a language without a catalog: err = %v", err)
	}
}

// TestCountUsesTheLanguagesPluralRules counts days in Russian, whose
// rules have three forms for whole numbers.
func TestCountUsesTheLanguagesPluralRules(t *testing.T) {
	cs, err := load(catalogs(`{"days": {"one": "{n} day", "other": "{n} days"}}`,
		`{"days": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"}}`), twoLanguages)
	if err != nil {
		t.Fatal(err)
	}
	ru, _ := cs.Get("ru")
	for n, want := range map[int]string{1: "1 день", 3: "3 дня", 5: "5 дней", 21: "21 день", 90: "90 дней"} {
		if got := ru.Count("days", n); got != want {
			t.Errorf("Count(days, %d) = %q, want %q", n, got, want)
		}
	}
	if got := cs.English().Count("days", 1); got != "1 day" {
		t.Errorf("English Count(days, 1) = %q", got)
	}
}

// TestNumbersWithoutThePrinter writes numbers in every language, in its
// digits, as its printer does, whether or not they take the way around it
// (the digit table): grouped (1,000; 10.000), padded, negative.
func TestNumbersWithoutThePrinter(t *testing.T) {
	cs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs.List() {
		for _, n := range []int{-1000, -5, 0, 1, 7, 12, 99, 999, 1000, 1001, 9999, 10000, 12345, 1234567} {
			if got, want := c.Number(n), c.numbers.Sprint(number.Decimal(n)); got != want {
				t.Errorf("%s: Number(%d) = %q, the printer %q", c.Code, n, got, want)
			}
			for _, width := range []int{1, 2, 4} {
				if got, want := c.Digits(n, width), c.numbers.Sprint(number.Decimal(n, number.NoSeparator(), number.MinIntegerDigits(width))); got != want {
					t.Errorf("%s: Digits(%d, %d) = %q, the printer %q", c.Code, n, width, got, want)
				}
			}
		}
	}
}
