package pagefetch

import (
	"bytes"
	"crypto/sha256"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// contentKind is how a body is read.
type contentKind int

const (
	kindBinary contentKind = iota // fingerprinted as raw bytes, no text
	kindHTML                      // main text extracted
	kindPlain                     // text taken as is
)

// readContent turns a 2xx body into the text and fingerprint of a result.
func readContent(contentType string, body []byte) (text, fingerprint string, fail *failure) {
	if len(body) == 0 {
		return "", "", &failure{reason: ReasonUnsupported, problem: "empty body"}
	}
	switch kindOf(contentType, body) {
	case kindHTML:
		text, err := Extract(decoded(body, contentType))
		if err != nil {
			return "", "", &failure{reason: ReasonUnsupported, problem: oneLine(err.Error())}
		}
		if text == "" {
			return "", "", &failure{reason: ReasonUnsupported, problem: "no main text in the HTML page"}
		}
		return text, Fingerprint(text), nil
	case kindPlain:
		raw, err := io.ReadAll(decoded(body, contentType))
		if err != nil {
			return "", "", &failure{reason: ReasonUnsupported, problem: oneLine("decoding text: " + err.Error())}
		}
		text := normalizeLines(string(raw))
		if text == "" {
			return "", "", &failure{reason: ReasonUnsupported, problem: "no text in the plain-text body"}
		}
		return text, Fingerprint(text), nil
	}
	// PDFs and the like: no text to compare, but a changed file is still
	// noticed.
	return "", sha256Hex(sha256.Sum256(body)), nil
}

// kindOf decides how to read a body from its declared type, sniffing the
// bytes when the server declares nothing useful, and trusting the bytes
// over a declaration of HTML when they are plainly a PDF.
func kindOf(contentType string, body []byte) contentKind {
	declared, _, err := mime.ParseMediaType(contentType)
	sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
	if err != nil || declared == "" || declared == "application/octet-stream" {
		declared = sniffed
	}
	switch {
	case sniffed == "application/pdf":
		return kindBinary
	case declared == "text/html" || declared == "application/xhtml+xml":
		return kindHTML
	case declared == "text/plain":
		return kindPlain
	}
	return kindBinary
}

// decoded reads body as UTF-8, converting from the charset the header or
// the document declares (many official sites still serve Windows-1252).
func decoded(body []byte, contentType string) io.Reader {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		// An unknown charset label: read the bytes as they are; invalid
		// UTF-8 becomes U+FFFD, which is stable from one day to the next.
		return bytes.NewReader(body)
	}
	return r
}

// normalizeLines cleans every line of s (see cleanLine) and drops the
// empty ones.
func normalizeLines(s string) string {
	var lines []string
	for l := range strings.Lines(s) {
		if l = cleanLine(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// cleanLine trims s and collapses each run of white space (no-break and
// other Unicode spaces included) to one space, removing the invisible
// characters that come and go with a site's editor: zero-width spaces,
// soft hyphens, byte-order marks, control characters.
func cleanLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u00ad' || unicode.IsControl(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// capText cuts s to at most n bytes, at the end of a line when there is
// one, otherwise between two characters.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n+1], '\n'); i > 0 {
		return s[:i]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
