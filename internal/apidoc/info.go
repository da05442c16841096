package apidoc

import (
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// The tags of the operations.
const (
	tagFree    = "free"
	tagPaid    = "paid"
	tagOAuth   = "oauth"
	tagService = "service"
)

var tags = []tag{
	{Name: tagFree, Description: "The free check: anonymous ({quota_anonymous} a day per IP address) or with a bearer token from /oauth/token ({quota_client} a day per client)."},
	{Name: tagPaid, Description: "Paid per request with x402 v2 (USDC on Base, no account): a request without a payment gets 402 with the offer to sign."},
	{Name: tagOAuth, Description: "Self-service client registration (RFC 7591), client credentials tokens for the free check and the MCP server, and the OAuth metadata documents (RFC 8414, RFC 9728)."},
	{Name: tagService, Description: "Live counters, health, metrics and this document."},
}

func infoOf(site discovery.Site) info {
	return info{
		Title:       "entrycheck",
		Version:     site.Version,
		Summary:     "Entry requirements by passport and destination, every fact cited, every gap admitted.",
		Description: "Answers whether a holder of a passport may enter a destination, under which requirement, with the destination's cited entry rules. Every answer is advisory only, not a boarding decision: present its disclaimer and recommend official verification.\n\nTiers: anonymous free ({quota_anonymous} checks a day per IP), registered agent ({quota_client} a day per client, OAuth client credentials, see /auth.md), and paid per request with x402 (USDC on Base, no account): /v1/check {price_check} USD, /v1/passport/{iso3} {price_passport} USD, /v1/trips/evaluate {price_trips} USD. Every error is JSON with a stable machine code, a message that says how to fix it, and the request_id. Every GET operation answers HEAD too, with the status and headers of the GET and no body; a HEAD uses no free check and is never charged.",
		License:     license{Name: "MIT (code); verdict data: passport-index dataset, MIT", Identifier: "MIT"},
	}
}

var securitySchemes = map[string]*securityScheme{
	"bearerAuth": {Type: "http", Scheme: "bearer", Description: "Opaque access token from POST /oauth/token (client credentials). Raises the free quota to {quota_client} checks per day per client."},
	"x402":       {Type: "apiKey", In: "header", Name: "PAYMENT-SIGNATURE", Description: "x402 version 2 payment: a base64 PaymentPayload with an EIP-3009 transferWithAuthorization for the price of the endpoint, in USDC on Base (eip155:8453). Only version 2 is accepted: the version 1 X-PAYMENT header is ignored, so a version 1 client gets the 402 offer again. A reused authorization nonce is refused, also after a server restart; but the same payment sent again for the same resource while its authorization is valid (24 hours at most), for instance after a lost answer, is answered again with the original receipt and charged once."},
}
