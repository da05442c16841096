package dataset

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// FileError reports a problem in one matrix file, at a line when it has one.
type FileError struct {
	File    string
	Line    int
	Problem string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s line %d: %s", e.File, e.Line, e.Problem)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Problem)
}

// Verdict is the matrix answer for one route.
type Verdict struct {
	Requirement entrycheck.Requirement
	Days        entrycheck.Days
	// Raw is the value as written in the matrix ("60", "e-visa", "-1").
	Raw string
	// Own is true for the diagonal: the passport's own country.
	Own bool
}

// Matrix is the secondary visa matrix of one snapshot: a verdict for every
// ordered pair of its countries. It is immutable once loaded.
type Matrix struct {
	provenance Provenance           // zero for a matrix read without its pin
	countries  []entrycheck.Country // in the order of the files
	index      [26 * 26 * 26]int16  // alpha-3 index -> position + 1
	// cells holds len(countries)^2 verdicts, passport-major, without
	// pointers, so that the garbage collector never scans the matrix.
	cells  []cell
	values []string        // the distinct raw values, indexed by cell.raw
	names  []country.Alias // the dataset's own country names
	order  []int           // route of each alpha-3 file row, for the aligned files; dropped after loading
}

// Version is the snapshot date, served as dataset_version; empty for a
// matrix read without its pin.
func (m *Matrix) Version() string { return m.provenance.Version }

// Provenance is where the snapshot comes from, as its pin says.
func (m *Matrix) Provenance() Provenance { return m.provenance }

// Countries returns the matrix countries in the order of the files.
func (m *Matrix) Countries() []entrycheck.Country { return m.countries }

// Position returns the matrix position of an alpha-3 code (any case).
func (m *Matrix) Position(iso3 string) (int, bool) {
	i, ok := country.Index3(iso3)
	if !ok || m.index[i] == 0 {
		return 0, false
	}
	return int(m.index[i]) - 1, true
}

// cell is a verdict in four bytes: requirement (index into
// entrycheck.Requirements, or ownCountry), raw value index, days (0: none).
type cell struct {
	req  uint8
	raw  uint8
	days int16
}

const ownCountry = 255

// Verdict returns the verdict of the route from passport position p to
// destination position d.
func (m *Matrix) Verdict(p, d int) Verdict {
	c := m.cells[p*len(m.countries)+d]
	v := Verdict{Raw: m.values[c.raw], Own: c.req == ownCountry}
	if !v.Own {
		v.Requirement = entrycheck.Requirements[c.req]
	}
	if c.days > 0 {
		v.Days = entrycheck.SomeDays(int(c.days))
	}
	return v
}

// RawValue returns the route's value as written in the matrix. The pointer
// is shared and immutable: answers cite it without copying.
func (m *Matrix) RawValue(p, d int) *string { return &m.values[m.cells[p*len(m.countries)+d].raw] }

// compact turns a parsed verdict into a cell, interning its raw value.
func (m *Matrix) compact(v Verdict, interned map[string]uint8) cell {
	raw, ok := interned[v.Raw]
	if !ok {
		raw = uint8(len(m.values))
		m.values = append(m.values, v.Raw)
		interned[v.Raw] = raw
	}
	c := cell{req: ownCountry, raw: raw, days: int16(v.Days.N)}
	if !v.Own {
		c.req = uint8(v.Requirement.Rank())
	}
	return c
}

// Routes is the number of passport to destination routes, the diagonal excluded.
func (m *Matrix) Routes() int { n := len(m.countries); return n * (n - 1) }

// LoadMatrix reads and strictly validates the three tidy files of a snapshot
// directory, then checks them against the sha256 hashes pinned in lock.
// Errors name the file, the line and the problem.
func LoadMatrix(dir string, lock *Lock, reg *country.Registry) (*Matrix, error) {
	m, sums, err := readMatrix(dir, reg)
	if err != nil {
		return nil, err
	}
	p, err := lock.match(sums)
	if err != nil {
		return nil, err
	}
	m.provenance = p.Provenance
	return m, nil
}

// ReadMatrix reads and strictly validates a snapshot directory, as
// LoadMatrix does, without requiring it to be pinned: for reviewing a
// snapshot before pinning it. The matrix has no version.
func ReadMatrix(dir string, reg *country.Registry) (*Matrix, error) {
	m, _, err := readMatrix(dir, reg)
	return m, err
}

// SnapshotPin validates a snapshot directory strictly and returns its pin
// under the provenance p, ready to be added to a lock file.
func SnapshotPin(dir string, p Provenance, reg *country.Registry) (Pin, error) {
	_, sums, err := readMatrix(dir, reg)
	if err != nil {
		return Pin{}, err
	}
	pin := Pin{Provenance: p, SHA256: map[string]string{}}
	for i, name := range matrixFiles {
		pin.SHA256[name] = sums[i]
	}
	return pin, nil
}

// readMatrix validates every row of the three files and returns the matrix
// with the files' sha256 sums, in the order of matrixFiles.
func readMatrix(dir string, reg *country.Registry) (*Matrix, [len(matrixFiles)]string, error) {
	var data [len(matrixFiles)][]byte
	var sums [len(matrixFiles)]string
	for i, name := range matrixFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, sums, fmt.Errorf("reading matrix snapshot %s: %w", dir, err)
		}
		h := sha256.Sum256(b)
		data[i], sums[i] = b, hex.EncodeToString(h[:])
	}
	m := &Matrix{}
	if err := m.parseISO3(data[0], reg); err != nil {
		return nil, sums, err
	}
	if err := m.checkISO2(data[1]); err != nil {
		return nil, sums, err
	}
	if err := m.checkNames(data[2]); err != nil {
		return nil, sums, err
	}
	m.order = nil
	return m, sums, nil
}

const header = "Passport,Destination,Requirement"

// rows calls fn for every data row of a tidy CSV file after checking its header.
func rows(file string, data []byte, fn func(line int, rec []string) error) error {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 3
	r.ReuseRecord = true
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			if line == 1 {
				return &FileError{File: file, Problem: "empty file"}
			}
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return &FileError{File: file, Line: pe.Line, Problem: pe.Err.Error()}
			}
			return &FileError{File: file, Line: line, Problem: err.Error()}
		}
		if line == 1 {
			if strings.Join(rec, ",") != header {
				return &FileError{File: file, Line: 1, Problem: fmt.Sprintf("header is %q, want %q", strings.Join(rec, ","), header)}
			}
			continue
		}
		if err := fn(line, rec); err != nil {
			return err
		}
	}
}

func (m *Matrix) parseISO3(data []byte, reg *country.Registry) error {
	type row struct {
		p, d int
		v    Verdict
	}
	var parsed []row
	seen := map[[2]int]int{}
	pos := func(code string, line int, role string) (int, error) {
		if code != strings.ToUpper(code) {
			return 0, &FileError{File: fileISO3, Line: line, Problem: fmt.Sprintf("%s code %q is not upper case", role, code)}
		}
		if i, ok := m.Position(code); ok {
			return i, nil
		}
		c, ok := reg.ByISO3(code)
		if !ok {
			return 0, &FileError{File: fileISO3, Line: line, Problem: fmt.Sprintf("%s %q is not an ISO 3166-1 alpha-3 code", role, code)}
		}
		m.countries = append(m.countries, c)
		i, _ := country.Index3(code)
		m.index[i] = int16(len(m.countries))
		return len(m.countries) - 1, nil
	}
	err := rows(fileISO3, data, func(line int, rec []string) error {
		p, err := pos(rec[0], line, "passport")
		if err != nil {
			return err
		}
		d, err := pos(rec[1], line, "destination")
		if err != nil {
			return err
		}
		v, err := parseValue(rec[2])
		if err != nil {
			return &FileError{File: fileISO3, Line: line, Problem: err.Error()}
		}
		if v.Own != (p == d) {
			return &FileError{File: fileISO3, Line: line, Problem: fmt.Sprintf("value %q for %s to %s: -1 is for a country's own passport only", rec[2], rec[0], rec[1])}
		}
		if first, dup := seen[[2]int{p, d}]; dup {
			return &FileError{File: fileISO3, Line: line, Problem: fmt.Sprintf("route %s to %s already given on line %d", rec[0], rec[1], first)}
		}
		seen[[2]int{p, d}] = line
		parsed = append(parsed, row{p, d, v})
		return nil
	})
	if err != nil {
		return err
	}
	n := len(m.countries)
	m.cells = make([]cell, n*n)
	filled := make([]bool, n*n)
	m.order = make([]int, len(parsed))
	interned := map[string]uint8{}
	for k, c := range parsed {
		if len(interned) == 250 {
			return &FileError{File: fileISO3, Problem: "more than 250 distinct values"}
		}
		m.order[k] = c.p*n + c.d
		m.cells[c.p*n+c.d] = m.compact(c.v, interned)
		filled[c.p*n+c.d] = true
	}
	for p := 0; p < n; p++ {
		for d := 0; d < n; d++ {
			if !filled[p*n+d] {
				return &FileError{File: fileISO3, Problem: fmt.Sprintf("route %s to %s is missing: every passport needs a row for every country", m.countries[p].ISO3, m.countries[d].ISO3)}
			}
		}
	}
	return nil
}

// matrixValues maps the matrix's words to requirements; numbers are days of visa-free stay.
var matrixValues = map[string]entrycheck.Requirement{
	"visa free":       entrycheck.VisaFree,
	"visa on arrival": entrycheck.VisaOnArrival,
	"e-visa":          entrycheck.EVisa,
	"eta":             entrycheck.ETA,
	"visa required":   entrycheck.VisaRequired,
	"no admission":    entrycheck.NoAdmission,
}

func parseValue(s string) (Verdict, error) {
	if r, ok := matrixValues[s]; ok {
		return Verdict{Requirement: r, Raw: s}, nil
	}
	if s == "-1" {
		return Verdict{Raw: s, Own: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 3660 || strconv.Itoa(n) != s {
		return Verdict{}, fmt.Errorf("unknown requirement value %q (want a number of days, -1, visa free, visa on arrival, e-visa, eta, visa required or no admission)", s)
	}
	return Verdict{Requirement: entrycheck.VisaFree, Days: entrycheck.SomeDays(n), Raw: s}, nil
}

// checkISO2 requires the alpha-2 file to state, row for row, the same routes
// and values as the alpha-3 file.
func (m *Matrix) checkISO2(data []byte) error {
	return m.checkAligned(fileISO2, data, func(c entrycheck.Country) string { return c.ISO2 })
}

// checkNames requires the names file to state the same routes and values,
// with one name per country and one country per name.
func (m *Matrix) checkNames(data []byte) error {
	nameOf := make([]string, len(m.countries))
	owner := map[string]int{}
	err := m.alignedRows(fileNames, data, func(line int, rec []string, p, d int) error {
		for k, i := range [2]int{p, d} {
			name := rec[k]
			if name == "" {
				return &FileError{File: fileNames, Line: line, Problem: "empty country name"}
			}
			if nameOf[i] == "" {
				if o, taken := owner[name]; taken && o != i {
					return &FileError{File: fileNames, Line: line, Problem: fmt.Sprintf("name %q is used for both %s and %s", name, m.countries[o].ISO3, m.countries[i].ISO3)}
				}
				nameOf[i], owner[name] = name, i
			} else if nameOf[i] != name {
				return &FileError{File: fileNames, Line: line, Problem: fmt.Sprintf("%s is called %q here but %q earlier", m.countries[i].ISO3, name, nameOf[i])}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, name := range nameOf {
		m.names = append(m.names, country.Alias{Name: name, ISO3: m.countries[i].ISO3})
	}
	return nil
}

func (m *Matrix) checkAligned(file string, data []byte, code func(entrycheck.Country) string) error {
	return m.alignedRows(file, data, func(line int, rec []string, p, d int) error {
		for k, i := range [2]int{p, d} {
			if want := code(m.countries[i]); rec[k] != want {
				return &FileError{File: file, Line: line, Problem: fmt.Sprintf("%q does not match %s (%s) on line %d of %s", rec[k], m.countries[i].ISO3, want, line, fileISO3)}
			}
		}
		return nil
	})
}

// alignedRows walks a file that must list the routes of the alpha-3 file in
// the same order with the same values, handing each row's positions to fn.
func (m *Matrix) alignedRows(file string, data []byte, fn func(line int, rec []string, p, d int) error) error {
	n := len(m.countries)
	route := 0
	err := rows(file, data, func(line int, rec []string) error {
		if route >= n*n {
			return &FileError{File: file, Line: line, Problem: fmt.Sprintf("extra row: %s lists %d routes", fileISO3, n*n)}
		}
		p, d := m.order[route]/n, m.order[route]%n
		route++
		if want := *m.RawValue(p, d); rec[2] != want {
			return &FileError{File: file, Line: line, Problem: fmt.Sprintf("value %q differs from %q on line %d of %s", rec[2], want, line, fileISO3)}
		}
		return fn(line, rec, p, d)
	})
	if err != nil {
		return err
	}
	if route != n*n {
		return &FileError{File: file, Problem: fmt.Sprintf("%d routes, %s lists %d", route, fileISO3, n*n)}
	}
	return nil
}
