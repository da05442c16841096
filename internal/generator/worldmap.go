package generator

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
	"github.com/entrycheck/entrycheck/internal/worldmap"
)

// worldMap is the site's map asset: written once per build, content-hashed,
// and drawn by every passport and destination page through <use>.
type worldMap struct {
	path string // "/assets/world.0123456789.svg"
	m    *worldmap.Map
}

// writeWorldMap draws every country of the matrix into the map asset.
func (s *site) writeWorldMap() (worldMap, error) {
	if s.opts.GeoDir == "" {
		return worldMap{}, fmt.Errorf("no directory of world map shapes (Options.GeoDir)")
	}
	snap := s.ev.Snapshot()
	var want []string
	for _, c := range snap.Matrix.Countries() {
		want = append(want, c.ISO3)
	}
	m, err := worldmap.Render(s.opts.GeoDir, want, snap.Countries)
	if err != nil {
		return worldMap{}, err
	}
	w := worldMap{path: templates.HashedPath("world.svg", m.SVG), m: m}
	return w, s.w.write(trimSlash(w.path), m.SVG)
}

// mapPlace is a country to colour: by the requirement of its route, with
// its allowed stay, or as the page's own country; url is the English
// address of its page.
type mapPlace struct {
	country entrycheck.Country
	req     entrycheck.Requirement
	days    entrycheck.Days
	url     string
}

// requirementSlug names a requirement in anchors and classes: "visa-free".
func requirementSlug(r entrycheck.Requirement) string {
	return strings.ReplaceAll(string(r), "_", "-")
}

// view is the page model of a map of places in the language of c; own is
// the page's own country, ownLabel its legend entry; anchored legends link
// each requirement to the page's section of the same name. text says where
// the map's content stands as text. The places are named by their
// countries' names in the language, linking their pages in it.
func (w worldMap) view(c *locale.Catalog, label, text string, own mapPlace, ownLabel string, places []mapPlace, anchored bool) templates.WorldMap {
	v := templates.WorldMap{ViewBox: w.m.ViewBox, Label: label, Land: w.path + "#" + worldmap.LandID, Text: text}
	type drawn struct {
		place mapPlace
		slug  string // "eta", "own"
		title string
	}
	all := make([]drawn, 0, len(places)+1)
	counts := map[entrycheck.Requirement]int{}
	for _, p := range places {
		p.country.Name, p.url = c.Country(p.country.ISO2, p.country.Name), localPath(c, p.url)
		title := c.Text("page.map.place", "country", p.country.Name, "requirement", p.req.ShortLabelIn(c))
		if stay := entrycheck.StayWordsIn(c, p.req, p.days); stay != "" {
			title = c.Text("page.map.place_stay", "country", p.country.Name, "requirement", p.req.ShortLabelIn(c), "stay", stay)
		}
		all = append(all, drawn{p, requirementSlug(p.req), title})
		counts[p.req]++
	}
	own.country.Name = c.Country(own.country.ISO2, own.country.Name)
	own.url = localPath(c, own.url)
	all = append(all, drawn{own, "own", c.Text("page.map.place", "country", own.country.Name, "requirement", lowerFirst(ownLabel))})
	// Keyboard focus visits the places in the order of their names, as a
	// reader looks a country up; the names are compared as words, so that
	// Côte d'Ivoire comes after Costa Rica.
	names := collate.New(c.Tag, collate.Loose)
	sort.SliceStable(all, func(i, j int) bool {
		return names.CompareString(all[i].place.country.Name, all[j].place.country.Name) < 0
	})
	place := func(d drawn, suffix string) templates.MapPlace {
		return templates.MapPlace{URL: d.place.url, Class: "m-" + d.slug, Fill: "url(#" + patternID(d.slug, suffix) + ")", Title: d.title, Use: w.path + "#" + strings.ToLower(d.place.country.ISO3)}
	}
	for _, d := range all {
		switch ok, dot := w.m.Placed(d.place.country.ISO3); {
		case !ok:
			v.Unplaced = append(v.Unplaced, place(d, ""))
		case dot:
			v.Dots = append(v.Dots, place(d, ""))
			fallthrough
		default:
			v.Places = append(v.Places, place(d, ""))
		}
	}
	var slugs []string
	for _, req := range entrycheck.Requirements {
		if counts[req] == 0 {
			continue
		}
		slug := requirementSlug(req)
		slugs = append(slugs, slug)
		k := templates.MapKey{Class: "m-" + slug, Fill: "url(#" + patternID(slug, "") + ")", Label: req.LabelIn(c), N: counts[req]}
		if anchored {
			k.URL = "#" + slug
		}
		v.Legend = append(v.Legend, k)
	}
	slugs = append(slugs, "own")
	v.Legend = append(v.Legend, templates.MapKey{Class: "m-own", Fill: "url(#" + patternID("own", "") + ")", Label: ownLabel, N: 1})
	v.Patterns = patterns(slugs, "", 1)
	for _, in := range w.m.Insets {
		suffix := strings.ToLower(in.Name)
		mi := templates.MapInset{Name: c.Text("page.map.region." + suffix), ViewBox: in.ViewBox, Patterns: patterns(slugs, suffix, insetPattern/in.Zoom)}
		for _, d := range all {
			if in.Has(d.place.country.ISO3) {
				mi.Places = append(mi.Places, place(d, suffix))
			}
		}
		v.Insets = append(v.Insets, mi)
	}
	return v
}

// insetPattern is how many times larger an inset's pattern tiles are drawn
// than the whole map's at the same width: on a phone the whole map's
// tiles are a few pixels, and an inset is where the pattern is read.
const insetPattern = 2.5

// patternID names the fill of a requirement (slug) on one map: "p-eta" on
// the whole map and the legend, "p-eta-europe" on an inset.
func patternID(slug, suffix string) string {
	if suffix == "" {
		return "p-" + slug
	}
	return "p-" + slug + "-" + suffix
}

// patterns are the fills of slugs on one map, their tiles scaled by scale.
func patterns(slugs []string, suffix string, scale float64) []templates.MapPattern {
	out := make([]templates.MapPattern, len(slugs))
	for i, slug := range slugs {
		out[i] = templates.MapPattern{ID: patternID(slug, suffix), Slug: slug}
		if scale != 1 {
			out[i].Scale = strconv.FormatFloat(scale, 'f', 3, 64)
		}
	}
	return out
}
