package generator_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestWorldMapRendersInChromium opens a passport page and a destination
// page: a country drawn through <use> from the shared asset has a size on
// the page and is filled with its requirement's pattern, whose colour is
// the requirement's. With
// ENTRYCHECK_SCREENSHOTS naming a directory, it leaves pictures of the
// maps there for a person to look at.
func TestWorldMapRendersInChromium(t *testing.T) {
	srv := httptest.NewServer(serveTree(t, built(t)))
	defer srv.Close()
	ctx := browser(t)
	ev := datatest.Evaluator(t)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	// drawn gives the size of the place linking to href and its fill
	// beside the colour its class's variable names.
	drawn := func(href, class string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			const a = document.querySelector('figure.worldmap svg a[href="`+href+`"]');
			if (!a) return "missing";
			const r = a.getBoundingClientRect();
			const probe = document.createElement("span");
			probe.style.color = "var(--req-`+strings.TrimPrefix(class, "m-")+`)";
			document.body.append(probe);
			const want = getComputedStyle(probe).color;
			probe.remove();
			const pattern = document.querySelector((a.getAttribute("fill") || "").replace(/^url\((#[a-z-]+)\)$/, "$1") + " rect");
			const fill = pattern ? getComputedStyle(pattern).fill : "no pattern for " + a.getAttribute("fill");
			return (r.width > 0 && r.height > 0 ? "sized" : "unsized " + r.width + "x" + r.height) + " " + a.getAttribute("class") + " " + (fill === want ? "filled" : fill + " != " + want);
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	shot := func(name string, width int64) {
		t.Helper()
		dir := os.Getenv("ENTRYCHECK_SCREENSHOTS")
		if dir == "" {
			return
		}
		run(chromedp.EmulateViewport(width, 900))
		b, err := chromedp.Run(ctx, chromedp.Screenshot("figure.worldmap"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clock := entrycheck.FixedClock(buildDay.Now())
	for _, route := range [][2]string{{"DEU", "THA"}, {"DEU", "RUS"}, {"DEU", "AFG"}, {"USA", "BRA"}} {
		res, err := ev.Check(entrycheck.CheckRequest{Passport: route[0], Destination: route[1]}, clock)
		if err != nil {
			t.Fatal(err)
		}
		p, d := strings.ToLower(route[0]), strings.ToLower(route[1])
		class := mapClass(res.Requirement)
		run(chromedp.Navigate(srv.URL + "/passports/" + p + "/"))
		run(chromedp.WaitVisible("figure.worldmap svg"))
		if got, want := drawn("/passports/"+p+"/"+d+"/", class), "sized "+class+" filled"; got != want {
			t.Errorf("%s page, %s: %s, want %s", p, d, got, want)
		}
		if got, want := drawn("/passports/"+p+"/", "m-own"), "sized m-own filled"; got != want {
			t.Errorf("%s page, its own country: %s, want %s", p, got, want)
		}
		run(chromedp.Navigate(srv.URL + "/destinations/" + d + "/"))
		run(chromedp.WaitVisible("figure.worldmap svg"))
		if got, want := drawn("/passports/"+p+"/"+d+"/", class), "sized "+class+" filled"; got != want {
			t.Errorf("%s destination page, %s: %s, want %s", d, p, got, want)
		}
	}
	run(chromedp.Navigate(srv.URL + "/passports/deu/"))
	run(chromedp.WaitVisible("figure.worldmap svg"))
	shot("map-passport-desktop.png", 1280)
	shot("map-passport-mobile.png", 390)
	run(chromedp.EmulateViewport(1280, 900))
	run(chromedp.Navigate(srv.URL + "/destinations/tha/"))
	run(chromedp.WaitVisible("figure.worldmap svg"))
	shot("map-destination.png", 1280)
}
