package evaluation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// DecodeTripRequest reads one trip request from r strictly: a single JSON
// object, no unknown fields, no trailing data, at most entrycheck.MaxTripBodyBytes. The
// HTTP API and the CLI share it so that a body means the same everywhere.
//
// A body that cannot be decoded gives an *entrycheck.Error with code
// EINVALID and one problem per defect found, each with the JSON pointer of
// the offending value (every unknown field and every value of the wrong
// type, not only the first). The decoded request is not yet validated: pass
// it to EvaluateTrip or ValidateTrip.
func DecodeTripRequest(r io.Reader) (entrycheck.TripRequest, error) {
	var req entrycheck.TripRequest
	data, err := io.ReadAll(io.LimitReader(r, entrycheck.MaxTripBodyBytes+1))
	if err != nil {
		return req, fmt.Errorf("reading the trip request: %w", err)
	}
	if len(data) > entrycheck.MaxTripBodyBytes {
		return req, invalidBody(entrycheck.Problem{
			Code:    entrycheck.ProblemBodyTooLarge,
			Message: fmt.Sprintf("the body is larger than %d bytes: a trip has at most %d passports and %d legs", entrycheck.MaxTripBodyBytes, entrycheck.MaxTripPassports, entrycheck.MaxTripLegs),
		})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return req, invalidBody(entrycheck.Problem{
			Code:    entrycheck.ProblemMissing,
			Message: `the body is empty: send a JSON object such as {"traveler": {"passports": ["DEU"]}, "trip": {"legs": [{"country": "THA"}]}}`,
		})
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return entrycheck.TripRequest{}, invalidBody(bodyProblems(data, err)...)
	}
	if _, err := dec.Token(); err != io.EOF {
		return entrycheck.TripRequest{}, invalidBody(entrycheck.Problem{
			Code:    entrycheck.ProblemTrailingData,
			Message: fmt.Sprintf("the body goes on after the request object (at byte %d): send exactly one JSON object", dec.InputOffset()),
		})
	}
	return req, nil
}

func invalidBody(problems ...entrycheck.Problem) error {
	return &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the trip request body is not a valid request", Problems: problems}
}

// bodyProblems turns a decoding error into problems with JSON pointers by
// walking the body alongside the request type; the decoder itself stops at
// the first defect and does not say where it was.
func bodyProblems(data []byte, decodeErr error) []entrycheck.Problem {
	w := shapeWalker{dec: json.NewDecoder(bytes.NewReader(data))}
	err := w.value(reflect.TypeFor[entrycheck.TripRequest](), "")
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		w.problems = append(w.problems, malformed(data, syntax.Offset, syntax.Error(), w.at))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		w.problems = append(w.problems, malformed(data, int64(len(data)), "the body ends in the middle of a value", w.at))
	case err != nil:
		w.problems = append(w.problems, malformed(data, w.dec.InputOffset(), err.Error(), w.at))
	}
	if len(w.problems) == 0 {
		// The walk found nothing the decoder objected to: report the decoder's own words.
		w.problems = append(w.problems, entrycheck.Problem{Code: entrycheck.ProblemMalformedBody, Message: "the body could not be decoded: " + decodeErr.Error()})
	}
	return w.problems
}

func malformed(data []byte, offset int64, what, at string) entrycheck.Problem {
	line, col := position(data, offset)
	return entrycheck.Problem{
		Field: at, Code: entrycheck.ProblemMalformedBody,
		Message: fmt.Sprintf("the body is not valid JSON at line %d, column %d: %s", line, col, strings.TrimPrefix(what, "json: ")),
	}
}

// position converts a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// passportHeldType is decoded from either a code string or an object.
var passportHeldType = reflect.TypeFor[entrycheck.PassportHeld]()

// shapeWalker reads a JSON document token by token alongside the Go type it
// decodes into and records every unknown field and every value of the wrong
// kind at its JSON pointer.
type shapeWalker struct {
	dec      *json.Decoder
	problems []entrycheck.Problem
	// at is the pointer of the value being read, for syntax errors.
	at string
}

func (w *shapeWalker) value(t reflect.Type, ptr string) error {
	w.at = ptr
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case nil:
		return nil // null leaves the zero value, as encoding/json does
	case json.Delim:
		switch {
		case tok == '{' && t.Kind() == reflect.Struct:
			return w.object(t, ptr)
		case tok == '[' && t.Kind() == reflect.Slice:
			return w.array(t.Elem(), ptr)
		}
		got := "an object"
		if tok == '[' {
			got = "a list"
		}
		w.wrongType(t, ptr, got)
		return w.skipRest()
	case string:
		if t.Kind() == reflect.String || t == passportHeldType {
			return nil
		}
		w.wrongType(t, ptr, "a string")
	case bool:
		if t.Kind() == reflect.Bool {
			return nil
		}
		w.wrongType(t, ptr, "true or false")
	default:
		w.wrongType(t, ptr, "a number")
	}
	return nil
}

func (w *shapeWalker) object(t reflect.Type, ptr string) error {
	for w.at = ptr; w.dec.More(); w.at = ptr {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		field, ok := jsonField(t, key)
		if !ok {
			at := ptr + "/" + escapePointer(key)
			w.problems = append(w.problems, entrycheck.Problem{
				Field: at, Code: entrycheck.ProblemUnknownField, Value: key,
				Message: fmt.Sprintf("%s is not a field of this request: %s accepts %s", at, orRoot(ptr), fieldNames(t)),
			})
			if err := w.skipValue(); err != nil {
				return err
			}
			continue
		}
		if err := w.value(field.Type, ptr+"/"+escapePointer(key)); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // the closing brace
	return err
}

func (w *shapeWalker) array(elem reflect.Type, ptr string) error {
	for i := 0; w.dec.More(); i++ {
		if err := w.value(elem, ptr+"/"+strconv.Itoa(i)); err != nil {
			return err
		}
		w.at = ptr
	}
	_, err := w.dec.Token() // the closing bracket
	return err
}

// skipValue reads and discards one whole value.
func (w *shapeWalker) skipValue() error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if _, ok := tok.(json.Delim); ok {
		return w.skipRest()
	}
	return nil
}

// skipRest discards the rest of an object or list whose opening was read.
func (w *shapeWalker) skipRest() error {
	for depth := 1; depth > 0; {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func (w *shapeWalker) wrongType(t reflect.Type, ptr, got string) {
	w.problems = append(w.problems, entrycheck.Problem{
		Field: ptr, Code: entrycheck.ProblemWrongType,
		Message: fmt.Sprintf("%s must be %s, not %s", orRoot(ptr), expected(t), got),
	})
}

func expected(t reflect.Type) string {
	switch {
	case t == passportHeldType:
		return `an ISO 3166-1 alpha-3 code or an object {"country": ..., "expires": "YYYY-MM-DD"}`
	case t.Kind() == reflect.Struct:
		return "an object with the fields " + fieldNames(t)
	case t.Kind() == reflect.Slice:
		return "a list"
	case t.Kind() == reflect.Bool:
		return "true or false"
	}
	return "a string"
}

// jsonField finds the struct field a JSON key decodes into, ignoring case as encoding/json does.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name := jsonName(f); name != "" && strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return f.Name
	}
	return name
}

func fieldNames(t reflect.Type) string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if n := jsonName(t.Field(i)); n != "" {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the body"
	}
	return ptr
}
