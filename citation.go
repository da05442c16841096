package entrycheck

import "strings"

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
// was read: the date the page gives itself and whether the curator read a
// stored copy. Every place that shows a citation uses it, so that a reader
// sees the same caveat on the pages, the markdown, the CLI and the MCP text.
// It is empty when nothing more is known.
func (c Citation) Detail() string {
	var parts []string
	if c.ContentDate != "" {
		parts = append(parts, "page dated "+c.ContentDate)
	}
	if c.ReadFrom == ReadFromStoredCopy {
		parts = append(parts, "read from a stored copy of unknown date")
	}
	return strings.Join(parts, "; ")
}

// ReadText is the day the page was read followed by its Detail, if any:
// "read 2026-11-22; page dated 2019-11-25; read from a stored copy of
// unknown date".
func (c Citation) ReadText(verb string) string {
	s := verb + " " + c.RetrievedAt.String()
	if d := c.Detail(); d != "" {
		s += "; " + d
	}
	return s
}
