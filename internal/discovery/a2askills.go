package discovery

// A2ASkill is one skill of the A2A endpoint. A message selects it with a
// DataPart whose "skill" member is the ID, the other members being its
// arguments; the answer is the JSON of the REST route at Path, returned
// as a DataPart artifact, and the skill is paid or counted as that route
// is. The A2A endpoint serves exactly these skills and the agent card
// lists them.
type A2ASkill struct {
	ID, Name    string
	Description string
	// Arguments names the members of the DataPart besides "skill".
	Arguments string
	Tags      []string
	// Example is the DataPart of a typical call.
	Example string
	// Path is the REST route that gives the same answer: its tier, price
	// and quota are the skill's.
	Path string
}

// The A2A skill ids, as messages name them.
const (
	A2ASkillDatasetInfo    = "dataset-info"
	A2ASkillCheck          = "check"
	A2ASkillPaidCheck      = "paid-check"
	A2ASkillPassportMatrix = "passport-matrix"
	A2ASkillTrip           = "evaluate-trip"
)

// checkArguments are the members of a check's DataPart.
const checkArguments = `passport and destination (ISO 3166-1 alpha-3 or alpha-2 code, or country name; required), ` +
	`transit, purpose ("tourism" or "business"), residence_permits_of and visas_of (arrays of ISO3 codes, SCHENGEN for the Schengen area) ` +
	`and language (a BCP 47 tag such as "fr")`

// A2ASkills are the skills of the A2A endpoint, in the order the card lists them.
var A2ASkills = []A2ASkill{
	{
		ID: A2ASkillDatasetInfo, Name: "Dataset information",
		Description: "The dataset behind every answer: dataset_version (the matrix revision date), today's free and paid call counters " +
			"and the next reset.",
		Arguments: "none",
		Tags:      []string{"dataset", "version", "freshness"},
		Example:   `{"skill":"dataset-info"}`,
		Path:      PathStats,
	},
	{
		ID: A2ASkillCheck, Name: "Check entry requirements (free)",
		Description: "May a holder of one passport enter one destination, and under which requirement, with the destination's cited entry rules, " +
			"counted against the daily free check quotas (send the OAuth bearer token for the registered quota). Invalid arguments count nothing.",
		Arguments: checkArguments,
		Tags:      []string{"travel", "visa", "entry requirements", "passport"},
		Example:   `{"skill":"check","passport":"DEU","destination":"THA"}`,
		Path:      PathFreeCheck,
	},
	{
		ID: A2ASkillPaidCheck, Name: "Check entry requirements (paid)",
		Description: "The same check, paid per call and never rate limited.",
		Arguments:   checkArguments,
		Tags:        []string{"travel", "visa", "entry requirements", "passport", "x402"},
		Example:     `{"skill":"paid-check","passport":"DEU","destination":"THA"}`,
		Path:        PathCheck,
	},
	{
		ID: A2ASkillPassportMatrix, Name: "Passport matrix",
		Description: "The requirement of one passport for every destination.",
		Arguments:   "passport (ISO 3166-1 alpha-3 code; required)",
		Tags:        []string{"travel", "visa", "passport", "x402"},
		Example:     `{"skill":"passport-matrix","passport":"DEU"}`,
		Path:        PathPassport,
	},
	{
		ID: A2ASkillTrip, Name: "Evaluate a trip",
		Description: "A whole itinerary leg by leg: the best of several passports, validity, stays, yellow fever, transit and the Schengen 90/180 rule. " +
			"Every problem of an invalid trip is reported, with its JSON pointer, before any payment.",
		Arguments: "traveler and trip, as the TripRequest body of POST " + PathTrips + " in " + PathOpenAPI + ", and optionally language",
		Tags:      []string{"travel", "visa", "itinerary", "schengen", "x402"},
		Example:   `{"skill":"evaluate-trip","traveler":{"passports":["USA"]},"trip":{"legs":[{"country":"FRA","arrival":"2027-04-01","departure":"2027-04-10"}]}}`,
		Path:      PathTrips,
	},
}

// Tier is how the skill is paid for: as its REST route.
func (sk A2ASkill) Tier() Tier {
	r, ok := route(sk.Path)
	if !ok {
		panic("discovery: A2A skill " + sk.ID + " answers as " + sk.Path + ", which is no route") // a programming error
	}
	return r.Tier
}
