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
	// expiresText is the expiry as texts write it, when given.
	expiresText string
}

type plannedLeg struct {
	index              int
	country            entrycheck.Country
	arrival, departure *entrycheck.Date
	// purpose is tourism or business in lower case, "" when the request left it open.
	purpose string
	transit bool
	// name is how texts name the leg, "leg 2 (Kenya)"; schengen is the
	// country's (see destination). Both are set by prepareLegs.
	name     string
	schengen bool
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
	expiries := make([]entrycheck.Date, len(held)) // one allocation for every date
	for i, h := range held {
		at := func(sub string) string { return field + "/" + strconv.Itoa(i) + sub }
		c, ok := e.resolve(problems, h.Country, at)
		expires := parseTripDate(problems, h.Expires, &expiries[i], func() string { return at("/expires") })
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
	dates := make([]entrycheck.Date, 2*len(legs)) // one allocation for every date
	// lastDated is the latest date of the nearest earlier leg that has one.
	var lastDated *entrycheck.Date
	lastIndex := -1
	for i, l := range legs {
		at := func(sub string) string { return field + "/" + strconv.Itoa(i) + sub }
		p := plannedLeg{index: i, transit: l.Transit}
		p.country, _ = e.resolve(problems, l.Country, func(string) string { return at("/country") })
		p.arrival = parseTripDate(problems, l.Arrival, &dates[2*i], func() string { return at("/arrival") })
		p.departure = parseTripDate(problems, l.Departure, &dates[2*i+1], func() string { return at("/departure") })
		if p.arrival != nil && p.departure != nil && dateBefore(*p.departure, *p.arrival) {
			item := at("")
			*problems = append(*problems, entrycheck.Problem{
				Field: item + "/departure", Code: entrycheck.ProblemDepartureBeforeArrival, Value: l.Departure,
				Message: fmt.Sprintf("%s/departure %s is before the arrival %s: swap them or correct the dates", item, l.Departure, l.Arrival),
			})
		}
		switch purpose := strings.ToLower(l.Purpose); purpose {
		case "":
		case entrycheck.PurposeTourism, entrycheck.PurposeBusiness:
			p.purpose = purpose
		default:
			item := at("")
			*problems = append(*problems, entrycheck.Problem{
				Field: item + "/purpose", Code: entrycheck.ProblemUnsupportedPurpose, Value: l.Purpose,
				Message: fmt.Sprintf("%s/purpose %q is not supported: use tourism (the default) or business", item, l.Purpose),
			})
		}
		first, firstField := p.arrival, "/arrival"
		if first == nil {
			first, firstField = p.departure, "/departure"
		}
		if first != nil && lastDated != nil && dateBefore(*first, *lastDated) {
			*problems = append(*problems, entrycheck.Problem{
				Field: at(firstField), Code: entrycheck.ProblemLegsOutOfOrder, Value: first.String(),
				Message: fmt.Sprintf("leg %d starts on %s, before leg %d ends on %s: list the legs in the order travelled, with dates that do not overlap (a leg may start on the day the previous one ends)",
					i+1, first, lastIndex+1, lastDated),
			})
		}
		if last := latest(p.arrival, p.departure); last != nil {
			lastDated, lastIndex = last, i
		}
		out[i] = p
	}
	return out
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

// parseTripDate parses an optional YYYY-MM-DD date into one of the trip's
// dates, or records why it cannot at the pointer field() gives.
func parseTripDate(problems *[]entrycheck.Problem, value string, into *entrycheck.Date, field func() string) *entrycheck.Date {
	if value == "" {
		return nil
	}
	if d, ok := parseDate(value); ok {
		*into = d
		return into
	}
	// The domain's parser has the last word and gives the error.
	if d, err := entrycheck.ParseDate(value); err == nil {
		*into = d
		return into
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
