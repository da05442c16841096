package templates_test

import (
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// schemes reads the custom properties of the stylesheet's light :root and
// of its dark-scheme :root, the dark one falling back to the light values
// it does not set, as a browser would.
func schemes(t *testing.T) map[string]map[string]string {
	t.Helper()
	b, err := fs.ReadFile(templates.Static(), "site.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(b)
	light, dark := map[string]string{}, map[string]string{}
	decl := regexp.MustCompile(`(--[a-z-]+):\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b`)
	// Blocks of :root, noting whether each sits inside the dark-scheme query.
	rootRule := regexp.MustCompile(`:root\s*\{([^}]*)\}`)
	darkQuery := "@media (prefers-color-scheme: dark)"
	for _, m := range rootRule.FindAllStringSubmatchIndex(css, -1) {
		into := light
		if q := strings.LastIndex(css[:m[0]], "@media"); q >= 0 && strings.HasPrefix(css[q:], darkQuery) && !strings.Contains(css[q:m[0]], "}") {
			into = dark
		}
		for _, d := range decl.FindAllStringSubmatch(css[m[2]:m[3]], -1) {
			h := strings.ToLower(d[2])
			if len(h) == 4 { // #abc is #aabbcc
				h = string([]byte{'#', h[1], h[1], h[2], h[2], h[3], h[3]})
			}
			into[d[1]] = h
		}
	}
	for k, v := range light {
		if _, ok := dark[k]; !ok {
			dark[k] = v
		}
	}
	return map[string]map[string]string{"light": light, "dark": dark}
}

// Colour maths, kept small: sRGB to linear light (IEC 61966-2-1), the
// dichromacy simulations of Machado, Oliveira and Fernandes, "A
// Physiologically-based Model for Simulation of Color Vision Deficiency",
// IEEE TVCG 15(6), 2009, at severity 1.0 (their table, applied to linear
// RGB as in their paper and in colorspacious), then CIELAB under D65 and
// the CIE76 colour difference (Euclidean distance in CIELAB).

type rgb [3]float64

func parseHex(t *testing.T, h string) rgb {
	t.Helper()
	var c rgb
	for i := range c {
		v, err := strconv.ParseUint(h[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %q: %v", h, err)
		}
		s := float64(v) / 255
		if s <= 0.04045 {
			c[i] = s / 12.92
		} else {
			c[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return c
}

var (
	protanopia = [3][3]float64{
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998},
	}
	deuteranopia = [3][3]float64{
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881},
	}
)

func simulate(m [3][3]float64, c rgb) rgb {
	var out rgb
	for i := range out {
		v := m[i][0]*c[0] + m[i][1]*c[1] + m[i][2]*c[2]
		out[i] = math.Min(1, math.Max(0, v))
	}
	return out
}

func lab(c rgb) [3]float64 {
	x := (0.4124564*c[0] + 0.3575761*c[1] + 0.1804375*c[2]) / 0.95047
	y := 0.2126729*c[0] + 0.7151522*c[1] + 0.0721750*c[2]
	z := (0.0193339*c[0] + 0.1191920*c[1] + 0.9503041*c[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return t*24389/27/116 + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

func cie76(a, b rgb) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt(math.Pow(la[0]-lb[0], 2) + math.Pow(la[1]-lb[1], 2) + math.Pow(la[2]-lb[2], 2))
}

// TestMapColoursDifferUnderColourBlindness computes, in each scheme, the
// colour difference of every two colours of the map's fills (each
// requirement and the page's own country) in normal vision and as a
// deuteranope and a protanope see them: at least 20, so that the colour
// still tells them apart when a reader does not look at the pattern.
func TestMapColoursDifferUnderColourBlindness(t *testing.T) {
	names := []string{"own"}
	for _, r := range entrycheck.Requirements {
		names = append(names, strings.ReplaceAll(string(r), "_", "-"))
	}
	visions := []struct {
		name string
		see  func(rgb) rgb
	}{
		{"normal vision", func(c rgb) rgb { return c }},
		{"deuteranopia", func(c rgb) rgb { return simulate(deuteranopia, c) }},
		{"protanopia", func(c rgb) rgb { return simulate(protanopia, c) }},
	}
	const least = 20
	for scheme, vars := range schemes(t) {
		for _, v := range visions {
			worst, pair := math.Inf(1), ""
			for i, a := range names {
				for _, b := range names[i+1:] {
					ha, hb := vars["--req-"+a], vars["--req-"+b]
					if ha == "" || hb == "" {
						t.Fatalf("%s scheme: no colour for %s or %s", scheme, a, b)
					}
					d := cie76(v.see(parseHex(t, ha)), v.see(parseHex(t, hb)))
					if d < least {
						t.Errorf("%s scheme, %s: %s (%s) and %s (%s) differ by ΔE76 %.1f, want at least %d", scheme, v.name, a, ha, b, hb, d, least)
					}
					if d < worst {
						worst, pair = d, a+"/"+b
					}
				}
			}
			t.Logf("%s scheme, %s: smallest ΔE76 %.1f (%s)", scheme, v.name, worst, pair)
		}
	}
}

// contrast is the WCAG 2 contrast ratio of two colours.
func contrast(a, b rgb) float64 {
	lum := func(c rgb) float64 { return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2] }
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// TestFocusColourContrasts computes the contrast of the focus indicator's
// colour with the page background in each scheme: at least 3:1 (WCAG
// 2.4.13, 1.4.11), so that a keyboard user sees where focus is.
func TestFocusColourContrasts(t *testing.T) {
	for scheme, vars := range schemes(t) {
		c := contrast(parseHex(t, vars["--focus"]), parseHex(t, vars["--bg"]))
		if c < 3 {
			t.Errorf("%s scheme: focus %s on background %s has contrast %.2f:1, want at least 3:1", scheme, vars["--focus"], vars["--bg"], c)
		}
		t.Logf("%s scheme: focus %s on %s, %.2f:1", scheme, vars["--focus"], vars["--bg"], c)
	}
}
