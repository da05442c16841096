package generator

import (
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// RouteHTML renders the page of one answer outside a build: the page a
// route would have if the site had one, such as an unknown verdict for a
// country the matrix does not know.
func RouteHTML(ev *evaluation.Evaluator, res entrycheck.CheckResult, now time.Time) ([]byte, error) {
	css, _, err := templates.AssetPath("site.css")
	if err != nil {
		return nil, err
	}
	s := &site{ev: ev, now: now, assets: assets{css: css}, opts: Options{BaseURL: "http://localhost", History: History{Baseline: ev.Snapshot().Version()}}}
	return newRenderer().html(templates.RoutePage(s.routeView(entrycheck.English(), res, res.VerdictVerification.AsOf)))
}
