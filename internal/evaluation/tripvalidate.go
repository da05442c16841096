package evaluation

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// tripPlan is a validated trip request: every code resolved, every date parsed.
type tripPlan struct {
	passports []plannedPassport
	legs      []plannedLeg
	permits   []string
	visas     []string
}

type plannedPassport struct {
	index   int
	country entrycheck.Country
	expires *entrycheck.Date
}

type plannedLeg struct {
	index              int
	country            entrycheck.Country
	arrival, departure *entrycheck.Date
	// purpose is tourism or business in lower case, "" when the request left it open.
	purpose string
	transit bool
}

// ValidateTrip reports every problem of a trip request at once, as an
// *entrycheck.Error with code EINVALID and one problem per offending field,
// its Field the JSON pointer of that field ("/trip/legs/2/country"). Country
// codes that are not understood come with suggestions, as in Check. Lists
// longer than their bound (MaxTripPassports, MaxTripLegs,
// MaxHeldDocuments) are reported once and only their first items examined.
// Adapters may call it before charging for an evaluation; EvaluateTrip
// calls it too.
func (e *Evaluator) ValidateTrip(req entrycheck.TripRequest) error {
	_, err := e.planTrip(req)
	return err
}

func (e *Evaluator) planTrip(req entrycheck.TripRequest) (tripPlan, error) {
	var problems []entrycheck.Problem
	// Problems are listed in the order of the body's fields.
	plan := tripPlan{permits: req.Traveler.ResidencePermitsOf, visas: req.Traveler.VisasOf}
	plan.passports = e.planPassports(&problems, req.Traveler.Passports)
	e.heldList(&problems, "/traveler/residence_permits_of", req.Traveler.ResidencePermitsOf)
	e.heldList(&problems, "/traveler/visas_of", req.Traveler.VisasOf)
	plan.legs = e.planLegs(&problems, req.Trip.Legs)
	if problems != nil {
		return tripPlan{}, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the trip request has invalid fields", Problems: problems}
	}
	return plan, nil
}

func (e *Evaluator) planPassports(problems *[]entrycheck.Problem, held []entrycheck.PassportHeld) []plannedPassport {
	const field = "/traveler/passports"
	if len(held) == 0 {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemMissing,
			Message: `traveler.passports is required: list at least one passport, as a code ("DEU") or with its expiry ({"country": "DEU", "expires": "2030-01-31"})`,
		})
		return nil
	}
	if len(held) > entrycheck.MaxTripPassports {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemTooMany, Value: strconv.Itoa(len(held)),
			Message: fmt.Sprintf("traveler.passports lists %d passports; at most %d are accepted", len(held), entrycheck.MaxTripPassports),
		})
		held = held[:entrycheck.MaxTripPassports]
	}
	out := make([]plannedPassport, 0, len(held))
	for i, h := range held {
		at := func(sub string) string { return field + "/" + strconv.Itoa(i) + sub }
		c, ok := e.resolve(problems, h.Country, at)
		expires := parseTripDate(problems, h.Expires, func() string { return at("/expires") })
		if !ok {
			continue
		}
		for _, earlier := range out {
			if earlier.country.ISO3 == c.ISO3 {
				item := at("")
				*problems = append(*problems, entrycheck.Problem{
					Field: item, Code: entrycheck.ProblemDuplicatePassport, Value: h.Country,
					Message: fmt.Sprintf("%s repeats the %s passport of /traveler/passports/%d: list each passport once", item, c.ISO3, earlier.index),
				})
				ok = false
				break
			}
		}
		if ok {
			out = append(out, plannedPassport{index: i, country: c, expires: expires})
		}
	}
	return out
}

func (e *Evaluator) planLegs(problems *[]entrycheck.Problem, legs []entrycheck.Leg) []plannedLeg {
	const field = "/trip/legs"
	if len(legs) == 0 {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemMissing,
			Message: `trip.legs is required: list the countries in the order travelled, e.g. [{"country": "FRA", "arrival": "2026-05-01", "departure": "2026-05-10"}]`,
		})
		return nil
	}
	if len(legs) > entrycheck.MaxTripLegs {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemTooMany, Value: strconv.Itoa(len(legs)),
			Message: fmt.Sprintf("trip.legs lists %d legs; at most %d are accepted: split the trip", len(legs), entrycheck.MaxTripLegs),
		})
		legs = legs[:entrycheck.MaxTripLegs]
	}
	out := make([]plannedLeg, len(legs))
	// lastDated is the latest date of the nearest earlier leg that has one.
	var lastDated *entrycheck.Date
	lastIndex := -1
	for i, l := range legs {
		at := func(sub string) string { return field + "/" + strconv.Itoa(i) + sub }
		p := plannedLeg{index: i, transit: l.Transit}
		p.country, _ = e.resolve(problems, l.Country, func(string) string { return at("/country") })
		p.arrival = parseTripDate(problems, l.Arrival, func() string { return at("/arrival") })
		p.departure = parseTripDate(problems, l.Departure, func() string { return at("/departure") })
		if p.arrival != nil && p.departure != nil && dateBefore(*p.departure, *p.arrival) {
			item := at("")
			*problems = append(*problems, entrycheck.Problem{
				Field: item + "/departure", Code: entrycheck.ProblemDepartureBeforeArrival, Value: l.Departure,
				Message: fmt.Sprintf("%s/departure %s is before the arrival %s: swap them or correct the dates", item, l.Departure, l.Arrival),
			})
		}
		p.purpose = tripPurpose(problems, l.Purpose, at(""))
		legOrder(problems, p, lastDated, lastIndex, at)
		if last := latest(p.arrival, p.departure); last != nil {
			lastDated, lastIndex = last, i
		}
		out[i] = p
	}
	return out
}

// tripPurpose is a leg's purpose in lower case, "" when not given; item is
// the leg's pointer, for the problem of a purpose that is not supported.
func tripPurpose(problems *[]entrycheck.Problem, purpose, item string) string {
	switch p := strings.ToLower(purpose); p {
	case "", entrycheck.PurposeTourism, entrycheck.PurposeBusiness:
		return p
	}
	*problems = append(*problems, entrycheck.Problem{
		Field: item + "/purpose", Code: entrycheck.ProblemUnsupportedPurpose, Value: purpose,
		Message: fmt.Sprintf("%s/purpose %q is not supported: use tourism (the default) or business", item, purpose),
	})
	return ""
}

// legOrder records a leg that starts before the latest date of the nearest
// earlier dated leg (leg lastIndex); a leg may start on the day it ends.
func legOrder(problems *[]entrycheck.Problem, p plannedLeg, lastDated *entrycheck.Date, lastIndex int, at func(string) string) {
	first, firstField := p.arrival, "/arrival"
	if first == nil {
		first, firstField = p.departure, "/departure"
	}
	if first == nil || lastDated == nil || !dateBefore(*first, *lastDated) {
		return
	}
	*problems = append(*problems, entrycheck.Problem{
		Field: at(firstField), Code: entrycheck.ProblemLegsOutOfOrder, Value: first.String(),
		Message: fmt.Sprintf("leg %d starts on %s, before leg %d ends on %s: list the legs in the order travelled, with dates that do not overlap (a leg may start on the day the previous one ends)",
			p.index+1, first, lastIndex+1, lastDated),
	})
}

// heldList validates the countries (or the SCHENGEN group) whose visas or
// residence permits are held, one pointer per item.
func (e *Evaluator) heldList(problems *[]entrycheck.Problem, field string, codes []string) {
	if len(codes) > entrycheck.MaxHeldDocuments {
		*problems = append(*problems, entrycheck.Problem{
			Field: field, Code: entrycheck.ProblemTooMany, Value: strconv.Itoa(len(codes)),
			Message: fmt.Sprintf("%s lists %d codes; at most %d are accepted", field, len(codes), entrycheck.MaxHeldDocuments),
		})
		codes = codes[:entrycheck.MaxHeldDocuments]
	}
	for i, c := range codes {
		at := func(string) string { return field + "/" + strconv.Itoa(i) }
		if c == "" {
			item := at("")
			*problems = append(*problems, entrycheck.Problem{
				Field: item, Code: entrycheck.ProblemMissing,
				Message: item + " is empty: give an ISO 3166-1 alpha-3 country code or SCHENGEN",
			})
			continue
		}
		if _, isGroup := e.groups[upper(c)]; isGroup {
			continue
		}
		e.resolve(problems, c, at)
	}
}

// resolve returns the country of a code. Only when the code is not
// understood does it build the field's pointer (ptr("")) and record the
// problem, with suggestions, as Check does.
func (e *Evaluator) resolve(problems *[]entrycheck.Problem, code string, ptr func(string) string) (entrycheck.Country, bool) {
	if code != "" {
		if c, ok := e.snap.Countries.ByISO3(code); ok {
			return c, true
		}
	}
	return e.code(problems, ptr(""), code, true)
}

// parseTripDate parses an optional YYYY-MM-DD date, or records why it
// cannot at the pointer field() gives; nil when there is no date.
func parseTripDate(problems *[]entrycheck.Problem, value string, field func() string) *entrycheck.Date {
	if value == "" {
		return nil
	}
	if d, ok := parseDate(value); ok {
		return &d
	}
	// The domain's parser has the last word and gives the error.
	if d, err := entrycheck.ParseDate(value); err == nil {
		return &d
	}
	at := field()
	*problems = append(*problems, entrycheck.Problem{
		Field: at, Code: entrycheck.ProblemInvalidDate, Value: value,
		Message: fmt.Sprintf("%s %q is not a real date: write it as YYYY-MM-DD, e.g. 2026-05-01", at, value),
	})
	return nil
}

// latest returns the later of two optional dates.
func latest(a, b *entrycheck.Date) *entrycheck.Date {
	switch {
	case a == nil:
		return b
	case b == nil || dateBefore(*b, *a):
		return a
	}
	return b
}
