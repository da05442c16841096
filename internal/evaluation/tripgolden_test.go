package evaluation_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

var update = flag.Bool("update", false, "rewrite the golden files of trip evaluations from the current code")

const (
	goldenDir = "testdata/golden"
	// randomTrips is the number of generated trips in the random golden file.
	randomTrips = 300
	// randomSeed fixes the generated trips: changing it changes the golden file.
	randomSeed = 20261122
)

// TestTripGoldenExamples evaluates every valid example request at the test
// clock and compares the JSON of each result, byte for byte, with its
// golden file. Run with -update to write the golden files anew.
func TestTripGoldenExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "trips", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v, %v", files, err)
	}
	ev := datatest.Evaluator(t)
	for _, file := range files {
		name := filepath.Base(file)
		if name == "invalid.json" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			res, err := ev.EvaluateTrip(loadTrip(t, name), "req_golden", today)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(goldenDir, "trips", name), append(got, '\n'))
		})
	}
}

// TestTripGoldenRandom evaluates trips made by a seeded generator over the
// real dataset (see tripGenerator) and compares each result's JSON, byte
// for byte, with its line of the golden file.
func TestTripGoldenRandom(t *testing.T) {
	ev := datatest.Evaluator(t)
	gen := newTripGenerator(ev, randomSeed)
	var out bytes.Buffer
	for i := range randomTrips {
		req := gen.trip(i)
		res, err := ev.EvaluateTrip(req, fmt.Sprintf("req_golden_%03d", i), today)
		if err != nil {
			t.Fatalf("generated trip %d is not valid: %v\n%+v", i, err, req)
		}
		line, err := json.Marshal(goldenLine{Trip: i, Request: req, Result: res})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	// The lines repeat one another's citations and notes: compressed, the
	// file is a tenth of its size.
	path := filepath.Join(goldenDir, "random-trips.jsonl.gz")
	if *update {
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		w.Write(out.Bytes())
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		writeGolden(t, path, gz.Bytes())
		return
	}
	want, err := readGzip(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	wantLines, gotLines := splitLines(want), splitLines(out.Bytes())
	if len(wantLines) != len(gotLines) {
		t.Fatalf("%d generated trips, the golden file has %d", len(gotLines), len(wantLines))
	}
	for i := range gotLines {
		if !bytes.Equal(gotLines[i], wantLines[i]) {
			t.Errorf("generated trip %d differs from the golden file at byte %d:\n got  %s\n want %s",
				i, firstDifference(gotLines[i], wantLines[i]), excerpt(gotLines[i], wantLines[i]), excerpt(wantLines[i], gotLines[i]))
		}
	}
}

// goldenLine is one generated trip and its answer.
type goldenLine struct {
	Trip    int                    `json:"trip"`
	Request entrycheck.TripRequest `json:"request"`
	Result  entrycheck.TripResult  `json:"result"`
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		writeGolden(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs at byte %d:\n got  %s\n want %s", path, firstDifference(got, want), excerpt(got, want), excerpt(want, got))
	}
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(r)
}

func writeGolden(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func splitLines(b []byte) [][]byte {
	var lines [][]byte
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(nil, 16<<20)
	for s.Scan() {
		lines = append(lines, slices.Clone(s.Bytes()))
	}
	return lines
}

func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// excerpt shows a around its first difference from b.
func excerpt(a, b []byte) string {
	at := firstDifference(a, b)
	from, to := max(0, at-120), min(len(a), at+120)
	return string(a[from:to])
}

// tripGenerator makes varied valid trip requests over the real dataset:
// any passports, Schengen-heavy itineraries, yellow-fever chains through
// risk countries, transit connections, passports that expire during the
// trip, held visas and permits, undated and adjacent legs.
type tripGenerator struct {
	rng *rand.Rand
	// Country pools, each sorted so that the trips do not depend on map order.
	all, matrix, schengen, risk, yellowFever, curated, twov []string
}

func newTripGenerator(ev *evaluation.Evaluator, seed uint64) *tripGenerator {
	snap := ev.Snapshot()
	g := &tripGenerator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for _, c := range snap.Countries.All() {
		g.all = append(g.all, c.ISO3)
	}
	for _, c := range snap.Matrix.Countries() {
		g.matrix = append(g.matrix, c.ISO3)
	}
	g.schengen = slices.Clone(snap.Curated.Groups[entrycheck.GroupSchengen].Members)
	g.risk = slices.Clone(snap.Curated.YellowFever.RiskList.Countries)
	for code := range snap.Curated.YellowFever.Countries {
		g.yellowFever = append(g.yellowFever, code)
	}
	for code, d := range snap.Curated.Destinations {
		g.curated = append(g.curated, code)
		if d.Rules.TWOV != nil {
			g.twov = append(g.twov, code)
		}
	}
	for _, pool := range [][]string{g.all, g.matrix, g.schengen, g.risk, g.yellowFever, g.curated, g.twov} {
		slices.Sort(pool)
	}
	return g
}

// Kinds of generated trips, taken in turn.
const (
	tripMixed = iota
	tripSchengen
	tripYellowFever
	tripTransit
	tripExpiring
	tripUndated
	tripKinds
)

func (g *tripGenerator) pick(pool []string) string { return pool[g.rng.IntN(len(pool))] }

func (g *tripGenerator) chance(percent int) bool { return g.rng.IntN(100) < percent }

// trip makes the i-th trip; the trips depend on the seed and on the order
// they are made in.
func (g *tripGenerator) trip(i int) entrycheck.TripRequest {
	kind := i % tripKinds
	start := entrycheck.Date{Year: 2026, Month: 9, Day: 1}
	start = addDate(start, g.rng.IntN(500))
	req := entrycheck.TripRequest{Traveler: g.traveler(kind, start)}
	n := 1 + g.rng.IntN(8)
	if g.chance(5) {
		n = 10 + g.rng.IntN(entrycheck.MaxTripLegs-9)
	}
	day := start
	for j := range n {
		leg, next := g.leg(kind, j, day, req.Traveler)
		req.Trip.Legs = append(req.Trip.Legs, leg)
		day = next
	}
	return req
}

func (g *tripGenerator) traveler(kind int, start entrycheck.Date) entrycheck.Traveler {
	var t entrycheck.Traveler
	n := 1 + g.rng.IntN(3)
	if g.chance(10) {
		n = entrycheck.MaxTripPassports
	}
	used := map[string]bool{}
	for len(t.Passports) < n {
		code := g.pick(g.matrix)
		switch {
		case kind == tripSchengen && g.chance(30):
			code = g.pick(g.schengen)
		case g.chance(8):
			code = g.pick(g.all) // a passport the matrix may not list
		}
		if used[code] {
			continue
		}
		used[code] = true
		p := entrycheck.PassportHeld{Country: code}
		switch {
		case kind == tripExpiring || g.chance(15):
			p.Expires = addDate(start, g.rng.IntN(400)-30).String()
		case g.chance(50):
			p.Expires = addDate(start, 400+g.rng.IntN(3000)).String()
		}
		if g.chance(10) {
			p.Country = strings.ToLower(p.Country)
		}
		t.Passports = append(t.Passports, p)
	}
	held := []string{"USA", "GBR", "CAN", "JPN", "AUS", "ARE", entrycheck.GroupSchengen}
	for range g.rng.IntN(3) {
		if g.chance(50) {
			t.VisasOf = append(t.VisasOf, g.pick(held))
		} else {
			t.ResidencePermitsOf = append(t.ResidencePermitsOf, g.pick(append(held, g.pick(g.matrix))))
		}
	}
	return t
}

// leg makes leg j arriving on or after day, and returns the day the next
// leg may start on.
func (g *tripGenerator) leg(kind, j int, day entrycheck.Date, t entrycheck.Traveler) (entrycheck.Leg, entrycheck.Date) {
	l := entrycheck.Leg{Country: g.destination(kind, j, t)}
	stay := g.rng.IntN(30)
	switch {
	case kind == tripSchengen:
		stay = 5 + g.rng.IntN(60)
	case g.chance(5):
		stay = 80 + g.rng.IntN(200)
	}
	if kind == tripTransit && j%2 == 1 || g.chance(8) {
		l.Transit, stay = true, g.rng.IntN(3)
		if len(g.twov) > 0 && g.chance(70) {
			l.Country = g.pick(g.twov)
		}
	}
	arrival := addDate(day, g.rng.IntN(10))
	if g.chance(35) {
		arrival = day // adjacent: the leg starts the day the previous one ends
	}
	departure := addDate(arrival, stay)
	undated := 8
	if kind == tripUndated {
		undated = 45
	}
	if !g.chance(undated) {
		l.Arrival = arrival.String()
	}
	if !g.chance(undated) {
		l.Departure = departure.String()
	}
	switch r := g.rng.IntN(10); {
	case r < 2:
		l.Purpose = entrycheck.PurposeBusiness
	case r < 3:
		l.Purpose = entrycheck.PurposeTourism
	case r < 4:
		l.Purpose = "Business"
	}
	return l, departure
}

func (g *tripGenerator) destination(kind, j int, t entrycheck.Traveler) string {
	switch {
	case kind == tripSchengen && g.chance(75):
		return g.pick(g.schengen)
	case kind == tripYellowFever && j%2 == 0:
		return g.pick(g.risk)
	case kind == tripYellowFever:
		return g.pick(g.yellowFever)
	case g.chance(5):
		return strings.ToUpper(t.Passports[g.rng.IntN(len(t.Passports))].Country) // a citizen going home
	case g.chance(40):
		return g.pick(g.curated)
	case g.chance(5):
		return strings.ToLower(g.pick(g.all))
	}
	return g.pick(g.all)
}

func addDate(d entrycheck.Date, days int) entrycheck.Date {
	return entrycheck.DateOf(d.Time().AddDate(0, 0, days))
}
