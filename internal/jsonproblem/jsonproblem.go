// Package jsonproblem says what is wrong with a JSON document in the terms
// of the client that sent it: the member (as a JSON pointer) and the kind of
// JSON value expected, or the byte where the syntax breaks. The decoder's
// own errors name the server's Go types, which mean nothing to a client and
// tell it how the server is built.
//
// It imports only the standard library.
package jsonproblem

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Describe says what err, an error of decoding the JSON document that
// subject names ("params", "the body") into a Go value, means for the
// document: "params member /name must be a JSON string, not a number".
// Errors that are not about the document are described as a document of
// the wrong shape, never by their own text.
func Describe(subject string, err error) string {
	var syntax *json.SyntaxError
	var kind *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("%s is not valid JSON (at byte %d)", subject, syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return subject + " ends in the middle of a JSON value"
	case strings.HasPrefix(err.Error(), unknownField):
		// The decoder names the member as the client wrote it.
		return subject + " has an unknown member " + strings.TrimPrefix(err.Error(), unknownField)
	case errors.As(err, &kind) && kind.Field != "":
		return fmt.Sprintf("%s member %s must be %s, not %s", subject, Pointer(kind.Field), Kind(kind.Type), article(kind.Value))
	case errors.As(err, &kind):
		return fmt.Sprintf("%s must be %s, not %s", subject, Kind(kind.Type), article(kind.Value))
	}
	return subject + " is not JSON of the expected shape"
}

// unknownField begins the decoder's refusal of a member that a decoder
// disallowing unknown fields does not know; it has no type of its own.
const unknownField = "json: unknown field "

// Pointer turns the decoder's dotted path of a member (traveler.passports)
// into a JSON pointer (/traveler/passports).
func Pointer(field string) string {
	if field == "" {
		return ""
	}
	parts := strings.Split(field, ".")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(parts, "/")
}

// Kind is the JSON kind of value a Go type decodes from, with its article.
func Kind(t reflect.Type) string {
	if t == nil {
		return "a JSON value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a JSON string"
	case reflect.Bool:
		return "a JSON boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a JSON integer"
	case reflect.Float32, reflect.Float64:
		return "a JSON number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a JSON string (base64)"
		}
		return "a JSON array"
	case reflect.Array:
		return "a JSON array"
	case reflect.Map, reflect.Struct:
		return "a JSON object"
	}
	return "a JSON value"
}

// article names a JSON kind the decoder reports ("string", "number 5")
// with its article, in JSON's words.
func article(value string) string {
	switch {
	case value == "":
		return "another kind of value"
	case value == "bool":
		return "a boolean"
	case strings.HasPrefix(value, "array"), strings.HasPrefix(value, "object"):
		return "an " + value
	}
	return "a " + value
}
