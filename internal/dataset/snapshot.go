package dataset

import (
	"fmt"
	"io/fs"

	"github.com/entrycheck/entrycheck/internal/country"
)

// Snapshot is everything one version of the service answers from. It is
// immutable and safe for concurrent use.
type Snapshot struct {
	Countries *country.Registry
	Matrix    *Matrix
	Curated   *Curated
}

// Version is the dataset_version served with every answer: the matrix snapshot date.
func (s *Snapshot) Version() string { return s.Matrix.Version() }

// Load reads the matrix snapshot in matrixDir, which lock must pin, and the
// curated layer in curated (CuratedFS() for the embedded one) and validates
// both.
func Load(matrixDir string, lock *Lock, curated fs.FS) (*Snapshot, error) {
	base, err := country.New()
	if err != nil {
		return nil, fmt.Errorf("country registry: %w", err)
	}
	m, err := LoadMatrix(matrixDir, lock, base)
	if err != nil {
		return nil, fmt.Errorf("loading matrix: %w", err)
	}
	// The dataset's own names ("Swaziland", "Ivory Coast") become aliases so
	// that people who type them get a suggestion.
	reg, err := country.New(m.names...)
	if err != nil {
		return nil, fmt.Errorf("country registry: %w", err)
	}
	c, err := LoadCurated(curated, reg)
	if err != nil {
		return nil, fmt.Errorf("loading curated layer: %w", err)
	}
	return &Snapshot{Countries: reg, Matrix: m, Curated: c}, nil
}
