package entrycheck

import (
	"strings"
)

// Application error codes. Adapters map them to their own status codes in
// one place (the HTTP layer to 400/401/404/..., the CLI to exit codes).
const (
	EINVALID      = "invalid"
	ENOTFOUND     = "not_found"
	ECONFLICT     = "conflict"
	EUNAUTHORIZED = "unauthorized"
	EINTERNAL     = "internal"
)

// Error is an application error: a code from the fixed set above, a message
// that says what was wrong and how to fix it, and, for invalid input, one
// problem per offending field.
type Error struct {
	Code     string    `json:"-"`
	Message  string    `json:"message"`
	Problems []Problem `json:"problems,omitempty"`
}

// Problem describes one invalid input field.
type Problem struct {
	// Field names the parameter (passport, destination, transit, ...).
	Field string `json:"field"`
	// Code is a stable machine-readable reason such as missing or unknown_country_code.
	Code string `json:"code"`
	// Value is what was sent, echoed back.
	Value   string `json:"value"`
	Message string `json:"message"`
	// Suggestions lists countries the caller may have meant, best first.
	Suggestions []Country `json:"suggestions,omitempty"`
}

// Problem codes.
const (
	ProblemMissing            = "missing"
	ProblemMalformedCode      = "malformed_country_code"
	ProblemUnknownCode        = "unknown_country_code"
	ProblemUnsupportedPurpose = "unsupported_purpose"
	ProblemTooMany            = "too_many_values"
)

func (e *Error) Error() string {
	if len(e.Problems) == 0 {
		return e.Message
	}
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return e.Message + ": " + strings.Join(msgs, "; ")
}
