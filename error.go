package entrycheck

import (
	"strings"
)

// Application error codes. Adapters map them to their own answers in one
// place (api's domainErrors: 400 and 503 with their machine codes; the CLI
// to exit codes). Any other error is a fault of the service.
const (
	// EINVALID: the request is wrong, and Problems say how to fix it.
	EINVALID = "invalid"
	// EUNAVAILABLE: a part the answer needs (the database) did not answer;
	// the same request may succeed later. Err holds the cause, for logs.
	EUNAVAILABLE = "unavailable"
)

// ErrorCodes lists every application error code.
var ErrorCodes = []string{EINVALID, EUNAVAILABLE}

// Error is an application error: a code from the fixed set above, a message
// that says what was wrong and how to fix it, for invalid input one problem
// per offending field, and the cause, which is logged and never shown.
type Error struct {
	Code     string    `json:"-"`
	Message  string    `json:"message"`
	Problems []Problem `json:"problems,omitempty"`
	Err      error     `json:"-"`
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Problem describes one invalid input field.
type Problem struct {
	// Field names the parameter (passport, destination, transit, ...).
	Field string `json:"field" jsonschema:"The parameter, or a JSON pointer into the body."`
	// Code is a stable machine-readable reason such as missing or unknown_country_code.
	Code string `json:"code" jsonschema:"missing, malformed_country_code, unknown_country_code, unsupported_purpose, too_many_values, unknown_parameter, repeated_parameter, ..."`
	// Value is what was sent, echoed back.
	Value   string `json:"value"`
	Message string `json:"message" jsonschema:"What is wrong and how to fix it."`
	// Suggestions lists countries the caller may have meant, best first.
	Suggestions []Country `json:"suggestions,omitempty" jsonschema:"Countries you may have meant, best first."`
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
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	if len(e.Problems) == 0 {
		return e.Message
	}
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return e.Message + ": " + strings.Join(msgs, "; ")
}
