package dataset

import "slices"

// Pins returns the pinned snapshots, newest first, for the tests.
func (l *Lock) Pins() []Pin { return slices.Clone(l.pins) }
