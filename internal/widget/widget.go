// Package widget builds the embeddable checker: the script other sites load
// from /embed.js to check entry requirements inside their own pages, with an
// attribution link back to the site. Its source is JavaScript in src/,
// bundled, minified and given the matrix countries by esbuild's Go API when
// the site is built, so no Node toolchain is involved.
//
// It depends on the domain package only: it returns plain files, which the
// build command hands to the generator.
package widget

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/entrycheck/entrycheck"
)

//go:embed src
var source embed.FS

// File is one file of the bundle, served from the site root.
type File struct {
	Path      string // from the site root, with a leading slash
	Body      []byte
	MediaType string
}

// Path is where embedders load the widget from; MediaType is how it is served.
const (
	Path      = "/embed.js"
	MediaType = "text/javascript; charset=utf-8"
)

// banner states the licence in the bundle itself.
const banner = "/* entrycheck embeddable checker: free for any site while its attribution link stays visible. */"

// countriesModule is the import path under which the bundle receives the
// countries of the pickers.
const countriesModule = "entrycheck:countries"

// Bundle builds the widget with the given countries in its pickers (the
// matrix countries: every route of the widget has an answer). It returns the
// minified script at Path, which embed snippets reference and which caches
// for minutes, and the same bytes at /embed.<hash>.js, named after their
// content, for embedders who pin a version and cache it for a year. The same
// source and countries always give the same bytes.
func Bundle(countries []entrycheck.Country) ([]File, error) {
	list, err := countryList(countries)
	if err != nil {
		return nil, err
	}
	labels, err := labelList()
	if err != nil {
		return nil, err
	}
	tones, err := json.Marshal(entrycheck.Tones())
	if err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{"embed.js"},
		Bundle:            true,
		Write:             false,
		Outfile:           "embed.js",
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetASCII,
		Banner:            map[string]string{"js": banner},
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{embedded(list)},
		// The labels of an answer's facts, so that the widget names each as
		// the site does, and the tone of every requirement value
		// (entrycheck.Tones). The entry rules need no words here: an
		// answer carries them as the route page shows them
		// (entry_rule_lines).
		Define: map[string]string{"LABELS": labels, "REQUIREMENT_TONES": string(tones)},
	})
	if err := buildError(res.Errors); err != nil {
		return nil, err
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("widget: esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	body := res.OutputFiles[0].Contents
	return []File{
		{Path: Path, Body: body, MediaType: MediaType},
		{Path: HashedPath(body), Body: body, MediaType: MediaType},
	}, nil
}

// labelList is the JSON object of the words the widget shows beside the
// rules: the labels of an answer's facts (entrycheck.Label...), the
// allowed stay the matrix does not state, what to do without a reliable
// verdict, the link of each apply kind, what a check costs and how a
// suggestion is asked (entrycheck.LiveCheckNotice, DidYouMean).
func labelList() (string, error) {
	apply := map[string]string{}
	for _, k := range entrycheck.ApplyKinds() {
		apply[k] = entrycheck.ApplyKindLabel(k)
	}
	b, err := json.Marshal(map[string]any{
		"allowed_stay":       entrycheck.LabelAllowedStay.String(),
		"not_stated":         entrycheck.NotStated(entrycheck.English()),
		"as_of":              entrycheck.LabelAsOf.String(),
		"official_statement": entrycheck.LabelOfficialStatement.String(),
		"source":             entrycheck.LabelSource.String(),
		"no_verdict":         entrycheck.ActionCheckOfficialAuthority.Sentence(entrycheck.Unknown, false),
		"live_check":         entrycheck.LiveCheckNotice,
		"did_you_mean":       entrycheck.DidYouMean,
		// A route and a passport's page, with {passport}, {destination}
		// and {country} for the names (fill in answer.js).
		"route":             entrycheck.RouteWords("{passport}", "{destination}"),
		"every_destination": entrycheck.EveryDestinationWords("{country}"),
		// How an official statement bears on the verdict.
		"not_applied": entrycheck.ComparisonWordsIn(entrycheck.English(), entrycheck.ComparisonNotApplied),
		"agrees":      entrycheck.ComparisonWordsIn(entrycheck.English(), entrycheck.ComparisonAgrees),
		"conflicts":   entrycheck.ComparisonWordsIn(entrycheck.English(), entrycheck.ComparisonConflicts),
		"apply":       apply,
	})
	return string(b), err
}

// HashedPath is the content-addressed name of a bundle: /embed.<hash>.js
// with the first ten hex digits of its SHA-256, as the site's own assets.
func HashedPath(body []byte) string {
	sum := sha256.Sum256(body)
	return "/embed." + hex.EncodeToString(sum[:5]) + ".js"
}

// countryList encodes the countries compactly, sorted by name, as the
// pickers list them: "AFGAfghanistan|ALBAlbania|...".
func countryList(countries []entrycheck.Country) (string, error) {
	if len(countries) == 0 {
		return "", errors.New("widget: no countries for the pickers")
	}
	cs := slices.Clone(countries)
	slices.SortStableFunc(cs, func(a, b entrycheck.Country) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	for i, c := range cs {
		if !isISO3(c.ISO3) || c.Name == "" || strings.Contains(c.Name, "|") {
			return "", fmt.Errorf("widget: country %q %q cannot be listed", c.ISO3, c.Name)
		}
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(c.ISO3 + c.Name)
	}
	return b.String(), nil
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

// embedded resolves every import from the embedded source, minifies the
// stylesheet into a string for the shadow roots, and serves the country list
// as a module.
func embedded(list string) api.Plugin {
	const ns = "widget"
	return api.Plugin{Name: "embedded", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Path == countriesModule {
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
			if a.Path == countriesModule {
				q, _ := json.Marshal(list)
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
			errs = append(errs, fmt.Errorf("widget: %s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column, m.Text))
		} else {
			errs = append(errs, fmt.Errorf("widget: %s", m.Text))
		}
	}
	return errors.Join(errs...)
}
