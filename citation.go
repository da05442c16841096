package entrycheck

import "time"

// How a curator read a cited page (Citation.ReadFrom).
const (
	ReadFromLive       = "live"
	ReadFromStoredCopy = "stored_copy"
)

// Publisher kinds of a cited page (Citation.Publisher).
const (
	PublisherDestinationGovernment = "destination_government"
	PublisherOtherGovernment       = "other_government"
	PublisherIntergovernmental     = "intergovernmental"
)

// Detail says what is known of a cited page besides its name and the day it
// was read: how it was read and the date the page gives itself, in the
// words that follow that day ("from a stored copy of unknown date; the
// page is dated 25 November 2019"). Every place that shows a citation uses
// it (through ReadText), so that a reader sees the same caveat on the
// pages, the markdown, the CLI and the MCP text. It is empty when nothing
// more is known.
func (c Citation) Detail() string {
	how := map[string]string{ReadFromStoredCopy: "from a stored copy of unknown date", ReadFromLive: "on the live page"}[c.ReadFrom]
	if c.ContentDate == "" {
		return how
	}
	dated := "the page is dated " + contentDateWords(c.ContentDate)
	if how == "" {
		return dated
	}
	return how + "; " + dated
}

// contentDateWords is the date a page gives itself as people read it:
// "25 November 2019", "December 2024"; as written when it is neither.
func contentDateWords(s string) string {
	if d, err := ParseDate(s); err == nil {
		return d.Long()
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		return t.Format("January 2006")
	}
	return s
}

// ReadText is the day the page was read followed by its Detail, if any, as
// the short line of provenance under a fact reads after "Source: NAME, ":
// "read 22 November 2026 from a stored copy of unknown date; the page is
// dated 25 November 2019".
func (c Citation) ReadText(verb string) string {
	s := verb + " " + c.RetrievedAt.Long()
	switch d := c.Detail(); {
	case d == "":
	case c.ReadFrom == ReadFromStoredCopy || c.ReadFrom == ReadFromLive:
		s += " " + d
	default:
		s += "; " + d
	}
	return s
}
