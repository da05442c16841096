// Package country holds the registry of ISO 3166-1 countries and territories
// with their English names and the aliases people type by mistake, so that an
// invalid code gets useful suggestions. It depends only on the domain package.
package country

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck"
)

//go:embed iso3166.tsv
var iso3166TSV []byte

//go:embed aliases.tsv
var aliasesTSV []byte

// Registry is the immutable set of known countries. Lookups by code do not allocate.
type Registry struct {
	entries []entrycheck.Country
	byISO3  [26 * 26 * 26]int16 // entry index + 1; 0 means unknown
	byISO2  [26 * 26]int16
	// byName maps normalised names and aliases to entry indexes.
	byName map[string]int
	// codeAliases maps non-ISO codes people type (GER, UK) to entry indexes.
	codeAliases map[string]int
	// aliases lists each entry's aliases of aliases.tsv, in file order.
	aliases map[int][]string
	// byNumeric maps ISO 3166-1 numeric codes ("276") to entry indexes;
	// Kosovo has none.
	byNumeric map[string]int
	numerics  []string // by entry index; "" for none
}

// Alias is an extra name for a country, such as the name a dataset uses.
type Alias struct {
	Name string
	ISO3 string
}

// New builds the registry from the embedded ISO 3166-1 table and alias list,
// plus any extra aliases.
func New(extra ...Alias) (*Registry, error) {
	r := &Registry{byName: map[string]int{}, codeAliases: map[string]int{}, aliases: map[int][]string{}, byNumeric: map[string]int{}}
	err := eachRow(iso3166TSV, "iso3166.tsv", []string{"alpha2", "alpha3", "numeric", "name"}, func(line int, f []string) error {
		i3, ok3 := code3(f[1])
		i2, ok2 := code2(f[0])
		if !ok3 || !ok2 || f[3] == "" || (f[2] != "" && !numeric(f[2])) {
			return fmt.Errorf("iso3166.tsv line %d: malformed row %q", line, strings.Join(f, "\t"))
		}
		if _, dup := r.byNumeric[f[2]]; r.byISO3[i3] != 0 || r.byISO2[i2] != 0 || dup {
			return fmt.Errorf("iso3166.tsv line %d: duplicate code %s/%s/%s", line, f[0], f[1], f[2])
		}
		r.entries = append(r.entries, entrycheck.Country{ISO3: f[1], ISO2: f[0], Name: f[3]})
		r.byISO3[i3] = int16(len(r.entries))
		r.byISO2[i2] = int16(len(r.entries))
		r.numerics = append(r.numerics, f[2])
		if f[2] != "" {
			r.byNumeric[f[2]] = len(r.entries) - 1
		}
		r.byName[normalize(f[3])] = len(r.entries) - 1
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(aliasesTSV, "aliases.tsv", []string{"alias", "iso3", "kind"}, func(line int, f []string) error {
		c, ok := r.ByISO3(f[1])
		if !ok {
			return fmt.Errorf("aliases.tsv line %d: alias %q points to unknown code %s", line, f[0], f[1])
		}
		switch f[2] {
		case "code":
			r.codeAliases[strings.ToUpper(f[0])] = r.index(c.ISO3)
		case "name":
			r.byName[normalize(f[0])] = r.index(c.ISO3)
		default:
			return fmt.Errorf("aliases.tsv line %d: kind %q is neither code nor name", line, f[2])
		}
		r.aliases[r.index(c.ISO3)] = append(r.aliases[r.index(c.ISO3)], f[0])
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, a := range extra {
		c, ok := r.ByISO3(a.ISO3)
		if !ok {
			return nil, fmt.Errorf("alias %q points to unknown code %s", a.Name, a.ISO3)
		}
		if _, taken := r.byName[normalize(a.Name)]; !taken {
			r.byName[normalize(a.Name)] = r.index(c.ISO3)
		}
	}
	return r, nil
}

func eachRow(data []byte, file string, header []string, fn func(line int, fields []string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if strings.Join(f, ",") != strings.Join(header, ",") {
				return fmt.Errorf("%s: header is %q, want %q", file, sc.Text(), strings.Join(header, "\t"))
			}
			continue
		}
		if len(f) != len(header) {
			return fmt.Errorf("%s line %d: %d fields, want %d", file, line, len(f), len(header))
		}
		if err := fn(line, f); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (r *Registry) index(iso3 string) int {
	i, _ := code3(iso3)
	return int(r.byISO3[i]) - 1
}

// ByISO3 returns the country with the alpha-3 code, in any letter case.
func (r *Registry) ByISO3(code string) (entrycheck.Country, bool) {
	i, ok := code3(code)
	if !ok || r.byISO3[i] == 0 {
		return entrycheck.Country{}, false
	}
	return r.entries[r.byISO3[i]-1], true
}

// ByISO2 returns the country with the alpha-2 code, in any letter case.
func (r *Registry) ByISO2(code string) (entrycheck.Country, bool) {
	i, ok := code2(code)
	if !ok || r.byISO2[i] == 0 {
		return entrycheck.Country{}, false
	}
	return r.entries[r.byISO2[i]-1], true
}

// Aliases returns the other codes and names people use for a country
// ("UK", "Great Britain"), as the registry resolves them.
func (r *Registry) Aliases(iso3 string) []string {
	i, ok := code3(iso3)
	if !ok || r.byISO3[i] == 0 {
		return nil
	}
	return append([]string(nil), r.aliases[int(r.byISO3[i])-1]...)
}

// ByNumeric returns the country with the ISO 3166-1 numeric code, three
// digits with leading zeros ("040" is Austria). Kosovo has no such code.
func (r *Registry) ByNumeric(code string) (entrycheck.Country, bool) {
	i, ok := r.byNumeric[code]
	if !ok {
		return entrycheck.Country{}, false
	}
	return r.entries[i], true
}

// Numeric returns the ISO 3166-1 numeric code of the country with the
// alpha-3 code; ok is false for an unknown code and for Kosovo, which has
// none, so that a map keyed by numeric codes can find it by its name.
func (r *Registry) Numeric(iso3 string) (code string, ok bool) {
	i, known := code3(iso3)
	if !known || r.byISO3[i] == 0 {
		return "", false
	}
	code = r.numerics[r.byISO3[i]-1]
	return code, code != ""
}

// All returns every country of the registry, ordered by alpha-3 code.
func (r *Registry) All() []entrycheck.Country {
	return append([]entrycheck.Country(nil), r.entries...)
}

// Index3 maps a three-letter code in any case to a dense index in
// [0, 26*26*26), so that tables keyed by code need no hashing.
func Index3(code string) (int, bool) { return code3(code) }

func numeric(s string) bool {
	return len(s) == 3 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9'
}

func code3(s string) (int, bool) {
	if len(s) != 3 {
		return 0, false
	}
	n := 0
	for i := 0; i < 3; i++ {
		c, ok := letter(s[i])
		if !ok {
			return 0, false
		}
		n = n*26 + c
	}
	return n, true
}

func code2(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	a, ok1 := letter(s[0])
	b, ok2 := letter(s[1])
	return a*26 + b, ok1 && ok2
}

func letter(c byte) (int, bool) {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A'), true
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	}
	return 0, false
}
