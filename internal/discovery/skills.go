package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// Tier is how a call is paid for.
type Tier string

const (
	// TierFreeCheck calls are free and count against the free check quota:
	// anonymous per IP address, or per registered client with a bearer token.
	TierFreeCheck Tier = "free_check_quota"
	// TierPaid calls are paid per call with x402 and never rate limited.
	TierPaid Tier = "paid"
	// TierFree calls are free and count against no quota.
	TierFree Tier = "free"
)

// skill is one thing the service does for an agent: an MCP tool, an A2A
// skill, an Agent Skills entry and the REST endpoints that do the same.
type skill struct {
	// id is the MCP tool name and the A2A skill id.
	id string
	// name is the Agent Skills name: lowercase letters, digits and hyphens.
	name  string
	title string
	// summary is the one-line description of the MCP tool.
	summary string
	// description says what the skill does and when to use it (at most
	// 1024 characters, the Agent Skills limit).
	description string
	tags        []string
	examples    []string
	// tier is the tier of the MCP tool; pricedBy names the paid endpoint
	// whose price the tool costs when it is paid.
	tier     Tier
	pricedBy string
	// endpoints are the paths of the REST routes that do the same,
	// preferred first.
	endpoints []string
	// instructions is the body of the SKILL.md file.
	instructions func(s Site) string
}

// skills are the three skills of the service, in the order they are listed.
var skills = []skill{
	{
		id:    "check_entry_requirements",
		name:  "check-entry-requirements",
		title: "Check entry requirements",
		summary: "May a holder of one passport enter one destination, under which requirement, " +
			"with the destination's cited entry rules.",
		description: "Checks whether a holder of one passport may enter one destination country and under which " +
			"requirement (visa free with the allowed stay, visa on arrival, eTA, e-visa, visa required, no admission), " +
			"with the destination's entry rules (" + entrycheck.RuleFieldWords() + "), each fact cited and every data gap admitted as unknown or needs_review. Use for visa and " +
			"entry-requirement questions about one passport (ISO 3166-1 alpha-3 code) and one destination.",
		tags: []string{"travel", "visa", "entry requirements", "passport", "immigration"},
		examples: []string{
			"Can a German passport holder enter Thailand without a visa, and for how long?",
			"Does an Indian citizen holding a US visa need a visa for Mexico?",
			"GET /free/check?passport=DEU&destination=THA",
		},
		tier:         TierFreeCheck,
		endpoints:    []string{PathFreeCheck, PathCheck, PathPassport},
		instructions: checkInstructions,
	},
	{
		id:    "evaluate_trip",
		name:  "evaluate-trip",
		title: "Evaluate a trip",
		summary: "Evaluate a whole itinerary leg by leg: the best of several passports, validity, stays, " +
			"yellow fever, transit and the Schengen 90/180 rule.",
		description: "Evaluates a whole itinerary: for every leg it checks each passport the traveller holds (up to 5), " +
			"picks the best one and explains why, and assesses passport validity against the dates, stay length, " +
			"onward ticket, yellow fever given the earlier legs, transit programmes and the Schengen 90/180 rule " +
			"across all Schengen legs. Use when a traveller has several destinations, several passports, or fixed " +
			"dates. Paid per call with x402; no account needed.",
		tags: []string{"travel", "visa", "itinerary", "trip planning", "schengen"},
		examples: []string{
			"I hold US and Indian passports: which should I use for France, Bhutan and India in April 2027?",
			"Will my passport expiring in June be valid enough for a trip to Thailand and Cambodia in March?",
		},
		tier:         TierPaid,
		pricedBy:     PathTrips,
		endpoints:    []string{PathTrips},
		instructions: tripInstructions,
	},
	{
		id:          "get_dataset_info",
		name:        "get-dataset-info",
		title:       "Get dataset information",
		summary:     "The dataset version (matrix revision date) behind every answer, with today's counters.",
		description: "Tells which dataset the answers come from: the matrix revision date served as dataset_version, with today's free and paid call counters. Use before relying on or citing an answer, or to notice that the data changed.",
		tags:        []string{"dataset", "version", "freshness", "transparency"},
		examples: []string{
			"Which dataset version are your answers based on?",
			"GET /stats.json",
		},
		tier:         TierFree,
		endpoints:    []string{PathStats},
		instructions: datasetInstructions,
	},
}

func (sk skill) skillPath() string { return skillsDir + sk.name + "/SKILL.md" }

// toolPrice is the price of the MCP tool, when it is paid.
func (sk skill) toolPrice(s Site) *PriceTag {
	if sk.tier != TierPaid {
		return nil
	}
	r, _ := route(sk.pricedBy)
	if p, ok := s.price(r.Method, r.Path); ok {
		return priceTag(p)
	}
	return nil
}

// SkillsIndex is the agent skills discovery index, following the Agent
// Skills well-known URI convention (schema 0.2.0): each entry names a
// SKILL.md file and its SHA-256 digest. Clients ignore the members the
// convention does not define; this index adds the MCP tool, the tier, the
// price or quota and the REST endpoints of each skill, and the dataset
// version.
type SkillsIndex struct {
	Schema         string       `json:"$schema"`
	DatasetVersion string       `json:"dataset_version"`
	Skills         []SkillEntry `json:"skills"`
}

// SkillsIndexSchema identifies version 0.2.0 of the Agent Skills discovery index.
const SkillsIndexSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// SkillEntry is one skill of the index.
type SkillEntry struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Digest      string `json:"digest"`
	// MCPTool is the tool of the MCP server at MCPServer that implements the skill.
	MCPTool   string `json:"mcp_tool"`
	MCPServer string `json:"mcp_server"`
	// Tier is the tier of the MCP tool; Price is set when it is paid, Quota
	// when it counts against the free check quota.
	Tier      Tier          `json:"tier"`
	Price     *PriceTag     `json:"price,omitempty"`
	Quota     *FreeQuota    `json:"quota,omitempty"`
	Endpoints []RESTSummary `json:"endpoints"`
}

// RESTSummary is a REST endpoint that does what a skill or tool does.
type RESTSummary struct {
	Method string    `json:"method"`
	URL    string    `json:"url"`
	Tier   Tier      `json:"tier"`
	Price  *PriceTag `json:"price,omitempty"`
}

func (sk skill) rest(s Site) []RESTSummary {
	out := make([]RESTSummary, 0, len(sk.endpoints))
	for _, path := range sk.endpoints {
		rt, _ := route(path)
		r := RESTSummary{Method: rt.Method, URL: s.URL(rt.Path), Tier: rt.Tier}
		if p, ok := s.price(rt.Method, rt.Path); ok && rt.Tier == TierPaid {
			r.Price = priceTag(p)
		}
		out = append(out, r)
	}
	return out
}

// AgentSkills is the agent skills index of the site.
func AgentSkills(s Site) SkillsIndex {
	idx := SkillsIndex{Schema: SkillsIndexSchema, DatasetVersion: s.DatasetVersion}
	for _, sk := range skills {
		sum := sha256.Sum256(skillMarkdown(s, sk))
		e := SkillEntry{
			Name:        sk.name,
			Type:        "skill-md",
			Description: sk.description,
			URL:         s.URL(sk.skillPath()),
			Digest:      "sha256:" + hex.EncodeToString(sum[:]),
			MCPTool:     sk.id,
			MCPServer:   s.URL(PathMCP),
			Tier:        sk.tier,
			Price:       sk.toolPrice(s),
			Endpoints:   sk.rest(s),
		}
		if sk.tier == TierFreeCheck {
			e.Quota = s.freeQuota()
		}
		idx.Skills = append(idx.Skills, e)
	}
	return idx
}

// skillMarkdown is the SKILL.md file of a skill: YAML front matter (name,
// description, compatibility, metadata) and the instructions. The SKILL.md
// files do not carry the dataset version, so that their digests change only
// when the instructions do.
func skillMarkdown(s Site, sk skill) []byte {
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "name: %s\n", sk.name)
	fmt.Fprintf(&b, "description: %s\n", yamlString(sk.description))
	fmt.Fprintf(&b, "compatibility: %s\n", yamlString("Needs network access to "+s.BaseURL))
	b.WriteString("metadata:\n")
	fmt.Fprintf(&b, "  mcp-tool: %s\n", yamlString(sk.id))
	fmt.Fprintf(&b, "  mcp-server: %s\n", yamlString(s.URL(PathMCP)))
	fmt.Fprintf(&b, "  tier: %s\n", yamlString(string(sk.tier)))
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "# %s\n\n", sk.title)
	b.WriteString(sk.instructions(s))
	b.WriteString(a2aInstructions(s, sk))
	return []byte(b.String())
}

// a2aInstructions is the "Over A2A" section of a skill: the A2A skills
// that answer as the skill's REST routes, from the table the agent card
// and the endpoint are built from.
func a2aInstructions(s Site, sk skill) string {
	var b strings.Builder
	for _, a := range A2ASkills {
		if !slices.Contains(sk.endpoints, a.Path) {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "\n## Over A2A\n\nSend message/send (JSON-RPC, A2A %s) to %s, described by its agent card at\n%s, with one DataPart naming the skill and its arguments:\n\n",
				A2AProtocolVersion, s.URL(PathA2A), s.URL(PathAgentCard))
		}
		fmt.Fprintf(&b, "- `%s` (%s): `%s`; arguments: %s.", a.ID, a.Name, a.Example, a.Arguments)
		if a.Tier() == TierPaid {
			rt, _ := route(a.Path)
			p, _ := s.price(rt.Method, rt.Path)
			fmt.Fprintf(&b, " Paid as %s %s, %s USD a call: activate x402 with the header `X-A2A-Extensions: %s`; the task waits in input-required with the offer in the metadata `%s`, and the signed PaymentPayload goes back in the same task under `%s`. AP2 mandates are an option beside it: the Checkout JWT under `%s`, the closed mandates under `%s` and `%s`, the signed receipts under `%s`.",
				rt.Method, rt.Path, p.USD, x402.A2AExtensionURI, x402.MetaA2ARequired, x402.MetaA2APayload,
				ap2.MetaA2ACheckout, ap2.MetaA2ACheckoutMandate, ap2.MetaA2APaymentMandate, ap2.MetaA2AReceipts)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// yamlString quotes a string for YAML: a JSON string is a YAML
// double-quoted scalar.
func yamlString(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func checkInstructions(s Site) string {
	p, _ := s.price("GET", PathCheck)
	return fmt.Sprintf(`Countries are named by ISO 3166-1 alpha-3 code (DEU, THA, USA), alpha-2 code
(DE) or English name (Germany); answers name them by alpha-3 code. Codes of
other systems and misspellings are refused with suggestions (GER suggests DEU):
HTTP 400, or over MCP a tool error with the same problems.

## Over MCP

Call the tool `+"`check_entry_requirements`"+` of the MCP server at %[1]s
(streamable HTTP). Its input schema is listed by `+"`tools/list`"+`. Each call
counts against the free check quota below; send the bearer token on the MCP
HTTP requests for the registered quota.

## Over HTTP

    curl '%[2]s?passport=DEU&destination=THA'

Optional query parameters: `+"`transit`"+` (ISO3), `+"`purpose`"+` (tourism, the
default, or business), `+"`residence_permits_of`"+` and `+"`visas_of`"+` (comma-separated
ISO3 codes, SCHENGEN for the Schengen area).

- Anonymous: %[3]d checks a day per IP address.
- Registered agent: %[4]d checks a day per client, with `+"`Authorization: Bearer <token>`"+`.
  Register and get a token as described in %[5]s.
- Paid, never rate limited: `+"`GET %[6]s`"+` with the same parameters, %[7]s USD a call
  in USDC on Base (%[8]s) with x402 version %[9]d; no account needed. The
  402 also carries an AP2 Checkout JWT: closed AP2 checkout and payment
  mandates may accompany the payment, and signed receipts come back (%[11]s).

Free quotas reset at midnight UTC. A 429 names the cap in `+"`scope`"+` and carries
`+"`Retry-After`"+`.

## Reading the answer

- `+"`requirement`"+` is visa_free (with `+"`allowed_stay_days`"+`; null means no stated
  limit), %[10]s, unknown or
  needs_review.
- unknown (no data) and needs_review (official sources conflict) carry the
  action check_official_authority: say so and never guess a verdict.
- `+"`defaults_applied`"+` lists every assumption (purpose, passport type, dates,
  origin): repeat those that matter to the traveller.
- `+"`apply`"+` links the official portal when the requirement needs action.
- `+"`entry_rule_lines`"+` are the destination's entry rules in words, each with
  its source, as the site's route page shows them: quote them rather than
  wording `+"`entry_rules`"+` yourself.
- Every answer is advisory, not a boarding decision: show its disclaimer and
  recommend checking with the official authority.
`, s.URL(PathMCP), s.URL(PathFreeCheck), s.Quotas.Anonymous, s.Quotas.Client, s.URL(PathAuthGuide),
		s.URL(PathCheck), p.USD, x402.NetworkBase, x402.Version, entrycheck.Names(entrycheck.MatrixRequirements()[1:]), s.URL(PathAuthGuide))
}

func tripInstructions(s Site) string {
	p, _ := s.price("POST", PathTrips)
	return fmt.Sprintf(`A trip is the traveller's passports and the legs in order. Bounds: 5
passports, 20 legs, 64 KiB; every problem of an invalid request is reported at
once, with its JSON pointer, before any payment.

## Over MCP

Call the tool `+"`evaluate_trip`"+` of the MCP server at %[1]s (streamable
HTTP). Its input schema is listed by `+"`tools/list`"+`. It is paid: %[2]s USD a call.
Payment follows the x402 MCP transport: a call without an accepted payment
returns isError with the PaymentRequired object in structuredContent; repeat it
with the signed PaymentPayload in params._meta["x402/payment"]; the receipt
comes back in result._meta["x402/payment-response"]. AP2 mandates are an
option beside the payment: the payment-required result carries the Checkout
JWT under "ap2"; send the closed mandates in params._meta["`+ap2.MetaMCPCheckoutMandate+`"]
and params._meta["`+ap2.MetaMCPPaymentMandate+`"], and the signed receipts come back in
result._meta["`+ap2.MetaMCPReceipts+`"] (see %[8]s).

## Over HTTP

    curl -X POST '%[3]s' -H 'Content-Type: application/json' -d '{
      "traveler": {"passports": [{"country": "USA", "expires": "2031-06-30"}, "IND"]},
      "trip": {"legs": [
        {"country": "FRA", "arrival": "2027-04-01", "departure": "2027-04-10"},
        {"country": "BTN", "arrival": "2027-04-11", "departure": "2027-04-20"}
      ]}
    }'

Legs take `+"`country`"+` and optionally `+"`arrival`"+`, `+"`departure`"+`, `+"`purpose`"+` and
`+"`transit`"+`; the traveller may add `+"`residence_permits_of`"+` and `+"`visas_of`"+`.

Payment: %[2]s USD in USDC on Base (%[4]s) with x402 version %[5]d, no
account needed. Without payment the answer is 402 with the offer in the
`+"`%[6]s`"+` header and the body; sign it and retry with the `+"`%[7]s`"+`
header. The answer carries the on-chain receipt.

## Reading the answer

- Each leg names the passport chosen and explains each step in `+"`why[]`"+`;
  `+"`conditions[]`"+` assess validity, stay, onward ticket, yellow fever, transit and
  the Schengen 90/180 rule.
- The summary takes the most serious leg status: not_possible, then unknown,
  then action_needed, then ready.
- Every answer is advisory, not a boarding decision: show its disclaimer and
  recommend checking with the official authorities.
`, s.URL(PathMCP), p.USD, s.URL(PathTrips), x402.NetworkBase, x402.Version, x402.HeaderPaymentRequired, x402.HeaderPaymentSignature,
		s.URL(PathAuthGuide))
}

func datasetInstructions(s Site) string {
	return fmt.Sprintf(`Every answer of the service carries `+"`dataset_version`"+`: the revision date
of the visa matrix it was computed from. Destination rules carry their own
citations and retrieval dates.

## Over MCP

Call the tool `+"`get_dataset_info`"+` of the MCP server at %[1]s (streamable
HTTP). It is free and counts against no quota.

## Over HTTP

    curl '%[2]s'

The answer holds `+"`dataset_version`"+`, today's free checks and paid calls, and
the time of the next daily reset. Coverage, citation counts and freshness are
published at %[3]s; rule changes at %[4]s (Atom) and the verification activity
at %[5]s.
`, s.URL(PathMCP), s.URL(PathStats), s.URL(PathTransparency), s.URL(s.FeedPath), s.URL(s.ChangesPath))
}
