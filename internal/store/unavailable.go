package store

import "errors"

// ErrUnavailable matches (errors.Is) every error of a request's database
// work: the database was unreachable, closed, locked past the busy timeout
// or refused the statement. Callers answer it as a temporary outage (HTTP
// 503 with Retry-After), never with its details.
var ErrUnavailable = errors.New("the database is unavailable")

type unavailableError struct{ err error }

func (e *unavailableError) Error() string        { return e.err.Error() }
func (e *unavailableError) Unwrap() error        { return e.err }
func (e *unavailableError) Is(target error) bool { return target == ErrUnavailable }

// unavailable marks a database failure; nil and ErrNotFound pass through.
func unavailable(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) {
		return err
	}
	return &unavailableError{err}
}
