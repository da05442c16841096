package apidoc

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The headers the answers carry (components/headers).
const (
	headerRequestID       = "X-Request-Id"
	headerLimit           = "X-RateLimit-Limit"
	headerRemaining       = "X-RateLimit-Remaining"
	headerReset           = "X-RateLimit-Reset"
	headerRetryAfter      = "Retry-After"
	headerAllow           = "Allow"
	headerAuthenticate    = "WWW-Authenticate"
	headerPaymentRequired = x402.HeaderPaymentRequired
	headerPaymentResponse = x402.HeaderPaymentResponse
	headerAP2Checkout     = payment.HeaderAP2Checkout
	headerCheckoutReceipt = payment.HeaderAP2CheckoutReceipt
	headerPaymentReceipt  = payment.HeaderAP2PaymentReceipt
	headerCacheControl    = "Cache-Control"
	headerETag            = "ETag"
	headerContentRange    = "Content-Range"
	headerAllowOrigin     = "Access-Control-Allow-Origin"
	headerExposeHeaders   = "Access-Control-Expose-Headers"
)

func integer() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer", Minimum: ptr(0.0)} }
func text() *jsonschema.Schema    { return &jsonschema.Schema{Type: "string"} }

// headerObjects are the headers of components/headers.
func headerObjects() map[string]*header {
	return map[string]*header{
		headerRequestID:       {Description: "The request id, also in the body of an error and of an answer that has one (request_id): quote it when reporting a problem.", Required: true, Schema: text()},
		headerLimit:           {Description: "The caller's daily limit (its address or client).", Schema: integer()},
		headerRemaining:       {Description: "Checks left today.", Schema: integer()},
		headerReset:           {Description: "Unix time of the reset (next midnight UTC).", Schema: integer()},
		headerRetryAfter:      {Description: "Seconds to wait before retrying.", Schema: &jsonschema.Schema{Type: "integer", Minimum: ptr(1.0)}},
		headerAllow:           {Description: "The methods the path takes.", Required: true, Schema: text()},
		headerAuthenticate:    {Description: "The authentication scheme: Bearer with the protected-resource metadata (RFC 9728 resource_metadata) on the API, Basic when the token endpoint was sent HTTP Basic credentials.", Schema: text()},
		headerPaymentRequired: {Description: "Base64-encoded PaymentRequired: the x402 offer.", Required: true, Schema: text()},
		headerPaymentResponse: {Description: "Base64-encoded x402 SettlementResponse: the settlement receipt (on-chain transaction hash; a transaction starting with local: comes from a development server's local facilitator, nothing moved on-chain).", Required: true, Schema: text()},
		headerAP2Checkout:     {Description: "AP2: the merchant-signed Checkout JWT of this offer (also in the body's ap2.checkout_jwt), when AP2 is enabled.", Schema: text()},
		headerCheckoutReceipt: {Description: "AP2: the signed Checkout Receipt, when mandates were accepted.", Schema: text()},
		headerPaymentReceipt:  {Description: "AP2: the signed Payment Receipt, when mandates were accepted.", Schema: text()},
		headerCacheControl: {Description: "How long the answer may be kept: " + response.CacheNone + " for an answer that counts against a quota, is paid for or carries a secret, " +
			response.CacheLive + " for live counters, " + response.CacheDocument + " for a document.", Schema: text()},
		headerETag:          {Description: "The document's strong validator: send it back in If-None-Match to get 304 Not Modified while it is unchanged.", Required: true, Schema: text()},
		headerContentRange:  {Description: "The bytes of the document in this part, and its length.", Required: true, Schema: text()},
		headerAllowOrigin:   {Description: "*: pages of any site may read the answer.", Schema: text()},
		headerExposeHeaders: {Description: "The headers a page may read: " + response.CORSExposeHeaders + ", and on paid routes the payment headers.", Schema: text()},
	}
}

func headerRef(name string) string   { return "#/components/headers/" + name }
func responseRef(name string) string { return "#/components/responses/" + name }

// headers refers to the named headers, and to X-Request-Id, which every
// answer carries.
func headers(names ...string) map[string]*header {
	out := map[string]*header{headerRequestID: {Ref: headerRef(headerRequestID)}}
	for _, n := range names {
		out[n] = &header{Ref: headerRef(n)}
	}
	return out
}

// The shared responses (components/responses).
const (
	responseInvalid          = "InvalidRequest"
	responseMethodNotAllowed = "MethodNotAllowed"
	responseTooManyInFlight  = "TooManyInFlight"
	responseInternal         = "InternalError"
	responseUnavailable      = "Unavailable"
	responseRange            = "RangeNotSatisfiable"
	responseTimeout          = "BodyTimeout"
)

const inFlightWords = "too_many_in_flight: this client address already has as many requests in progress as it may (--max-in-flight-per-addr, 32 by default). Wait for an answer, then retry; nothing was counted or charged."

func responseObjects() map[string]*reply {
	errorBody := jsonBody(ref("Error"))
	return map[string]*reply{
		responseInvalid:          {Description: "invalid_parameters: problems lists each missing or invalid parameter, with country suggestions; nothing was counted or charged.", Headers: headers(), Content: errorBody},
		responseMethodNotAllowed: {Description: "method_not_allowed: the path does not take this method; Allow lists those it does. (OpenAPI lists a path's operations only: this answer is that of every other method.)", Headers: headers(headerAllow), Content: errorBody},
		responseTooManyInFlight:  {Description: inFlightWords, Headers: headers(headerRetryAfter), Content: errorBody},
		responseInternal:         {Description: "internal_error: the service failed; the request id in the body identifies it in the logs.", Headers: headers(), Content: errorBody},
		responseUnavailable:      {Description: "service_unavailable: the service's database did not answer; nothing was counted or stored. Retry after Retry-After seconds.", Headers: headers(headerRetryAfter), Content: errorBody},
		responseRange:            {Description: "range_not_satisfiable: the Range header asks for bytes the document does not have; the document is also served in parts (206) and revalidated (304 on If-None-Match).", Headers: headers(), Content: errorBody},
		responseTimeout:          {Description: "request_timeout: the body did not arrive in time (3 seconds plus its length at 4 KiB/s). Send the whole body at once; nothing was counted or charged.", Headers: headers(), Content: errorBody},
	}
}

// responsesOf are the answers of e: its own and those its route's row
// in discovery.Routes implies.
func responsesOf(e endpoint, rt discovery.Route) map[string]*reply {
	out := map[string]*reply{}
	set := func(status int, r *reply) { out[strconv.Itoa(status)] = r }
	use := func(status int, name string) { set(status, &reply{Ref: responseRef(name)}) }

	status := cmp.Or(e.Status, http.StatusOK)
	media := cmp.Or(e.MediaType, "application/json")
	answer := &reply{Description: e.Answer, Headers: headers(slices.Concat(e.Headers, []string{headerCacheControl})...), Content: map[string]*mediaType{media: {Schema: e.schemaOf()}}}
	oauth := discovery.OAuthEndpoint(e.Path)
	errorOf := func() map[string]*mediaType {
		if oauth {
			return jsonBody(ref("OAuthError"))
		}
		return jsonBody(ref("Error"))
	}
	if rt.Tier == discovery.TierPaid {
		answer.Description = "The answer, after settlement, with the receipt under payment."
		answer.Headers = headers(headerPaymentResponse, headerCheckoutReceipt, headerPaymentReceipt, headerCacheControl)
		use(http.StatusBadRequest, responseInvalid)
		set(http.StatusPaymentRequired, &reply{
			Description: "payment_required: {price_" + rt.Price + "} USD in USDC on Base (x402 version 2). The offer is in the PAYMENT-REQUIRED header (base64 JSON) and in the body; a refused payment says why in error, starting with its machine reason (e.g. invalid_exact_evm_payload_signature, invalid_exact_evm_payload_authorization_valid_before, invalid_exact_evm_nonce_already_used), and the refusal's PAYMENT-RESPONSE. Nothing is charged and nothing is served. With AP2 mandates (AP2-Checkout-Mandate, AP2-Payment-Mandate), a refusal has the code ap2_mandate_refused, and error and ap2.check start with the failed check; the mandates are verified before anything is settled.",
			Headers:     paymentRefusalHeaders(),
			Content:     jsonBody(ref("PaymentRequired")),
		})
		set(http.StatusServiceUnavailable, &reply{
			Description: "payments_not_configured: the server has no payment address; or service_unavailable (with Retry-After): the payment facilitator or the database did not answer, and nothing was charged.",
			Headers:     headers(headerRetryAfter),
			Content:     errorOf(),
		})
	}
	if e.Method == http.MethodGet && rt.Tier == discovery.TierFreeCheck {
		use(http.StatusBadRequest, responseInvalid)
	}
	if e.Document {
		answer.Headers[headerETag] = &header{Ref: headerRef(headerETag)}
		set(http.StatusPartialContent, &reply{Description: "The bytes a Range header asked for, of the document in the media type of the 200: a part, which is not JSON by itself.", Headers: headers(headerETag, headerContentRange, headerCacheControl)})
		set(http.StatusNotModified, &reply{Description: "The document is unchanged since the ETag sent in If-None-Match.", Headers: headers(headerETag, headerCacheControl)})
		use(http.StatusRequestedRangeNotSatisfiable, responseRange)
	}
	if crossOrigin(e, rt) {
		answer.Headers[headerAllowOrigin] = &header{Ref: headerRef(headerAllowOrigin)}
		answer.Headers[headerExposeHeaders] = &header{Ref: headerRef(headerExposeHeaders)}
	}
	set(status, answer)
	if rt.MaxBody > 0 {
		if oauth {
			set(http.StatusRequestTimeout, &reply{Description: "invalid_request: the body did not arrive in time (3 seconds plus its length at 4 KiB/s). Send the whole body at once; nothing was counted.", Headers: headers(), Content: errorOf()})
		} else {
			use(http.StatusRequestTimeout, responseTimeout)
		}
		set(http.StatusRequestEntityTooLarge, &reply{
			Description: fmt.Sprintf("The body is over %s: refused before it is read (no 100 Continue), and the connection closes.", sizeWords(rt.MaxBody)),
			Headers:     headers(),
			Content:     errorOf(),
		})
		if media := e.Body.mediaType(); media == "application/json" {
			set(http.StatusUnsupportedMediaType, &reply{Description: "The body is not application/json; nothing was counted or charged.", Headers: headers(), Content: errorOf()})
		}
	}
	if limited := rateLimited(rt); limited != nil {
		set(http.StatusTooManyRequests, limited)
	} else if !rt.Unlimited {
		use(http.StatusTooManyRequests, responseTooManyInFlight)
	}
	if rt.Quota != "" && rt.Tier != discovery.TierPaid {
		if oauth {
			set(http.StatusServiceUnavailable, &reply{Description: "temporarily_unavailable: the service's database did not answer; nothing was stored. Retry after Retry-After seconds.", Headers: headers(headerRetryAfter), Content: errorOf()})
		} else {
			use(http.StatusServiceUnavailable, responseUnavailable)
		}
	}
	if oauth {
		set(http.StatusInternalServerError, &reply{Description: "server_error: the service failed; the request id identifies it in the logs.", Headers: headers(), Content: errorOf()})
	} else {
		use(http.StatusInternalServerError, responseInternal)
	}
	use(http.StatusMethodNotAllowed, responseMethodNotAllowed)
	for status, r := range e.Refusals {
		own := *r // a copy: the table is shared by every document written
		if own.Ref == "" && own.Headers == nil {
			own.Headers = headers()
		}
		set(status, &own)
	}
	return out
}

// crossOrigin tells whether pages of any site may read e's answers: the
// checks, free and paid, and the documents.
func crossOrigin(e endpoint, rt discovery.Route) bool {
	return rt.Tier == discovery.TierPaid || rt.Tier == discovery.TierFreeCheck || e.Document || strings.HasPrefix(e.Path, "/.well-known/")
}

// paymentRefusalHeaders are the headers of a 402: the offer, and after a
// refused payment the settlement response that says why.
func paymentRefusalHeaders() map[string]*header {
	h := headers(headerPaymentRequired, headerAP2Checkout)
	h[headerPaymentResponse] = &header{Description: "After a refused payment: the base64 SettlementResponse with success false and the errorReason.", Schema: text()}
	return h
}

// rateLimited is the 429 of a route that counts against daily quotas: the
// quota's refusal, which names the quota (RateLimited.scope), or the
// in-flight bound's; nil for a route that counts against none.
func rateLimited(rt discovery.Route) *reply {
	if rt.Quota == "" {
		return nil
	}
	var caps []string
	for _, q := range config.QuotaSettings {
		if q.Counts == rt.Quota {
			caps = append(caps, fmt.Sprintf("%s ({quota_%s} a day)", q.Name, q.Name))
		}
	}
	names := []string{headerRetryAfter, headerReset}
	if rt.Quota == config.CountsChecks {
		names = append(names, headerLimit, headerRemaining) // the caller's own bucket (quota.LimitHeaders)
	}
	return &reply{
		Description: "rate_limited: a daily cap of " + string(rt.Quota) + " was reached, and scope names which; caps: " + strings.Join(caps, ", ") + ". They reset at midnight UTC; alternatives says what still works. Or " + inFlightWords,
		Headers:     headers(names...),
		Content:     jsonBody(&jsonschema.Schema{OneOf: []*jsonschema.Schema{ref("RateLimited"), ref("Error")}}),
	}
}

// mediaType is the media type of a request body; empty for none.
func (b *requestBody) mediaType() string {
	if b == nil {
		return ""
	}
	for m := range b.Content {
		return m
	}
	return ""
}

// sizeWords says a body bound in KiB.
func sizeWords(n int64) string { return fmt.Sprintf("%d KiB", n>>10) }
