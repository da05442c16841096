package evaluation_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// BenchmarkEvaluateTrip measures a 10-leg trip for a traveller with three
// passports and a held visa: 30 checks, the ranking, the Schengen account and
// every condition. It is a small part of a paid request: the figure that
// counts is BenchmarkPaidTripLatency in the api package.
func BenchmarkEvaluateTrip(b *testing.B) {
	ev := datatest.Evaluator(b)
	req := loadTrip(b, "ten-legs-three-passports.json")
	if len(req.Trip.Legs) != 10 || len(req.Traveler.Passports) != 3 {
		b.Fatalf("the benchmark trip has %d legs and %d passports", len(req.Trip.Legs), len(req.Traveler.Passports))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.EvaluateTrip(req, "req_bench", today); err != nil {
			b.Fatal(err)
		}
	}
}
