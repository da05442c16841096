package generator

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// PassportDocument is where a passport's matrix is published as static
// data, beside its page (/passports/deu/index.html): /passports/deu/index.json.
// The widget answers preset routes from it, so that showing an answer the
// site already publishes spends no free check.
func PassportDocument(iso3 string) string {
	return "/passports/" + strings.ToLower(iso3) + "/index.json"
}

// passportDocument is the API's answer to GET /v1/passport/{iso3}, encoded
// the same way, without what would make it change from build to build: the
// request id and evaluation time are left out (empty), and verdict_age
// gives the date the verdicts are as of and the first day they count as
// old (entrycheck.VerdictDate), not their age on the build day. The file is
// then rewritten only when an answer changes.
type passportDocument struct {
	entrycheck.PassportMatrix
	// VerdictAge hides the matrix's own verdict_age (encoding/json takes the
	// shallower of two fields of one name).
	VerdictAge entrycheck.VerdictDate `json:"verdict_age"`
}

// renderPassportDocuments writes the static matrix of every passport, one
// passport per job, on all workers.
func (s *site) renderPassportDocuments() error {
	countries := s.ev.Snapshot().Matrix.Countries()
	jobs := make(chan entrycheck.Country)
	errs := make(chan error, len(countries))
	var wg sync.WaitGroup
	for range s.opts.Workers {
		wg.Go(func() {
			for pc := range jobs {
				if err := s.writePassportDocument(pc); err != nil {
					errs <- err
				}
			}
		})
	}
	for _, pc := range countries {
		jobs <- pc
	}
	close(jobs)
	wg.Wait()
	close(errs)
	return <-errs // nil when the channel is empty
}

func (s *site) writePassportDocument(pc entrycheck.Country) error {
	b, err := passportDocumentOf(s.ev, pc.ISO3, s.now)
	if err != nil {
		return err
	}
	return s.w.write(trimSlash(PassportDocument(pc.ISO3)), b)
}

// passportDocumentOf encodes the static matrix of a passport as evaluated at now.
func passportDocumentOf(ev *evaluation.Evaluator, iso3 string, now time.Time) ([]byte, error) {
	pm, err := ev.PassportMatrix(iso3, "build", entrycheck.FixedClock(now))
	if err != nil {
		return nil, fmt.Errorf("the static matrix of %s: %w", iso3, err)
	}
	pm.RequestID, pm.EvaluatedAt = "", time.Time{}
	b, err := json.Marshal(passportDocument{PassportMatrix: pm, VerdictAge: pm.VerdictAge.VerdictDate})
	if err != nil {
		return nil, fmt.Errorf("the static matrix of %s: %w", iso3, err)
	}
	return append(b, '\n'), nil
}
