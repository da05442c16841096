package pagefetch

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Extract returns the main text of an HTML document, one line per block (a
// table row is one line, its cells separated by " | ": a rule table reads
// "Visitors from | Passport valid for" rather than loose cells), whitespace
// collapsed and empty lines dropped, lines joined with "\n".
//
// The main text is the first <main> (or role="main") element, else the
// document's only <article>, else <body>. Within it, what is not content is
// dropped: scripts, styles, embedded frames and graphics, forms,
// navigation, headers, footers and asides (by element or ARIA role), hidden
// elements, and elements whose class or id names them a cookie or consent
// notice, breadcrumb, skip link, alert or banner. An element that holds the
// page's <h1> or its <main> is never dropped: some sites wrap the whole page
// in a <form> (ASP.NET) or put the title in a <header>.
//
// Extract reads all of r; bound it beforehand.
func Extract(r io.Reader) (string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return "", fmt.Errorf("parsing HTML: %w", err)
	}
	root, keep := mainRoot(doc)
	t := textWalker{keep: keep}
	t.walk(root)
	return strings.Join(t.lines, "\n"), nil
}

// mainRoot finds the subtree holding the main text, and the elements that
// must be kept because they hold the page's <main> or <h1>.
func mainRoot(doc *html.Node) (*html.Node, map[*html.Node]bool) {
	var main, body *html.Node
	var markers []*html.Node
	for n := doc; n != nil; n = nextNode(n, doc, false) {
		if n.Type != html.ElementNode {
			continue
		}
		switch {
		case isMain(n):
			if main == nil {
				main = n
			}
			markers = append(markers, n)
		case n.DataAtom == atom.H1:
			markers = append(markers, n)
		case n.DataAtom == atom.Body && body == nil:
			body = n
		}
	}
	keep := map[*html.Node]bool{}
	for _, m := range markers {
		// Stop at the first ancestor already marked: every node is marked
		// once, however many markers share it.
		for a := m; a != nil && !keep[a]; a = a.Parent {
			keep[a] = true
		}
	}
	if main != nil {
		return main, keep
	}

	// A single <article> is the content; several are a listing. Articles in
	// dropped parts (a sidebar of teasers) do not count.
	var article *html.Node
	articles := 0
	for n := doc; n != nil; {
		isDropped := n.Type == html.ElementNode && n.DataAtom != atom.Html && n.DataAtom != atom.Body && dropped(n, keep)
		if !isDropped && n.Type == html.ElementNode && n.DataAtom == atom.Article {
			articles++
			article = n
		}
		n = nextNode(n, doc, isDropped)
	}
	switch {
	case articles == 1:
		return article, keep
	case body != nil:
		return body, keep
	}
	return doc, keep
}

func isMain(n *html.Node) bool {
	return n.DataAtom == atom.Main || role(n) == "main"
}

// nextNode returns the node after n in document order within root, or nil
// at the end; skip leaves n's children out. Walking by links rather than by
// recursion keeps a deeply nested document from growing the stack.
func nextNode(n, root *html.Node, skip bool) *html.Node {
	if !skip && n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != root; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// droppedTags are elements that never hold the content of a page.
var droppedTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Form: true, atom.Nav: true, atom.Header: true, atom.Footer: true, atom.Aside: true,
}

// droppedRoles are the ARIA landmark roles of a page's chrome.
var droppedRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "search": true,
}

// dropped says whether element n is left out of the main text.
func dropped(n *html.Node, keep map[*html.Node]bool) bool {
	if keep[n] {
		return false
	}
	if droppedTags[n.DataAtom] {
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "role":
			if droppedRoles[role(n)] {
				return true
			}
		case "class", "id":
			if boilerplateName(a.Val) {
				return true
			}
		}
	}
	return false
}

// role is the first (preferred) ARIA role of n, lower-cased.
func role(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "role" {
			if f := strings.Fields(strings.ToLower(a.Val)); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// boilerplateWords mark, as whole words of a class or id, elements that are
// a site's notices rather than a page's content.
var boilerplateWords = map[string]bool{
	"cookie": true, "cookies": true, "consent": true,
	"breadcrumb": true, "breadcrumbs": true,
	"banner": true, "alert": true,
	"skiplink": true, "skiplinks": true,
}

// boilerplateName says whether a class list or id names boilerplate:
// "govuk-cookie-banner", "breadcrumbs", "skip-link", "cookieConsent" do;
// "alerts-index" or "bannerless" do not.
func boilerplateName(v string) bool {
	for _, token := range strings.Fields(v) {
		words := nameWords(token)
		for i, w := range words {
			if boilerplateWords[w] {
				return true
			}
			if w == "skip" && i+1 < len(words) && (words[i+1] == "link" || words[i+1] == "links") {
				return true
			}
		}
	}
	return false
}

// nameWords splits a class or id token into lower-case words at
// punctuation and camelCase humps: "govuk-skipLink_x" → govuk, skip, link, x.
func nameWords(token string) []string {
	var words []string
	var w strings.Builder
	prevLower := false
	for _, r := range token {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if w.Len() > 0 {
				words = append(words, w.String())
				w.Reset()
			}
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			words = append(words, w.String())
			w.Reset()
		}
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		w.WriteRune(unicode.ToLower(r))
	}
	if w.Len() > 0 {
		words = append(words, w.String())
	}
	return words
}

// blockTags are the elements that start and end a line.
var blockTags = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Body: true, atom.Br: true, atom.Caption: true, atom.Dd: true, atom.Details: true,
	atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Form: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Header: true, atom.Hgroup: true, atom.Hr: true, atom.Html: true, atom.Legend: true,
	atom.Li: true, atom.Main: true, atom.Menu: true, atom.Nav: true, atom.Ol: true,
	atom.Option: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Summary: true,
	atom.Table: true, atom.Tbody: true, atom.Tfoot: true,
	atom.Thead: true, atom.Tr: true, atom.Ul: true,
}

// textWalker collects the lines of a subtree.
type textWalker struct {
	keep  map[*html.Node]bool
	root  *html.Node
	lines []string
	line  strings.Builder
	pre   int // depth of <pre> elements, whose line breaks are kept
}

// walk visits the subtree of root in document order, without recursion.
func (t *textWalker) walk(root *html.Node) {
	t.root = root
	for n := root; n != nil; {
		descend := t.enter(n)
		if descend && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		t.leave(n, descend)
		for n != root && n.NextSibling == nil {
			n = n.Parent
			t.leave(n, true)
		}
		if n == root {
			break
		}
		n = n.NextSibling
	}
	t.breakLine()
}

// enter handles the start of n and says whether its children are read.
func (t *textWalker) enter(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		t.text(n.Data)
		return false
	case html.DocumentNode:
		return true
	case html.ElementNode:
	default:
		return false // comments, doctype
	}
	if blockTags[n.DataAtom] {
		t.breakLine()
	}
	if (n.DataAtom == atom.Td || n.DataAtom == atom.Th) && strings.TrimSpace(t.line.String()) != "" {
		t.line.WriteString(" | ")
	}
	// The root was chosen as the content: its own class ("has-cookie-banner"
	// on <body>) says nothing.
	if n != t.root && dropped(n, t.keep) {
		return false
	}
	if n.DataAtom == atom.Pre {
		t.pre++
	}
	return true
}

// leave handles the end of n; entered says its children were read.
func (t *textWalker) leave(n *html.Node, entered bool) {
	if n.Type != html.ElementNode {
		return
	}
	if entered && n.DataAtom == atom.Pre && t.pre > 0 {
		t.pre--
	}
	if blockTags[n.DataAtom] {
		t.breakLine()
	}
}

func (t *textWalker) text(s string) {
	if t.pre == 0 {
		t.line.WriteString(s)
		return
	}
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			t.breakLine()
		}
		t.line.WriteString(part)
	}
}

// breakLine ends the current line, keeping it if anything but space is left.
func (t *textWalker) breakLine() {
	if t.line.Len() == 0 {
		return
	}
	if l := cleanLine(t.line.String()); l != "" {
		t.lines = append(t.lines, l)
	}
	t.line.Reset()
}
