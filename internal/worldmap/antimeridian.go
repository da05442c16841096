package worldmap

import "math"

// splitAntimeridian cuts a ring that crosses the antimeridian (Russia's
// Chukotka, Fiji: their rings jump from 180° to -180°) into the parts on
// either side, so that no ring is drawn across the whole map.
func splitAntimeridian(ring []Point) [][]Point {
	crosses := false
	for i := 1; i < len(ring); i++ {
		if math.Abs(ring[i].Lon-ring[i-1].Lon) > 180 {
			crosses = true
			break
		}
	}
	if !crosses {
		return [][]Point{ring}
	}
	// Unwrap the longitudes so that the ring is continuous, then clip it
	// at the meridian it now spans and bring the far part back by 360°.
	u := make([]Point, len(ring))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, p := range ring {
		if i > 0 {
			for p.Lon-u[i-1].Lon > 180 {
				p.Lon -= 360
			}
			for u[i-1].Lon-p.Lon > 180 {
				p.Lon += 360
			}
		}
		u[i] = p
		lo, hi = math.Min(lo, p.Lon), math.Max(hi, p.Lon)
	}
	edge, shift := 180.0, -360.0
	if hi <= 180 {
		edge, shift = -180, 360
	}
	near := clipLon(u, edge, edge == 180)
	far := clipLon(u, edge, edge != 180)
	for i := range far {
		far[i].Lon += shift
	}
	var out [][]Point
	for _, r := range [][]Point{near, far} {
		if len(r) >= 3 {
			out = append(out, r)
		}
	}
	return out
}

// clipLon keeps the part of a ring west of the meridian at lon (east when
// west is false), adding the points where its edges meet the meridian.
func clipLon(ring []Point, lon float64, west bool) []Point {
	inside := func(p Point) bool {
		if west {
			return p.Lon <= lon
		}
		return p.Lon >= lon
	}
	cut := func(a, b Point) Point {
		t := (lon - a.Lon) / (b.Lon - a.Lon)
		return Point{Lon: lon, Lat: a.Lat + t*(b.Lat-a.Lat)}
	}
	var out []Point
	for i := range ring {
		prev, cur := ring[(i+len(ring)-1)%len(ring)], ring[i]
		switch {
		case inside(cur):
			if !inside(prev) {
				out = append(out, cut(prev, cur))
			}
			out = append(out, cur)
		case inside(prev):
			out = append(out, cut(prev, cur))
		}
	}
	return out
}
