package evaluation

import "sync"

// tripScratch is the working memory of one trip evaluation that does not
// end up in the answer: the legs being worked on and every passport's
// option and ranking. Reusing it halves what a trip allocates, and with it
// the garbage collector's share of an evaluation.
type tripScratch struct {
	work    []legWork
	options []option
	order   []int
}

// scratchPool hands out cleared scratch sized for a trip.
type scratchPool struct{ pool sync.Pool }

func (p *scratchPool) get(legs, passports int) *tripScratch {
	s, _ := p.pool.Get().(*tripScratch)
	if s == nil {
		s = &tripScratch{}
	}
	s.work = resize(s.work, legs)
	s.options = resize(s.options, legs*passports)
	s.order = resize(s.order, legs*passports)
	return s
}

// put clears the scratch, so that it holds no texts or passports of the
// finished evaluation, and returns it to the pool.
func (p *scratchPool) put(s *tripScratch) {
	clear(s.work)
	clear(s.options)
	p.pool.Put(s)
}

// resize returns s with length n, cleared, reusing its array when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
