package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
)

// Source is a cited page and the records that cite it.
type Source struct {
	URL string
	// Name is the citation's name (the first record's).
	Name    string
	Records []entrycheck.CitedRecord
}

// Sources groups records by the page they cite, in the records' order.
func Sources(records []entrycheck.CitedRecord) []Source {
	index := map[string]int{}
	var out []Source
	for _, r := range records {
		i, ok := index[r.Source.URL]
		if !ok {
			i = len(out)
			index[r.Source.URL] = i
			out = append(out, Source{URL: r.Source.URL, Name: r.Source.Name})
		}
		out[i].Records = append(out[i].Records, r)
	}
	return out
}

// refs lists the records as event details name them.
func (s Source) refs() []changes.RecordRef {
	out := make([]changes.RecordRef, len(s.Records))
	for i, r := range s.Records {
		out[i] = changes.RecordRef{Destination: r.Destination, Field: r.Field}
	}
	return out
}

// destinations and fields are the event's lists: distinct and sorted.
func (s Source) destinations() []string {
	var out []string
	for _, r := range s.Records {
		if r.Destination != "" && !slices.Contains(out, r.Destination) {
			out = append(out, r.Destination)
		}
	}
	slices.Sort(out)
	return out
}

func (s Source) fields() []string {
	var out []string
	for _, r := range s.Records {
		if !slices.Contains(out, r.Field) {
			out = append(out, r.Field)
		}
	}
	slices.Sort(out)
	return out
}

// urlKey is a short stable name of a URL for event ids.
func urlKey(url string) string {
	h := sha256.Sum256([]byte(url))
	return hex.EncodeToString(h[:6])
}
