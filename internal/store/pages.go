package store

import (
	"context"
	"fmt"
	"time"
)

// SourcePage is the last good reading of a cited page: the validators for
// a conditional request and the main text with its fingerprint, which the
// next reading is compared with.
type SourcePage struct {
	URL          string
	ETag         string
	LastModified string
	Fingerprint  string
	Text         string
	ReadAt       time.Time
}

// SourcePages returns every page kept, by URL.
func (s *Store) SourcePages(ctx context.Context) (map[string]SourcePage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT url, etag, last_modified, fingerprint, text, read_at FROM source_pages`)
	if err != nil {
		return nil, fmt.Errorf("reading source pages: %w", err)
	}
	defer rows.Close()
	out := map[string]SourcePage{}
	for rows.Next() {
		var p SourcePage
		var at int64
		if err := rows.Scan(&p.URL, &p.ETag, &p.LastModified, &p.Fingerprint, &p.Text, &at); err != nil {
			return nil, fmt.Errorf("reading source pages: %w", err)
		}
		p.ReadAt = time.Unix(at, 0).UTC()
		out[p.URL] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading source pages: %w", err)
	}
	return out, nil
}

// PutSourcePages writes pages in one transaction, replacing what was kept
// for their URLs.
func (s *Store) PutSourcePages(ctx context.Context, pages []SourcePage) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("keeping source pages: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO source_pages (url, etag, last_modified, fingerprint, text, read_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
			fingerprint = excluded.fingerprint, text = excluded.text, read_at = excluded.read_at`))
	if err != nil {
		return fmt.Errorf("keeping source pages: %w", err)
	}
	defer stmt.Close()
	for _, p := range pages {
		if _, err := stmt.ExecContext(ctx, p.URL, p.ETag, p.LastModified, p.Fingerprint, p.Text, p.ReadAt.Unix()); err != nil {
			return fmt.Errorf("keeping source page %s: %w", p.URL, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("keeping source pages: %w", err)
	}
	return nil
}
