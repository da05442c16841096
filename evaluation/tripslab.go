package evaluation

// slab hands out slices of one allocation: a trip's legs each need a few
// conditions and explanations, and one allocation for all of them costs far
// less than one per leg. The slices handed out are part of the answer and
// never reused.
type slab[T any] struct{ free []T }

func newSlab[T any](n int) slab[T] { return slab[T]{free: make([]T, n)} }

// take returns an empty slice with capacity n; appending beyond n
// reallocates that slice alone.
func (s *slab[T]) take(n int) []T {
	if len(s.free) < n {
		return make([]T, 0, n)
	}
	out := s.free[:0:n]
	s.free = s.free[n:]
	return out
}
