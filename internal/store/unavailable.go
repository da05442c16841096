package store

import (
	"errors"

	"github.com/entrycheck/entrycheck"
)

// unavailable marks a failure of a request's database work (unreachable,
// closed, locked past the busy timeout, a refused statement) as the
// application error EUNAVAILABLE: answered as a temporary outage, its cause
// logged and never shown. nil and ErrNotFound pass through.
func unavailable(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) {
		return err
	}
	return &entrycheck.Error{Code: entrycheck.EUNAVAILABLE, Message: "the service's database did not answer; nothing was counted or charged: retry in a minute", Err: err}
}
