package a2aserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/entrycheck/entrycheck/internal/jsonproblem"
	"net/url"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// answer is how a skill answers its arguments (the members of its data
// part besides "skill"): the resource it is sold as (the URI of the REST
// request that gives the same answer) and the answer itself, computed by
// the functions the REST routes call. An error is the answer's refusal,
// as REST would give it; invalid arguments are refused before any payment.
type answer func(ctx context.Context, args json.RawMessage) (resource string, compute func() (any, error))

// skills are the answers of the skills by id. The free check answers as
// the paid one, but is counted against the quotas first (Endpoint.freeCheck).
func (e *Endpoint) skills() map[string]answer {
	return map[string]answer{
		discovery.A2ASkillDatasetInfo:    e.datasetInfo,
		discovery.A2ASkillCheck:          e.check,
		discovery.A2ASkillPaidCheck:      e.check,
		discovery.A2ASkillPassportMatrix: e.passportMatrix,
		discovery.A2ASkillTrip:           e.trip,
	}
}

// datasetInfo answers as GET /stats.json.
func (e *Endpoint) datasetInfo(ctx context.Context, args json.RawMessage) (string, func() (any, error)) {
	return discovery.PathStats, func() (any, error) {
		if err := noArguments(args, discovery.A2ASkillDatasetInfo); err != nil {
			return nil, err
		}
		return e.Stats(ctx)
	}
}

// check answers as GET /v1/check (and, counted, as GET /free/check).
func (e *Endpoint) check(ctx context.Context, args json.RawMessage) (string, func() (any, error)) {
	req, problems := check.Arguments(args)
	req.RequestID = requestID(ctx)
	q := url.Values{}
	for k, v := range map[string]string{
		"passport": req.Passport, "destination": req.Destination, "transit": req.Transit, "purpose": req.Purpose, "lang": req.Language,
		"residence_permits_of": strings.Join(req.ResidencePermitsOf, ","), "visas_of": strings.Join(req.VisasOf, ","),
	} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return discovery.PathCheck + "?" + q.Encode(), func() (any, error) { return e.Checker.Evaluate(req, problems) }
}

// passportMatrix answers as GET /v1/passport/{iso3}.
func (e *Endpoint) passportMatrix(ctx context.Context, args json.RawMessage) (string, func() (any, error)) {
	var a struct {
		Passport string `json:"passport"`
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return discovery.PathPassport, func() (any, error) {
			return nil, invalid("arguments", check.Clip(string(args)), `the arguments of passport-matrix are {"passport": "DEU"} (an ISO 3166-1 alpha-3 code); `+jsonproblem.Describe("the arguments", err))
		}
	}
	code := strings.TrimSpace(a.Passport)
	return strings.Replace(discovery.PathPassport, "{iso3}", url.PathEscape(code), 1), func() (any, error) {
		return e.Evaluator().PassportMatrix(code, requestID(ctx), e.Clock)
	}
}

// trip answers as POST /v1/trips/evaluate: the arguments are its body.
func (e *Endpoint) trip(ctx context.Context, args json.RawMessage) (string, func() (any, error)) {
	return discovery.PathTrips, func() (any, error) {
		req, err := evaluation.DecodeTripRequest(bytes.NewReader(args))
		if err != nil {
			return nil, err
		}
		return e.Evaluator().EvaluateTrip(req, requestID(ctx), e.Clock)
	}
}

func noArguments(args json.RawMessage, skill string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil || len(m) > 0 {
		return invalid("arguments", check.Clip(string(args)), fmt.Sprintf(`%s takes no arguments: send {"skill": %q}`, skill, skill))
	}
	return nil
}

func invalid(field, value, message string) error {
	return &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: []entrycheck.Problem{{
		Field: field, Code: response.CodeUnknownParameter, Value: value, Message: message,
	}}}
}
