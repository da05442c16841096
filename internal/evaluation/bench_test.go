package evaluation_test

import (
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// BenchmarkCheck measures one check evaluation; the figures that count are
// those of whole requests (BenchmarkPaidCheckLatency in the api package).
func BenchmarkCheck(b *testing.B) {
	ev := datatest.Evaluator(b)
	req := entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.Check(req, today); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckInSpanish is BenchmarkCheck asked in Spanish, as the
// Spanish pages and a lang=es request ask it.
func BenchmarkCheckInSpanish(b *testing.B) {
	ev := datatest.Evaluator(b)
	req := entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Language: "es"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.Check(req, today); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckAllRoutes cycles through every route, so caches and branches see real variety.
func BenchmarkCheckAllRoutes(b *testing.B) {
	ev := datatest.Evaluator(b)
	var reqs []entrycheck.CheckRequest
	cs := ev.Snapshot().Matrix.Countries()
	for _, p := range cs {
		for _, d := range cs {
			if p != d {
				reqs = append(reqs, entrycheck.CheckRequest{Passport: p.ISO3, Destination: d.ISO3})
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ev.Check(reqs[i%len(reqs)], today); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCheckTransitAndPermits measures a check with every option set.
func BenchmarkCheckTransitAndPermits(b *testing.B) {
	ev := datatest.Evaluator(b)
	req := entrycheck.CheckRequest{Passport: "IND", Destination: "MEX", Transit: "SGP", Purpose: "business", VisasOf: []string{"USA"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.Check(req, today); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad measures loading and validating the whole dataset, matrix
// and curated layer, and precomputing the evaluator (goal: at most 300 ms).
func BenchmarkLoad(b *testing.B) {
	dir := datatest.MatrixDir(b, datatest.Current)
	b.ReportAllocs()
	for b.Loop() {
		snap, err := dataset.Load(dir, datatest.Lock(b), dataset.CuratedFS())
		if err != nil {
			b.Fatal(err)
		}
		evaluation.New(snap)
	}
}
