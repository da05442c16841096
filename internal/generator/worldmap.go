package generator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
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

// mapPlace is a country to colour: by the requirement of its route, or as
// the page's own country.
type mapPlace struct {
	country entrycheck.Country
	req     entrycheck.Requirement
	stay    string // "60 days", ""
	url     string
}

// requirementSlug names a requirement in anchors and classes: "visa-free".
func requirementSlug(r entrycheck.Requirement) string {
	return strings.ReplaceAll(string(r), "_", "-")
}

// view is the page model of a map of places; own is the page's own
// country, ownLabel its legend entry; anchored legends link each
// requirement to the page's section of the same name.
// text says where the map's content stands as text.
func (w worldMap) view(label, text string, own mapPlace, ownLabel string, places []mapPlace, anchored bool) templates.WorldMap {
	v := templates.WorldMap{ViewBox: w.m.ViewBox, Label: label, Land: w.path + "#" + worldmap.LandID, Text: text}
	var dots []templates.MapPlace
	add := func(p mapPlace, class, title string) {
		mp := templates.MapPlace{URL: p.url, Class: class, Title: title, Use: w.path + "#" + strings.ToLower(p.country.ISO3)}
		switch ok, dot := w.m.Placed(p.country.ISO3); {
		case !ok:
			v.Unplaced = append(v.Unplaced, mp)
		case dot:
			dots = append(dots, mp)
		default:
			v.Places = append(v.Places, mp)
		}
	}
	counts := map[entrycheck.Requirement]int{}
	sort.Slice(places, func(i, j int) bool { return places[i].country.ISO3 < places[j].country.ISO3 })
	for _, p := range places {
		title := p.country.Name + ": " + p.req.ShortLabel()
		if p.stay != "" {
			title += ", " + p.stay
		}
		add(p, "m-"+requirementSlug(p.req), title)
		counts[p.req]++
	}
	add(own, "m-own", own.country.Name+": "+lowerFirst(ownLabel))
	v.Places = append(v.Places, dots...)
	for _, req := range entrycheck.Requirements {
		if counts[req] == 0 {
			continue
		}
		k := templates.MapKey{Class: "m-" + requirementSlug(req), Label: req.Label(), N: counts[req]}
		if anchored {
			k.URL = "#" + requirementSlug(req)
		}
		v.Legend = append(v.Legend, k)
	}
	v.Legend = append(v.Legend, templates.MapKey{Class: "m-own", Label: ownLabel, N: 1})
	return v
}
