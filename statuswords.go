package entrycheck

// What people read for the statuses of an answer; JSON keeps the codes.

var verdictStatusWords = map[string]string{
	VerdictSecondarySourceOnly: "from a secondary source only, not confirmed by an official source",
	VerdictNeedsReview:         "needs review: an official statement conflicts with the secondary visa table",
}

var rulesStatusWords = map[string]string{
	RulesVerifiedOfficialSources: "verified on the live official pages",
	RulesStale:                   "not verified on the live official pages",
	RulesNotCurated:              "not curated yet",
	RulesNeedsReview:             "needs review: a cited page changed",
}

var coverageWords = map[Coverage]string{
	CoverageExtended: "entry rules cited from official sources",
	CoverageBasic:    "no entry rule cited from an official source yet",
}

// VerdictStatusWords is a verdict_verification status in words.
func VerdictStatusWords(status string) string { return wordsOr(verdictStatusWords[status], status) }

// RulesStatusWords is an entry_rules_verification status in words.
func RulesStatusWords(status string) string { return wordsOr(rulesStatusWords[status], status) }

// Words is the coverage in words.
func (c Coverage) Words() string { return wordsOr(coverageWords[c], string(c)) }

func wordsOr(words, code string) string {
	if words == "" {
		return code
	}
	return words
}
