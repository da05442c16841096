package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// siteTagline says what the site is, in the home page's title and the
// social image.
const siteTagline = "Visa and entry requirements by passport, every fact cited"

// The social image's size: what link previews crop least (1.91:1).
const (
	socialWidth  = 1200
	socialHeight = 630
)

// socialImages are the link preview images of a build: the site's, and
// one per requirement value for the route pages, which show their verdict.
type socialImages struct {
	site    templates.Image
	verdict map[entrycheck.Requirement]templates.Image
}

// of is the image a route page with requirement r shares, described in
// the language of c: the verdict's label, then the site's title.
func (si socialImages) of(c *locale.Catalog, r entrycheck.Requirement) templates.Image {
	img, ok := si.verdict[r]
	if !ok {
		img = si.site
	}
	img.Alt = c.Text("words.sentence", "text", r.LabelIn(c)) + " " + c.Text("site.title")
	return img
}

// writeSocialImages draws the link preview images, in the site's colours,
// and publishes each at a content-hashed path
// ("/assets/social.0123456789.png") as an asset that never changes: the
// site's name and tagline, and for each requirement value its label on
// the colour of its tone, as the route pages show the verdict. A shared
// route shows its verdict, and there are as many images as requirement
// values, not one per route.
func (s *site) writeSocialImages() (socialImages, error) {
	si := socialImages{verdict: map[entrycheck.Requirement]templates.Image{}}
	accent, err := siteColour("accent")
	if err != nil {
		return si, err
	}
	b, err := drawSocialImage(accent, templates.SiteName, 120, siteTagline)
	if err != nil {
		return si, fmt.Errorf("drawing the social image: %w", err)
	}
	if si.site, err = s.publishImage("social", b, templates.SiteName+": "+lowerFirst(siteTagline)); err != nil {
		return si, err
	}
	for _, r := range entrycheck.Requirements {
		tone, err := siteColour(r.Tone())
		if err != nil {
			return si, err
		}
		b, err := drawSocialImage(tone, r.Label(), 88, templates.SiteName+": "+lowerFirst(siteTagline))
		if err != nil {
			return si, fmt.Errorf("drawing the social image of %s: %w", r, err)
		}
		if si.verdict[r], err = s.publishImage("verdict-"+requirementSlug(r), b, r.Label()+". "+templates.SiteName+": "+lowerFirst(siteTagline)); err != nil {
			return si, err
		}
	}
	return si, nil
}

// publishImage writes a PNG at /assets/{name}.{hash}.png.
func (s *site) publishImage(name string, b []byte, alt string) (templates.Image, error) {
	sum := sha256.Sum256(b)
	path := "/assets/" + name + "." + hex.EncodeToString(sum[:5]) + ".png"
	img := templates.Image{URL: s.opts.BaseURL + path, Alt: alt, Width: socialWidth, Height: socialHeight}
	return img, s.w.write(trimSlash(path), b)
}

// siteColour reads the colour the stylesheet gives a custom property in
// its light scheme ("--accent: #0b5cad"), so that the images use the
// site's colours without a second copy of them.
func siteColour(name string) (color.RGBA, error) {
	_, css, err := templates.AssetPath("site.css")
	if err != nil {
		return color.RGBA{}, err
	}
	m := regexp.MustCompile(`--` + regexp.QuoteMeta(name) + `:\s*#([0-9a-fA-F]{6})\b`).FindSubmatch(css)
	if m == nil {
		return color.RGBA{}, fmt.Errorf("site.css gives no colour --%s", name)
	}
	v, err := strconv.ParseUint(string(m[1]), 16, 32)
	if err != nil {
		return color.RGBA{}, err
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}, nil
}

// drawSocialImage draws heading (wrapped, of size px) and below it text on
// the background colour, with a pale band along the bottom.
func drawSocialImage(bg color.RGBA, heading string, size float64, text string) ([]byte, error) {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	pale := color.RGBA{0xe6, 0xec, 0xf2, 0xff}
	img := image.NewRGBA(image.Rect(0, 0, socialWidth, socialHeight))
	draw.Draw(img, img.Bounds(), &image.Uniform{bg}, image.Point{}, draw.Src)
	// A band along the bottom, as the verdict boxes have along their side.
	draw.Draw(img, image.Rect(0, socialHeight-24, socialWidth, socialHeight), &image.Uniform{pale}, image.Point{}, draw.Src)

	const margin = 80
	name, err := face(gobold.TTF, size)
	if err != nil {
		return nil, err
	}
	defer name.Close()
	tagline, err := face(goregular.TTF, 52)
	if err != nil {
		return nil, err
	}
	defer tagline.Close()
	headLines, textLines := wrap(name, heading, socialWidth-2*margin), wrap(tagline, text, socialWidth-2*margin)
	step := int(size * 1.15)
	// Heading and text centred vertically above the band.
	height := len(headLines)*step + 40 + len(textLines)*68
	y := (socialHeight-24-height)/2 + int(size*0.8)
	d := &font.Drawer{Dst: img, Src: &image.Uniform{white}, Face: name}
	for _, line := range headLines {
		d.Dot = fixed.P(margin, y)
		d.DrawString(line)
		y += step
	}
	d.Src, d.Face = &image.Uniform{pale}, tagline
	y += 40 + 52 - step
	for _, line := range textLines {
		d.Dot = fixed.P(margin, y)
		d.DrawString(line)
		y += 68
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func face(ttf []byte, size float64) (font.Face, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

// wrap breaks text into lines no wider than width pixels, between words.
func wrap(f font.Face, text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		next := strings.TrimSpace(line + " " + word)
		if line != "" && font.MeasureString(f, next).Ceil() > width {
			lines = append(lines, line)
			next = word
		}
		line = next
	}
	return append(lines, line)
}
