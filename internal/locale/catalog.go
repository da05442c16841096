package locale

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

//go:embed catalogs/*.json
var catalogFiles embed.FS

// Catalog is the words of one language: its messages, its plural rules,
// its country names (CLDR's) and how it writes numbers and dates. It is
// immutable and safe for concurrent use.
type Catalog struct {
	Language
	messages map[string]msg
	regions  display.Namer
	// numbers writes numbers; a Printer only reads its fields, so one
	// serves every call at once.
	numbers *message.Printer
}

// msg is one message: a text, or the forms of a counted text by CLDR
// plural category ("one", "few", "other", ...).
type msg struct {
	text  string
	forms map[string]string
}

// Catalogs is every language's catalog.
type Catalogs struct {
	list    []*Catalog
	matcher language.Matcher
}

// Load reads and checks every catalog. Each must have exactly the messages
// of the English one, with the same placeholders, and a counted message
// must give every plural form its language's CLDR rules use. An error
// names each language and message id at fault, so a catalog that forgets a
// message fails the build.
func Load() (*Catalogs, error) { return load(catalogFiles, languages) }

// embedded is the embedded catalogs, loaded once: they cannot change while
// the program runs.
var embedded = sync.OnceValues(Load)

// Embedded returns the embedded catalogs, loaded once. Commands that build
// or serve call Load first and stop on its error; a package that only
// needs the words (the evaluation core, the templates) uses these.
func Embedded() *Catalogs {
	c, err := embedded()
	if err != nil {
		panic("locale: the embedded catalogs are invalid (run go test ./internal/locale): " + err.Error())
	}
	return c
}

func load(files interface {
	ReadFile(string) ([]byte, error)
}, langs []Language) (*Catalogs, error) {
	cs := &Catalogs{}
	var errs []error
	tags := make([]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = l.Tag
		b, err := files.ReadFile("catalogs/" + l.Code + ".json")
		if err != nil {
			errs = append(errs, fmt.Errorf("language %s: no catalog: %w", l.Code, err))
			continue
		}
		msgs, err := parse(b)
		if err != nil {
			errs = append(errs, fmt.Errorf("language %s: catalogs/%s.json: %w", l.Code, l.Code, err))
			continue
		}
		cs.list = append(cs.list, &Catalog{Language: l, messages: msgs, regions: display.Regions(l.Tag), numbers: message.NewPrinter(l.Tag)})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	en := cs.list[0]
	for _, c := range cs.list[1:] {
		errs = append(errs, c.matches(en)...)
	}
	for _, c := range cs.list {
		errs = append(errs, c.formsComplete()...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	cs.matcher = language.NewMatcher(tags)
	return cs, nil
}

// parse reads a catalog: an object of message ids, each a text or an
// object of plural forms.
func parse(b []byte) (map[string]msg, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]msg, len(raw))
	for id, v := range raw {
		var m msg
		if err := json.Unmarshal(v, &m.text); err != nil {
			if err := json.Unmarshal(v, &m.forms); err != nil {
				return nil, fmt.Errorf("message %q is neither a text nor an object of plural forms", id)
			}
		}
		out[id] = m
	}
	return out, nil
}

// matches reports every way c differs from the reference catalog: a
// message missing or extra, counted in one and not the other, or with
// other placeholders.
func (c *Catalog) matches(ref *Catalog) []error {
	var errs []error
	for _, id := range ref.IDs() {
		m, ok := c.messages[id]
		r := ref.messages[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("language %s: message %q is missing", c.Code, id))
		case (m.forms == nil) != (r.forms == nil):
			errs = append(errs, fmt.Errorf("language %s: message %q must be counted (plural forms) exactly when the English one is", c.Code, id))
		case !slices.Equal(m.placeholders(), r.placeholders()):
			errs = append(errs, fmt.Errorf("language %s: message %q has placeholders %v, the English one %v", c.Code, id, m.placeholders(), r.placeholders()))
		}
	}
	for _, id := range c.IDs() {
		if _, ok := ref.messages[id]; !ok {
			errs = append(errs, fmt.Errorf("language %s: message %q is not in the English catalog", c.Code, id))
		}
	}
	return errs
}

// formsComplete reports the counted messages that lack a plural form the
// language's CLDR rules give some whole number.
func (c *Catalog) formsComplete() []error {
	var errs []error
	need := categories(c.Tag)
	for _, id := range c.IDs() {
		m := c.messages[id]
		if m.forms == nil {
			continue
		}
		for _, f := range need {
			if _, ok := m.forms[f]; !ok {
				errs = append(errs, fmt.Errorf("language %s: message %q lacks the plural form %q", c.Code, id, f))
			}
		}
	}
	return errs
}

// pluralNames are CLDR's plural categories by x/text's form values.
var pluralNames = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// categories lists the plural categories a language's rules give whole
// numbers (the only numbers the service counts), "other" first.
func categories(tag language.Tag) []string {
	seen := map[string]bool{"other": true}
	out := []string{"other"}
	for n := range 1001 {
		f := pluralNames[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// placeholders lists the {names} a message uses, sorted, each once; a
// counted message's {n} is left out, since a form may spell its number
// ("un jour").
func (m msg) placeholders() []string {
	var out []string
	add := func(s string) {
		for {
			i := strings.IndexByte(s, '{')
			if i < 0 {
				return
			}
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return
			}
			if name := s[i+1 : i+j]; !slices.Contains(out, name) && !(m.forms != nil && name == "n") {
				out = append(out, name)
			}
			s = s[i+j+1:]
		}
	}
	add(m.text)
	for _, f := range m.forms {
		add(f)
	}
	slices.Sort(out)
	return out
}

// IDs lists the catalog's message ids, sorted.
func (c *Catalog) IDs() []string {
	out := make([]string, 0, len(c.messages))
	for id := range c.messages {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Has reports whether the catalog has message id.
func (c *Catalog) Has(id string) bool {
	_, ok := c.messages[id]
	return ok
}

// Text is message id with its placeholders filled: args are pairs of a
// placeholder's name and its value. A message the catalog lacks reads as
// its id in brackets, which the catalog tests find in any surface.
func (c *Catalog) Text(id string, args ...string) string {
	m, ok := c.messages[id]
	if !ok {
		return "[" + id + "]"
	}
	return fill(m.text, args)
}

// Count is counted message id for n, in the plural form the language's
// rules give n, with {n} written as the language writes numbers.
func (c *Catalog) Count(id string, n int, args ...string) string {
	m, ok := c.messages[id]
	if !ok {
		return "[" + id + "]"
	}
	form, ok := m.forms[pluralNames[plural.Cardinal.MatchPlural(c.Tag, n, 0, 0, 0, 0)]]
	if !ok {
		form = m.forms["other"]
	}
	return fill(form, append(args, "n", c.Number(n)))
}

// Forms is the text of counted message id in each plural category, for a
// script that picks the form itself (Intl.PluralRules) and writes {n};
// nil for a message that is not counted.
func (c *Catalog) Forms(id string) map[string]string { return maps.Clone(c.messages[id].forms) }

// fill replaces each {name} of s by its value in args (name, value
// pairs); a placeholder without a value is left as it is.
func fill(s string, args []string) string {
	if len(args) == 0 || !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 32)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name, value, found := s[i+1:i+j], "", false
		for k := 0; k+1 < len(args); k += 2 {
			if args[k] == name {
				value, found = args[k+1], true
				break
			}
		}
		if found {
			b.WriteString(value)
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// Number writes a whole number as the language does: 39,402 in English,
// 39.402 in Spanish, ٣٩٬٤٠٢ in Arabic.
func (c *Catalog) Number(n int) string {
	return c.numbers.Sprint(number.Decimal(n))
}

// digits writes a number without grouping, in the language's digits, as
// a year or a day of the month is written.
func (c *Catalog) digits(n int) string {
	return c.numbers.Sprint(number.Decimal(n, number.NoSeparator()))
}

// Date writes a day in full as the language does: "17 February 2026",
// "17 de febrero de 2026", "2026年2月17日".
func (c *Catalog) Date(year, month, day int) string {
	return c.Text("date.long", "day", c.digits(day), "month", c.Text("date.month."+strconv.Itoa(month)), "year", c.digits(year))
}

// Country names a country in the language: CLDR's name for its ISO 3166-1
// alpha-2 code, or english, the registry's name, in English or where CLDR
// has none.
func (c *Catalog) Country(iso2, english string) string {
	if c.Code == English {
		return english
	}
	r, err := language.ParseRegion(iso2)
	if err != nil {
		return english
	}
	if name := c.regions.Name(r); name != "" {
		return name
	}
	return english
}

// HasCountryName reports whether CLDR names the country of iso2 in the
// language (English names come from the registry).
func (c *Catalog) HasCountryName(iso2 string) bool {
	r, err := language.ParseRegion(iso2)
	return err == nil && (c.Code == English || c.regions.Name(r) != "")
}

// List returns the catalogs, English first.
func (cs *Catalogs) List() []*Catalog { return slices.Clone(cs.list) }

// English returns the reference catalog.
func (cs *Catalogs) English() *Catalog { return cs.list[0] }

// Get returns the catalog of a language code (en, es, ...).
func (cs *Catalogs) Get(code string) (*Catalog, bool) {
	for _, c := range cs.list {
		if c.Code == code {
			return c, true
		}
	}
	return nil, false
}

// Match picks the catalog for what a client asked: asked, a language tag
// given explicitly (the lang parameter or argument), else acceptLanguage,
// an HTTP Accept-Language header. It returns English when nothing was
// asked, and English with spoken false when what was asked is not a
// language the service speaks (not even a variant of one: pt-BR is
// Portuguese, zh-CN Chinese).
func (cs *Catalogs) Match(asked, acceptLanguage string) (c *Catalog, spoken bool) {
	var tags []language.Tag
	switch {
	case strings.TrimSpace(asked) != "":
		t, err := language.Parse(strings.TrimSpace(asked))
		if err != nil {
			return cs.English(), false
		}
		tags = []language.Tag{t}
	case strings.TrimSpace(acceptLanguage) != "":
		tags = acceptedTags(acceptLanguage)
		if len(tags) == 0 {
			return cs.English(), false
		}
	default:
		return cs.English(), true
	}
	// The matcher answers its first language, English, with some
	// confidence even for a language it does not know (tlh); only a
	// language the client named counts as asked.
	_, i, conf := cs.matcher.Match(tags...)
	chosen, _ := cs.list[i].Tag.Base()
	for _, t := range tags {
		if base, _ := t.Base(); base == chosen && conf != language.No {
			return cs.list[i], true
		}
	}
	return cs.English(), false
}

// acceptedTags reads an Accept-Language header into its language tags,
// most preferred first. Unlike language.ParseAcceptLanguage, which refuses
// the whole header for one unknown tag, it skips what it cannot read, and
// the tags with q=0, which the client refuses.
func acceptedTags(header string) []language.Tag {
	type weighted struct {
		tag language.Tag
		q   float64
	}
	var ws []weighted
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				continue
			}
			q = f
		}
		t, err := language.Parse(strings.TrimSpace(tag))
		if err != nil || q <= 0 || tag == "*" {
			continue
		}
		ws = append(ws, weighted{t, q})
	}
	slices.SortStableFunc(ws, func(a, b weighted) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	out := make([]language.Tag, len(ws))
	for i, w := range ws {
		out[i] = w.tag
	}
	return out
}

// Select returns the catalogs of a comma-separated list of language codes
// (a build's --languages), English first and always included; an empty
// list selects every language. A code the service does not speak is an
// error that lists those it does.
func (cs *Catalogs) Select(codes string) ([]*Catalog, error) {
	if strings.TrimSpace(codes) == "" {
		return cs.List(), nil
	}
	out := []*Catalog{cs.English()}
	for code := range strings.SplitSeq(codes, ",") {
		code = strings.ToLower(strings.TrimSpace(code))
		c, ok := cs.Get(code)
		if !ok {
			return nil, fmt.Errorf("language %q is not one the service speaks: use some of %s", code, strings.Join(Codes(), ","))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}
