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
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

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

// writeSocialImage draws the link preview image, the site's name and
// tagline in the site's colours, and publishes it at a content-hashed path
// ("/assets/social.0123456789.png") as an asset that never changes.
func (s *site) writeSocialImage() (templates.Image, error) {
	b, err := drawSocialImage()
	if err != nil {
		return templates.Image{}, fmt.Errorf("drawing the social image: %w", err)
	}
	sum := sha256.Sum256(b)
	path := "/assets/social." + hex.EncodeToString(sum[:5]) + ".png"
	img := templates.Image{URL: s.opts.BaseURL + path, Alt: templates.SiteName + ": " + lowerFirst(siteTagline), Width: socialWidth, Height: socialHeight}
	return img, s.w.write(trimSlash(path), b)
}

func drawSocialImage() ([]byte, error) {
	accent := color.RGBA{0x0b, 0x5c, 0xad, 0xff} // --accent of site.css
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	pale := color.RGBA{0xd6, 0xe6, 0xf5, 0xff}
	img := image.NewRGBA(image.Rect(0, 0, socialWidth, socialHeight))
	draw.Draw(img, img.Bounds(), &image.Uniform{accent}, image.Point{}, draw.Src)
	// A band along the bottom, as the verdict boxes have along their side.
	draw.Draw(img, image.Rect(0, socialHeight-24, socialWidth, socialHeight), &image.Uniform{pale}, image.Point{}, draw.Src)

	const margin = 80
	name, err := face(gobold.TTF, 120)
	if err != nil {
		return nil, err
	}
	defer name.Close()
	tagline, err := face(goregular.TTF, 52)
	if err != nil {
		return nil, err
	}
	defer tagline.Close()
	d := &font.Drawer{Dst: img, Src: &image.Uniform{white}, Face: name, Dot: fixed.P(margin, 250)}
	d.DrawString(templates.SiteName)
	d.Src, d.Face = &image.Uniform{pale}, tagline
	y := 350
	for _, line := range wrap(tagline, siteTagline, socialWidth-2*margin) {
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
