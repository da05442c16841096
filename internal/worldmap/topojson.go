// Package worldmap draws the world map of the site: it reads the Natural
// Earth country shapes of world-atlas (TopoJSON, countries keyed by ISO
// 3166-1 numeric code), projects them with the Equal Earth projection and
// writes one SVG sprite holding every country as an element whose id is its
// lower-case alpha-3 code. Pages colour the sprite's elements through <use>;
// they hold no geometry themselves.
package worldmap

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The world-atlas 2.0.2 files the map reads.
const (
	// Countries110m is drawn as shapes.
	Countries110m = "countries-110m.json"
	// Countries50m places the countries too small for 110m as dots.
	Countries50m = "countries-50m.json"
)

// pinnedSHA256 is the digest of each file read, so that another edition
// of the shapes cannot change the map unnoticed.
func pinnedSHA256(name string) string {
	switch name {
	case Countries110m:
		return "2516c915867c7baf18ddec727aec46c315541a07cfb3d79a6559b05d5e94eee8"
	case Countries50m:
		return "04342cdc1e3016bcd7db1630de95684d67b79fe3c8c460321e87aef469502394"
	}
	return ""
}

// Point is a longitude and latitude in degrees.
type Point struct{ Lon, Lat float64 }

// Feature is one country of the file.
type Feature struct {
	// ID is the ISO 3166-1 numeric code, "" where the file has none
	// (Kosovo, and areas that are not countries such as Somaliland).
	ID   string
	Name string
	// Polygons are the country's polygons, each an outer ring then holes.
	Polygons [][][]Point
}

type topology struct {
	Type      string `json:"type"`
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]float64 `json:"arcs"`
	Objects map[string]struct {
		Geometries []struct {
			Type       string          `json:"type"`
			ID         string          `json:"id"`
			Arcs       json.RawMessage `json:"arcs"`
			Properties struct {
				Name string `json:"name"`
			} `json:"properties"`
		} `json:"geometries"`
	} `json:"objects"`
}

// Read loads the countries of one world-atlas file of dir, refusing a file
// whose content is not the pinned one.
func Read(dir, name string) ([]Feature, error) {
	want := pinnedSHA256(name)
	if want == "" {
		return nil, fmt.Errorf("world map: %s is not a world-atlas file the map knows", name)
	}
	path := filepath.Join(dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("world map: %w (the shapes are read from --geo or ENTRYCHECK_GEO)", err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
		return nil, fmt.Errorf("world map: %s has sha256 %x, want %s (world-atlas 2.0.2)", path, sum, want)
	}
	var t topology
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("world map: %s: %w", path, err)
	}
	fs, err := t.features()
	if err != nil {
		return nil, fmt.Errorf("world map: %s: %w", path, err)
	}
	return fs, nil
}

func (t *topology) features() ([]Feature, error) {
	if t.Type != "Topology" || t.Transform == nil {
		return nil, fmt.Errorf("not a quantized TopoJSON topology")
	}
	arcs := t.decodeArcs()
	obj, ok := t.Objects["countries"]
	if !ok {
		return nil, fmt.Errorf("no countries object")
	}
	out := make([]Feature, 0, len(obj.Geometries))
	for _, g := range obj.Geometries {
		var polys [][][]int
		switch g.Type {
		case "Polygon":
			var p [][]int
			if err := json.Unmarshal(g.Arcs, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", g.Properties.Name, err)
			}
			polys = [][][]int{p}
		case "MultiPolygon":
			if err := json.Unmarshal(g.Arcs, &polys); err != nil {
				return nil, fmt.Errorf("%s: %w", g.Properties.Name, err)
			}
		default:
			return nil, fmt.Errorf("%s: geometry type %q", g.Properties.Name, g.Type)
		}
		f := Feature{ID: g.ID, Name: g.Properties.Name}
		for _, p := range polys {
			rings := make([][]Point, 0, len(p))
			for _, r := range p {
				ring, err := stitch(arcs, r)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", g.Properties.Name, err)
				}
				rings = append(rings, ring)
			}
			f.Polygons = append(f.Polygons, rings)
		}
		out = append(out, f)
	}
	return out, nil
}

// decodeArcs undoes the delta encoding and the quantization of the arcs.
func (t *topology) decodeArcs() [][]Point {
	sc, tr := t.Transform.Scale, t.Transform.Translate
	out := make([][]Point, len(t.Arcs))
	for i, arc := range t.Arcs {
		var x, y float64
		pts := make([]Point, len(arc))
		for j, d := range arc {
			x += d[0]
			y += d[1]
			pts[j] = Point{Lon: x*sc[0] + tr[0], Lat: y*sc[1] + tr[1]}
		}
		out[i] = pts
	}
	return out
}

// stitch joins a ring's arcs; index ^i is arc i reversed, and each arc
// after the first repeats the previous one's last point.
func stitch(arcs [][]Point, ring []int) ([]Point, error) {
	var out []Point
	for k, i := range ring {
		rev := i < 0
		if rev {
			i = ^i
		}
		if i >= len(arcs) {
			return nil, fmt.Errorf("arc %d out of range", i)
		}
		a := arcs[i]
		for j := range a {
			p := a[j]
			if rev {
				p = a[len(a)-1-j]
			}
			if k > 0 && j == 0 {
				continue
			}
			out = append(out, p)
		}
	}
	return out, nil
}
