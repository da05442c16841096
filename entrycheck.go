// Package entrycheck holds the domain of the entry-requirements service: the
// check request and its result, requirement values, entry rules with their
// citations, verification states and the application errors.
//
// It imports no other package of this module but internal/locale, the
// words of every language, which imports none: the dataset, the evaluation
// core and every adapter (CLI, API, generator, MCP) depend on it, never
// the reverse.
package entrycheck

import (
	"time"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// Clock tells the time. Evaluation takes one so that staleness and
// evaluated_at can be computed against a controlled time in tests.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }

// FixedClock always returns the same instant; tests and reproducible builds use it.
type FixedClock time.Time

// Now returns the fixed instant.
func (c FixedClock) Now() time.Time { return time.Time(c) }

// Country identifies a country or territory by its ISO 3166-1 codes.
type Country struct {
	ISO3 string `json:"iso3" jsonschema:"ISO 3166-1 alpha-3 code."`
	ISO2 string `json:"iso2" jsonschema:"ISO 3166-1 alpha-2 code."`
	Name string `json:"name" jsonschema:"English short name."`
}

// Disclaimer is presented with every answer.
func Disclaimer(c *locale.Catalog) string { return c.Text("disclaimer") }
