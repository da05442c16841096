package entrycheck

import (
	"strconv"
	"time"

	"github.com/entrycheck/entrycheck/internal/locale"
)

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
func (c Citation) Detail() string { return c.DetailIn(English()) }

// DetailIn is Detail in the language of c.
func (c Citation) DetailIn(cat *locale.Catalog) string {
	how := ""
	if c.ReadFrom == ReadFromStoredCopy || c.ReadFrom == ReadFromLive {
		how = cat.Text("source.read_from." + c.ReadFrom)
	}
	if c.ContentDate == "" {
		return how
	}
	dated := cat.Text("source.dated", "date", contentDateWords(cat, c.ContentDate))
	if how == "" {
		return dated
	}
	return cat.Text("source.detail", "how", how, "dated", dated)
}

// contentDateWords is the date a page gives itself as people read it:
// "25 November 2019", "December 2024"; as written when it is neither.
func contentDateWords(c *locale.Catalog, s string) string {
	if d, err := ParseDate(s); err == nil {
		return d.LongIn(c)
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		return c.Text("source.month_year", "month", c.Text("date.month."+strconv.Itoa(int(t.Month()))), "year", strconv.Itoa(t.Year()))
	}
	return s
}

// ReadText is the day the page was read followed by its Detail, if any, as
// the short line of provenance under a fact reads after "Source: NAME, ":
// "read 22 November 2026 from a stored copy of unknown date; the page is
// dated 25 November 2019".
func (c Citation) ReadText() string { return c.ReadTextIn(English()) }

// ReadTextIn is ReadText in the language of c.
func (c Citation) ReadTextIn(cat *locale.Catalog) string {
	day := c.RetrievedAt.LongIn(cat)
	switch d := c.DetailIn(cat); {
	case d == "":
		return cat.Text("source.read", "date", day)
	case c.ReadFrom == ReadFromStoredCopy || c.ReadFrom == ReadFromLive:
		return cat.Text("source.read_detail", "date", day, "detail", d)
	default:
		return cat.Text("source.read_other_detail", "date", day, "detail", d)
	}
}
