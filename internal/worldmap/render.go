package worldmap

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/country"
)

// Width is the width of the map's viewBox. Coordinates are written to a
// tenth of a unit, finer than a screen pixel at any width the site shows.
const Width = 1000

// DotRadius is the radius of the dot placing a country too small for the
// 110m shapes.
const DotRadius = 3

// antarctica is the numeric code of Antarctica, left off the map: no
// passport or visa applies there and it would take a fifth of its height.
const antarctica = "010"

// LandID is the id of the group holding every shape, drawn as the land.
const LandID = "land"

// Map is the rendered sprite.
type Map struct {
	// SVG is the asset: the group LandID holding only the land no page
	// colours (areas that are no country of the matrix), then each wanted
	// country's shape, then the dots, each with the lower-case alpha-3 code
	// of its country as id. No element sets a fill or stroke, so that <use>
	// inherits them. A page draws the land once and every country once:
	// land drawn under the countries again would double the shapes a
	// browser lays out and paints.
	SVG []byte
	// ViewBox is the asset's viewBox, for the pages that <use> it.
	ViewBox string
	// Insets are the views of Regions, in their order.
	Insets []Inset
	placed map[string]bool // lower-case alpha-3 -> true for a dot
}

// Region is a part of the world too dense to tap on a phone at the width
// of the whole map: pages draw it again, larger, beside the map.
type Region struct {
	Name                     string
	West, South, East, North float64 // degrees
}

// Regions are the insets every map has: Europe's small countries and
// microstates, the Caribbean's islands and the Gulf states, which at 390
// px are a few pixels each on the whole map.
func Regions() []Region {
	return []Region{
		{Name: "Europe", West: -11, South: 34.5, East: 35, North: 60.5},
		{Name: "Caribbean", West: -86, South: 9.5, East: -58.5, North: 27},
		{Name: "Gulf", West: 45.5, South: 22, East: 59.5, North: 30.5},
	}
}

// Inset is a Region seen through the asset: the viewBox that frames it and
// the countries drawn there.
type Inset struct {
	Name    string
	ViewBox string
	// Zoom is how many times larger the inset shows the region than the
	// whole map does at the same width.
	Zoom  float64
	in    map[string]bool // lower-case alpha-3 of the countries inside
	width float64         // in tenths
}

// Has reports whether the country with the alpha-3 code (any case) is
// drawn inside the inset.
func (i Inset) Has(iso3 string) bool { return i.in[strings.ToLower(iso3)] }

// Placed reports whether the country with the alpha-3 code (any case) is
// on the map, and whether as a dot.
func (m *Map) Placed(iso3 string) (ok, dot bool) {
	dot, ok = m.placed[strings.ToLower(iso3)]
	return ok, dot
}

// countryOf names the country of a feature: by its numeric code, and by
// its name only for the registry's countries that have no numeric code
// (Kosovo), since the file also names areas that are no country of the
// registry (Somaliland, N. Cyprus), drawn as land without an id.
func countryOf(reg *country.Registry, f Feature) (iso3 string, ok bool) {
	if f.ID != "" {
		c, ok := reg.ByNumeric(f.ID)
		return c.ISO3, ok
	}
	c, ok := reg.Resolve(f.Name)
	if !ok {
		return "", false
	}
	if _, has := reg.Numeric(c.ISO3); has {
		return "", false
	}
	return c.ISO3, true
}

// Render reads the shapes of dir and draws every country of the registry.
// Each country of want missing from the 110m shapes is placed as a dot at
// the centre of its largest 50m polygon; a country in neither stays off
// the map (Placed says so).
func Render(dir string, want []string, reg *country.Registry) (*Map, error) {
	shapes, err := Read(dir, Countries110m)
	if err != nil {
		return nil, err
	}
	type shape struct {
		id    string
		rings [][]xy
	}
	type dot struct {
		id string
		at xy
	}
	wanted := map[string]bool{}
	for _, c := range want {
		wanted[strings.ToLower(c)] = true
	}
	var drawn []shape
	placed := map[string]bool{}
	box := newBBox()
	for _, f := range shapes {
		if f.ID == antarctica {
			continue
		}
		s := shape{}
		if iso3, ok := countryOf(reg, f); ok && wanted[strings.ToLower(iso3)] {
			s.id = strings.ToLower(iso3)
			placed[s.id] = false
		}
		for _, p := range f.Polygons {
			for _, r := range p {
				for _, part := range splitAntimeridian(r) {
					ring := project(part)
					box.add(ring...)
					s.rings = append(s.rings, ring)
				}
			}
		}
		drawn = append(drawn, s)
	}
	var missing []string
	for _, c := range want {
		if _, ok := placed[strings.ToLower(c)]; !ok {
			missing = append(missing, strings.ToLower(c))
		}
	}
	var dots []dot
	if len(missing) > 0 {
		small, err := Read(dir, Countries50m)
		if err != nil {
			return nil, err
		}
		centre := map[string]xy{}
		for _, f := range small {
			if iso3, ok := countryOf(reg, f); ok {
				centre[strings.ToLower(iso3)] = centroid(f)
			}
		}
		for _, id := range missing {
			if at, ok := centre[id]; ok {
				dots = append(dots, dot{id, at})
				placed[id] = true
				box.add(at)
			}
		}
	}
	// Shift the map to the origin with a margin that holds the dots.
	const margin = DotRadius + 1
	ox, oy := tenths(box.minX)-10*margin, tenths(box.minY)-10*margin
	w, h := tenths(box.maxX)-ox+10*margin, tenths(box.maxY)-oy+10*margin
	viewBox := "0 0 " + num(w) + " " + num(h)
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="` + viewBox + `"><g id="` + LandID + `">`)
	for _, s := range drawn {
		if s.id == "" {
			if d := pathData(s.rings, ox, oy); d != "" {
				b.WriteString(`<path d="` + d + `"/>`)
			}
		}
	}
	b.WriteString("</g>")
	// Each country's boxes, in the asset's tenths, for the insets.
	boxes := map[string][]*bbox{}
	for _, s := range drawn {
		if s.id == "" {
			continue
		}
		if d := pathData(s.rings, ox, oy); d != "" {
			b.WriteString(`<path id="` + s.id + `" d="` + d + `"/>`)
		}
		for _, r := range s.rings {
			rb := newBBox()
			for _, p := range r {
				rb.add(xy{float64(tenths(p.x) - ox), float64(tenths(p.y) - oy)})
			}
			boxes[s.id] = append(boxes[s.id], rb)
		}
	}
	for _, d := range dots {
		cx, cy := tenths(d.at.x)-ox, tenths(d.at.y)-oy
		fmt.Fprintf(&b, `<circle id="%s" cx="%s" cy="%s" r="%d"/>`, d.id, num(cx), num(cy), DotRadius)
		r := float64(10 * DotRadius)
		boxes[d.id] = append(boxes[d.id], &bbox{float64(cx) - r, float64(cy) - r, float64(cx) + r, float64(cy) + r})
	}
	b.WriteString("</svg>\n")
	m := &Map{SVG: b.Bytes(), ViewBox: viewBox, placed: placed}
	for _, r := range Regions() {
		in := inset(r, ox, oy, boxes)
		in.Zoom = float64(w) / in.width
		m.Insets = append(m.Insets, in)
	}
	return m, nil
}

// inset frames a region: the box of its projected edges, sampled along the
// curved meridians, in the asset's coordinates, and the countries with a
// ring inside it.
func inset(r Region, ox, oy int, boxes map[string][]*bbox) Inset {
	var edge []Point
	const steps = 16
	for i := 0; i <= steps; i++ {
		f := float64(i) / steps
		lon, lat := r.West+f*(r.East-r.West), r.South+f*(r.North-r.South)
		edge = append(edge, Point{lon, r.South}, Point{lon, r.North}, Point{r.West, lat}, Point{r.East, lat})
	}
	fb := newBBox()
	fb.add(project(edge)...)
	x0, y0 := tenths(fb.minX)-ox, tenths(fb.minY)-oy
	x1, y1 := tenths(fb.maxX)-ox, tenths(fb.maxY)-oy
	in := map[string]bool{}
	for id, bs := range boxes {
		for _, b := range bs {
			if b.maxX >= float64(x0) && b.minX <= float64(x1) && b.maxY >= float64(y0) && b.minY <= float64(y1) {
				in[id] = true
				break
			}
		}
	}
	return Inset{Name: r.Name, ViewBox: num(x0) + " " + num(y0) + " " + num(x1-x0) + " " + num(y1-y0), width: float64(x1 - x0), in: in}
}

// xy is a projected point, y growing downwards as in SVG.
type xy struct{ x, y float64 }

// Equal Earth projection (Šavrič, Patterson and Jenny, 2018): equal-area,
// so that countries compare by size as they are.
const (
	eeA1 = 1.340264
	eeA2 = -0.081106
	eeA3 = 0.000893
	eeA4 = 0.003796
	eeM  = 0.86602540378443864676 // √3/2
	// eeScale makes the projected sphere Width wide: x reaches π/(M·A1)
	// at the antimeridian on the equator.
	eeScale = Width / (2 * math.Pi / (eeM * eeA1))
)

func project(ring []Point) []xy {
	out := make([]xy, len(ring))
	for i, p := range ring {
		lambda, phi := p.Lon*math.Pi/180, p.Lat*math.Pi/180
		theta := math.Asin(eeM * math.Sin(phi))
		l2 := theta * theta
		l6 := l2 * l2 * l2
		x := lambda * math.Cos(theta) / (eeM * (eeA1 + 3*eeA2*l2 + l6*(7*eeA3+9*eeA4*l2)))
		y := theta * (eeA1 + eeA2*l2 + l6*(eeA3+eeA4*l2))
		out[i] = xy{x * eeScale, -y * eeScale}
	}
	return out
}

// centroid is the centre of a feature's largest projected polygon, where
// its dot goes.
func centroid(f Feature) xy {
	var best xy
	bestArea := -1.0
	for _, p := range f.Polygons {
		if len(p) == 0 {
			continue
		}
		ring := project(p[0])
		var a, cx, cy float64
		for i := range ring {
			j := (i + 1) % len(ring)
			c := ring[i].x*ring[j].y - ring[j].x*ring[i].y
			a += c
			cx += (ring[i].x + ring[j].x) * c
			cy += (ring[i].y + ring[j].y) * c
		}
		if math.Abs(a) < 1e-9 {
			// Too small to have an area at this scale: its first point.
			if bestArea < 0 {
				best, bestArea = ring[0], 0
			}
			continue
		}
		if math.Abs(a) > bestArea {
			best, bestArea = xy{cx / (3 * a), cy / (3 * a)}, math.Abs(a)
		}
	}
	return best
}

type bbox struct{ minX, minY, maxX, maxY float64 }

func newBBox() *bbox {
	return &bbox{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
}

func (b *bbox) add(ps ...xy) {
	for _, p := range ps {
		b.minX, b.maxX = math.Min(b.minX, p.x), math.Max(b.maxX, p.x)
		b.minY, b.maxY = math.Min(b.minY, p.y), math.Max(b.maxY, p.y)
	}
}

// tenths rounds a coordinate to a whole number of tenths.
func tenths(v float64) int { return int(math.Round(v * 10)) }

// num writes a number of tenths as a decimal: 1234 "123.4", 5 ".5", -50 "-5".
func num(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.Itoa(n / 10)
	if n%10 != 0 {
		if s == "0" {
			s = ""
		}
		s += "." + strconv.Itoa(n%10)
	}
	if neg {
		s = "-" + s
	}
	return s
}

// pathData writes rings as SVG path data in tenths shifted by (ox, oy):
// an absolute move, then relative lines, dropping the points that rounding
// merges and the rings it collapses.
func pathData(rings [][]xy, ox, oy int) string {
	var b strings.Builder
	for _, ring := range rings {
		pts := make([][2]int, 0, len(ring))
		for _, p := range ring {
			q := [2]int{tenths(p.x) - ox, tenths(p.y) - oy}
			if len(pts) > 0 && pts[len(pts)-1] == q {
				continue
			}
			pts = append(pts, q)
		}
		for len(pts) > 1 && pts[len(pts)-1] == pts[0] {
			pts = pts[:len(pts)-1]
		}
		if len(pts) < 3 {
			continue
		}
		var w numWriter
		b.WriteByte('M')
		w.write(&b, pts[0][0])
		w.write(&b, pts[0][1])
		b.WriteByte('l')
		w.fresh()
		for i := 1; i < len(pts); i++ {
			w.write(&b, pts[i][0]-pts[i-1][0])
			w.write(&b, pts[i][1]-pts[i-1][1])
		}
		b.WriteByte('z')
	}
	return b.String()
}

// numWriter separates numbers only where the parser needs it: not before a
// minus sign, nor before ".5" after a number that has its decimal point.
type numWriter struct {
	started, dotted bool
}

func (w *numWriter) fresh() { w.started = false }

func (w *numWriter) write(b *strings.Builder, n int) {
	s := num(n)
	if w.started && s[0] != '-' && !(s[0] == '.' && w.dotted) {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	w.started, w.dotted = true, strings.IndexByte(s, '.') >= 0
}
