// Package widget builds the embeddable checker: the script other sites load
// from /embed.js to check entry requirements inside their own pages, with an
// attribution link back to the site. Its source is JavaScript in src/,
// bundled, minified and given its words and countries by esbuild's Go API
// when the site is built, so no Node toolchain is involved.
//
// The checker speaks every language of the service, one bundle per
// language holding that language's words, from the same catalogs as the
// site and the API (internal/locale), and its country names; /embed.js is a
// small loader that adds to the page the bundle of each language its
// checkers speak.
//
// It depends on the domain package and the catalogs only: it returns plain
// files, which the build command hands to the generator.
package widget

import (
	"crypto/sha256"
	"crypto/sha512"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

//go:embed src
var source embed.FS

// File is one file of the widget, served from the site root.
type File struct {
	Path      string // from the site root, with a leading slash
	Body      []byte
	MediaType string
	// Language is the code of the language of a checker's bundle; empty
	// for the loader.
	Language string
}

// Path is where embedders load the widget from; MediaType is how it is served.
const (
	Path      = "/embed.js"
	MediaType = "text/javascript; charset=utf-8"
)

// banner states the licence in every file itself.
const banner = "/* entrycheck embeddable checker: free for any site while its attribution link stays visible. */"

// The import paths under which the build gives the sources their data.
const (
	countriesModule = "entrycheck:countries" // the pickers' countries, in the bundle's language
	wordsModule     = "entrycheck:words"     // the bundle's words (wordsOf)
	languagesModule = "entrycheck:languages" // the codes of the languages spoken, English first
	bundlesModule   = "entrycheck:bundles"   // each language's bundle and its digest, for the loader
)

// Bundle builds the widget with the given countries in its pickers (the
// matrix countries: every route of the widget has an answer). It returns
// the loader at Path, which embed snippets reference and which caches for
// minutes, the same bytes at /embed.<hash>.js, named after their content,
// for embedders who pin a version and cache it for a year, and then one
// checker per language the service speaks, at /embed.<lang>.<hash>.js
// (LanguagePath), which the loader names with their Subresource Integrity
// digests. The same source, catalogs and countries always give the same
// bytes.
func Bundle(countries []entrycheck.Country) ([]File, error) {
	if err := checkCountries(countries); err != nil {
		return nil, err
	}
	langs := locale.Embedded().List()
	codes := make([]string, len(langs))
	for i, c := range langs {
		codes[i] = c.Code
	}
	var checkers []File
	bundles := map[string][2]string{}
	for _, c := range langs {
		body, err := checker(c, countries, codes)
		if err != nil {
			return nil, fmt.Errorf("widget: the checker in %s: %w", c.Code, err)
		}
		f := File{Path: LanguagePath(c.Code, body), Body: body, MediaType: MediaType, Language: c.Code}
		checkers = append(checkers, f)
		// Relative to the loader, which is served from the same directory.
		bundles[c.Code] = [2]string{strings.TrimPrefix(f.Path, "/"), Integrity(body)}
	}
	loader, err := build("embed.js", modules{languagesModule: codes, bundlesModule: bundles}, nil)
	if err != nil {
		return nil, fmt.Errorf("widget: the loader: %w", err)
	}
	return append([]File{
		{Path: Path, Body: loader, MediaType: MediaType},
		{Path: HashedPath(loader), Body: loader, MediaType: MediaType},
	}, checkers...), nil
}

// checker builds the checker in the language of c: its words, its
// countries named and sorted in that language, and the tone of every
// requirement value (entrycheck.Tones).
func checker(c *locale.Catalog, countries []entrycheck.Country, codes []string) ([]byte, error) {
	tones, err := json.Marshal(entrycheck.Tones())
	if err != nil {
		return nil, err
	}
	return build("checkers.js", modules{
		countriesModule: countryList(c, countries),
		wordsModule:     wordsOf(c),
		languagesModule: codes,
	}, map[string]string{"REQUIREMENT_TONES": string(tones)})
}

// modules are the values the build gives the sources by import path, each
// the default export of its module, as JSON.
type modules map[string]any

// bom is the byte order mark of UTF-8.
const bom = "\ufeff"

// build bundles and minifies the source entry with modules and defines.
// A bundle is ASCII but for its words and country names, written as UTF-8
// (escaped, the words of a script other than Latin would take about 5%
// more of the budget gzipped) after a byte order mark: a browser then
// reads it as UTF-8 whatever the headers of the host that serves it or
// the encoding of the page that embeds it.
func build(entry string, mods modules, define map[string]string) ([]byte, error) {
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{entry},
		Bundle:            true,
		Write:             false,
		Outfile:           entry,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		Banner:            map[string]string{"js": banner},
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{embedded(mods)},
		Define:            define,
	})
	if err := buildError(res.Errors); err != nil {
		return nil, err
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	return append([]byte(bom), res.OutputFiles[0].Contents...), nil
}

// wordsOf is every word the checker shows in the language of c, from its
// catalog: the checker's own (widget.* messages), and those of an answer,
// as the site's pages and the API word them: the route, the labels of its
// facts, the requirement values (the static matrices are in English), the
// stay, the date and its age, the statements' standing, what to do without
// a reliable verdict, the apply links and the disclaimer. Counted messages
// keep their plural forms: the browser picks one (Intl.PluralRules), and
// writes numbers in the language's digits.
func wordsOf(c *locale.Catalog) map[string]any {
	byCode := func(codes []string, words func(string) string) map[string]string {
		out := map[string]string{}
		for _, k := range codes {
			out[k] = words(k)
		}
		return out
	}
	var requirements []string
	for r := range entrycheck.Tones() {
		requirements = append(requirements, string(r))
	}
	months := make([]string, 12)
	for i := range months {
		months[i] = c.Text("date.month." + strconv.Itoa(i+1))
	}
	digits := make([]string, 10)
	for i := range digits {
		digits[i] = c.Number(i)
	}
	return map[string]any{
		"lang": c.Code,
		"dir":  c.Dir(),
		// The checker's own words.
		"name":         c.Text("widget.name"),
		"passport":     c.Text("widget.passport"),
		"destination":  c.Text("widget.destination"),
		"check":        c.Text("widget.check"),
		"hint":         c.Text("widget.hint"),
		"credit":       c.Text("widget.credit"),
		"checking":     c.Text("widget.checking"),
		"did_you_mean": c.Text("widget.did_you_mean"),
		"choose":       byCode([]string{"passport", "destination"}, func(f string) string { return c.Text("widget.choose." + f) }),
		"preset":       byCode([]string{"passport", "destination"}, func(f string) string { return c.Text("widget.preset." + f) }),
		"limit":        c.Text("widget.error.limit"),
		"failed":       c.Text("widget.error.failed"),
		"offline":      c.Text("widget.error.offline"),
		"unread":       c.Text("widget.error.unread"),
		"as_of":        c.Text("widget.as_of"),
		"all_rules":    c.Text("widget.all_rules"),
		"fact":         c.Text("widget.fact"),
		// An answer's words, with their {placeholders} for the checker to
		// fill (words.js).
		"route":              entrycheck.RouteWordsIn(c, "{passport}", "{destination}"),
		"every_destination":  entrycheck.EveryDestinationWordsIn(c, "{country}"),
		"requirement":        byCode(requirements, func(r string) string { return entrycheck.Requirement(r).LabelIn(c) }),
		"allowed_stay":       entrycheck.LabelAllowedStay.In(c),
		"days":               c.Forms("stay.days"),
		"not_stated":         entrycheck.NotStated(c),
		"own_country":        entrycheck.ActionNone.SentenceIn(c, entrycheck.VisaFree, true),
		"old":                c.Forms("verdict.old.confirm_unnamed"),
		"official_statement": entrycheck.LabelOfficialStatement.In(c),
		"source":             entrycheck.LabelSource.In(c),
		"statement":          c.Text("status.statement.label"),
		"standing":           c.Text("status.statement.standing"),
		"status":             byCode(entrycheck.PeriodStatuses, func(s string) string { return entrycheck.PeriodStatusWordsIn(c, s) }),
		"comparison":         byCode([]string{entrycheck.ComparisonNotApplied, entrycheck.ComparisonAgrees, entrycheck.ComparisonConflicts}, func(k string) string { return entrycheck.ComparisonWordsIn(c, k) }),
		"from":               c.Text("period.statement.from"),
		"read_day":           c.Text("period.statement.read_day"),
		"between":            c.Text("period.between"),
		"sentence":           c.Text("words.sentence"),
		"no_verdict":         entrycheck.ActionCheckOfficialAuthority.SentenceIn(c, entrycheck.Unknown, false),
		"apply":              byCode(entrycheck.ApplyKinds(), func(k string) string { return entrycheck.ApplyKindLabelIn(c, k) }),
		"disclaimer":         entrycheck.Disclaimer(c),
		"date":               c.Text("date.long"),
		"months":             months,
		"digits":             digits,
	}
}

// HashedPath is the content-addressed name of the loader: /embed.<hash>.js
// with the first ten hex digits of its SHA-256, as the site's own assets.
func HashedPath(body []byte) string {
	return "/embed." + shortHash(body) + ".js"
}

// LanguagePath is the content-addressed name of the checker in language
// code: /embed.<code>.<hash>.js.
func LanguagePath(code string, body []byte) string {
	return "/embed." + code + "." + shortHash(body) + ".js"
}

func shortHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:5])
}

// Integrity is the Subresource Integrity digest of a file (sha384-...),
// which the browser checks before it runs it.
func Integrity(body []byte) string {
	sum := sha512.Sum384(body)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}

// checkCountries refuses what the pickers cannot list: no country, a code
// that is not ISO 3166-1 alpha-3, a country without a name, or a name
// with the list's separator.
func checkCountries(countries []entrycheck.Country) error {
	if len(countries) == 0 {
		return errors.New("widget: no countries for the pickers")
	}
	for _, c := range countries {
		if !isISO3(c.ISO3) || c.Name == "" || strings.Contains(c.Name, "|") {
			return fmt.Errorf("widget: country %q %q cannot be listed", c.ISO3, c.Name)
		}
	}
	return nil
}

// countryList encodes the countries compactly, named in the language of c
// (CLDR's names) and sorted as that language sorts them, as the pickers
// list them: "AFGAfghanistan|ALBAlbania|...". Names that sort alike keep
// the order of their codes, so that the list does not depend on the
// caller's order.
func countryList(c *locale.Catalog, countries []entrycheck.Country) string {
	type named struct{ iso3, name string }
	list := make([]named, len(countries))
	for i, k := range countries {
		list[i] = named{k.ISO3, strings.ReplaceAll(c.Country(k.ISO2, k.Name), "|", " ")}
	}
	order := collate.New(c.Tag)
	slices.SortFunc(list, func(a, b named) int {
		if n := order.CompareString(a.name, b.name); n != 0 {
			return n
		}
		return strings.Compare(a.iso3, b.iso3)
	})
	var b strings.Builder
	for i, k := range list {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(k.iso3 + k.name)
	}
	return b.String()
}

func isISO3(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// embedded resolves every import from the embedded source or mods,
// minifies the stylesheet into a string for the shadow roots, and serves
// each of mods as a module whose default export is its value.
func embedded(mods modules) api.Plugin {
	const ns = "widget"
	return api.Plugin{Name: "embedded", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if _, ok := mods[a.Path]; ok {
				return api.OnResolveResult{Path: a.Path, Namespace: ns}, nil
			}
			p := path.Clean(path.Join(path.Dir(a.Importer), a.Path))
			if a.Importer == "" {
				p = path.Clean(a.Path)
			}
			if _, err := fs.Stat(source, "src/"+p); err != nil {
				return api.OnResolveResult{}, fmt.Errorf("%s is not a file of widget/src", a.Path)
			}
			return api.OnResolveResult{Path: p, Namespace: ns}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: ns}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			if v, ok := mods[a.Path]; ok {
				q, err := json.Marshal(v)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				js := "export default " + string(q) + ";"
				return api.OnLoadResult{Contents: &js, Loader: api.LoaderJS}, nil
			}
			raw, err := fs.ReadFile(source, "src/"+a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			text := string(raw)
			if path.Ext(a.Path) != ".css" {
				return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
			}
			css := api.Transform(text, api.TransformOptions{Loader: api.LoaderCSS, MinifyWhitespace: true, MinifySyntax: true, Charset: api.CharsetASCII})
			if err := buildError(css.Errors); err != nil {
				return api.OnLoadResult{}, err
			}
			min := strings.TrimSpace(string(css.Code))
			return api.OnLoadResult{Contents: &min, Loader: api.LoaderText}, nil
		})
	}}
}

// buildError joins esbuild's messages into one error naming file and line.
func buildError(msgs []api.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	var errs []error
	for _, m := range msgs {
		if m.Location != nil {
			errs = append(errs, fmt.Errorf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column, m.Text))
		} else {
			errs = append(errs, errors.New(m.Text))
		}
	}
	return errors.Join(errs...)
}
