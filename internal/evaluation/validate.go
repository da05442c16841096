package evaluation

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/entrycheck/entrycheck"
)

// validate checks the request and resolves its codes. All problems are
// reported at once, each with suggestions where a code was not understood.
func (e *Evaluator) validate(req *entrycheck.CheckRequest) (p, d entrycheck.Country, transit *entrycheck.Country, err error) {
	var problems []entrycheck.Problem
	p, _ = e.code(&problems, "passport", req.Passport, true)
	d, _ = e.code(&problems, "destination", req.Destination, true)
	if req.Transit != "" {
		t, ok := e.code(&problems, "transit", req.Transit, false)
		if ok {
			transit = &t
		}
	}
	switch strings.ToLower(req.Purpose) {
	case "", entrycheck.PurposeTourism, entrycheck.PurposeBusiness:
	default:
		problems = append(problems, entrycheck.Problem{
			Field: "purpose", Code: entrycheck.ProblemUnsupportedPurpose, Value: req.Purpose,
			Message: fmt.Sprintf("purpose %q is not supported: use tourism (the default) or business", req.Purpose),
		})
	}
	e.heldCodes(&problems, "residence_permits_of", req.ResidencePermitsOf)
	e.heldCodes(&problems, "visas_of", req.VisasOf)
	for _, f := range []struct{ field, value string }{{"residence_permits", req.ResidencePermitsText}, {"visas_held", req.VisasHeldText}} {
		if len(f.value) > entrycheck.MaxFreeTextLength {
			problems = append(problems, entrycheck.Problem{
				Field: f.field, Code: entrycheck.ProblemTooMany, Value: f.value[:40] + "...",
				Message: fmt.Sprintf("%s is longer than %d characters", f.field, entrycheck.MaxFreeTextLength),
			})
		}
	}
	if problems != nil {
		return p, d, nil, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
	}
	return p, d, transit, nil
}

// code resolves one country as a request names it (an ISO 3166-1 alpha-3
// or alpha-2 code, or a name: see country.Registry.Lookup), or records why
// it cannot, with suggestions. Answers name the country by its alpha-3
// code, so the caller sees what its input was read as.
func (e *Evaluator) code(problems *[]entrycheck.Problem, field, value string, required bool) (entrycheck.Country, bool) {
	if value == "" {
		if required {
			*problems = append(*problems, entrycheck.Problem{
				Field: field, Code: entrycheck.ProblemMissing,
				Message: fmt.Sprintf("%s is required: give an ISO 3166-1 alpha-3 country code such as DEU, or a country name", field),
			})
		}
		return entrycheck.Country{}, false
	}
	if c, ok := e.snap.Countries.Lookup(value); ok {
		return c, true
	}
	prob := entrycheck.Problem{Field: field, Code: entrycheck.ProblemUnknownCode, Value: value, Suggestions: e.snap.Countries.Suggest(value)}
	switch {
	case isLetters3(value):
		prob.Message = fmt.Sprintf("%s %q is not an ISO 3166-1 alpha-3 country code", field, value)
	case len(value) > maxCountryInput:
		prob.Code = entrycheck.ProblemMalformedCode
		prob.Value = value[:40] + "..."
		prob.Message = fmt.Sprintf("%s is longer than %d characters: give an ISO 3166-1 alpha-3 code such as DEU, or a country name", field, maxCountryInput)
	case nameLike(value):
		prob.Message = fmt.Sprintf("%s %q is not a country name this service knows", field, value)
	default:
		prob.Code = entrycheck.ProblemMalformedCode
		prob.Message = fmt.Sprintf("%s %q is neither an ISO 3166-1 code (alpha-3 such as DEU, or alpha-2 such as DE) nor a country name", field, value)
	}
	prob.Message += didYouMean(prob.Suggestions)
	*problems = append(*problems, prob)
	return entrycheck.Country{}, false
}

// maxCountryInput bounds a country as a request names it: the longest
// name or alias is far shorter.
const maxCountryInput = 100

// heldCodes validates a list of countries (or the SCHENGEN group) whose documents are held.
func (e *Evaluator) heldCodes(problems *[]entrycheck.Problem, field string, codes []string) {
	if len(codes) > entrycheck.MaxHeldDocuments {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemTooMany, Value: strings.Join(codes[:entrycheck.MaxHeldDocuments], ",") + ",...",
			Message: fmt.Sprintf("%s lists %d codes; at most %d are accepted", field, len(codes), entrycheck.MaxHeldDocuments),
		})
		return
	}
	for _, c := range codes {
		if c == "" {
			*problems = append(*problems, entrycheck.Problem{
				Field: field, Code: entrycheck.ProblemMissing,
				Message: fmt.Sprintf("%s has an empty item: separate ISO 3166-1 alpha-3 codes (or SCHENGEN) with single commas", field),
			})
			continue
		}
		if _, isGroup := e.groups[strings.ToUpper(c)]; isGroup {
			continue
		}
		e.code(problems, field, c, true)
	}
}

// nameLike reports whether s could be a country name: longer than a code,
// of letters and the marks names use.
func nameLike(s string) bool {
	if len(s) < 4 {
		return false
	}
	for _, c := range s {
		if !unicode.IsLetter(c) && !strings.ContainsRune(" '’-.,()", c) {
			return false
		}
	}
	return true
}

func isLetters3(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func didYouMean(s []entrycheck.Country) string {
	if len(s) == 0 {
		return "; name a country by its ISO 3166-1 alpha-3 code, for example DEU for Germany or GBR for the United Kingdom, or by its name"
	}
	parts := make([]string, len(s))
	for i, c := range s {
		parts[i] = fmt.Sprintf("%s (%s)", c.ISO3, c.Name)
	}
	return ". Did you mean " + strings.Join(parts, ", ") + "?"
}
