package pagefetch_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"main preferred over body",
			`<body><p>outside</p><main><p>inside</p></main><p>after</p></body>`,
			"inside"},
		{"role=main",
			`<body><div>outside</div><div role="main"><p>inside</p></div></body>`,
			"inside"},
		{"first main only",
			`<body><main><p>one</p></main><main hidden><p>two</p></main></body>`,
			"one"},
		{"single article",
			`<body><p>intro</p><article><h1>Title</h1><p>rule</p></article></body>`,
			"Title\nrule"},
		{"several articles: body",
			`<body><p>intro</p><article><p>a</p></article><article><p>b</p></article></body>`,
			"intro\na\nb"},
		{"article in an aside does not count",
			`<body><p>rule</p><aside><article><p>teaser</p></article></aside></body>`,
			"rule"},
		{"no body element",
			`just text`,
			"just text"},
		{"dropped elements",
			`<main><script>var x = 1;</script><style>p{}</style><noscript>enable js</noscript>
			<template><p>tpl</p></template><svg><text>icon</text></svg><iframe src="/x">frame</iframe>
			<nav><a>Home</a></nav><header>Site header</header><footer>Footer</footer><aside>Aside</aside>
			<form><label>Search</label><input></form><p>kept</p></main>`,
			"kept"},
		{"dropped roles",
			`<main><div role="navigation">n</div><div role="banner">b</div><div role="contentinfo">c</div>
			<div role="complementary">x</div><div role="search">s</div><div role="region">kept</div></main>`,
			"kept"},
		{"boilerplate classes and ids",
			`<main><div class="gem-c-cookie-banner">c1</div><div id="cookieConsent">c2</div>
			<div class="govuk-breadcrumbs">b</div><a class="govuk-skip-link" href="#m">skip</a>
			<div class="alert alert-warning">a</div><div id="site_banner">s</div><div class="consent">c3</div>
			<div class="alerts-index">kept1</div><div class="bannerless">kept2</div><div class="skip">kept3</div></main>`,
			"kept1\nkept2\nkept3"},
		{"hidden",
			`<main><p hidden>h</p><p aria-hidden="true">a</p><p aria-hidden="false">kept</p></main>`,
			"kept"},
		{"root class is ignored",
			`<body class="js-enabled has-cookie-banner"><p>rule</p></body>`,
			"rule"},
		{"page-wrapping form kept",
			`<body><form id="aspnetForm" action="/x"><h1>Visas</h1><p>rule</p><nav>menu</nav></form></body>`,
			"Visas\nrule"},
		{"header holding the title kept",
			`<main><header><h1>Entry rules</h1></header><p>rule</p></main>`,
			"Entry rules\nrule"},
		{"whitespace",
			"<main><p>  Passports \n\t must be&nbsp;&nbsp;valid\u200b </p>\n\n<p> </p></main>",
			"Passports must be valid"},
		{"inline elements join",
			`<p>Visa-<b>free</b> for <a href="#">90</a><span> days</span>.</p>`,
			"Visa-free for 90 days."},
		{"blocks separate lines",
			`<h2>Title</h2><div>a<div>b</div>c</div><ul><li>one</li><li>two</li></ul><dl><dt>term</dt><dd>def</dd></dl>a<br>b<br/>c`,
			"Title\na\nb\nc\none\ntwo\nterm\ndef\na\nb\nc"},
		{"table cells",
			`<table><tr><th>Purpose</th><th>Visa</th></tr><tr><td>Tourism</td><td>No</td></tr></table>`,
			"Purpose | Visa\nTourism | No"},
		{"pre keeps line breaks",
			"<pre>line one\n  line two\n\nline three</pre>",
			"line one\nline two\nline three"},
		{"entities",
			`<p>Children &amp; infants &lt;2&gt; &#8211; free</p>`,
			"Children & infants <2> – free"},
		{"empty", ``, ""},
		{"only chrome", `<header>h</header><nav>n</nav><footer>f</footer>`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pagefetch.Extract(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Extract:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestExtractTooDeep(t *testing.T) {
	// The parser refuses absurd nesting; Extract reports it and does not
	// overflow anything.
	if _, err := pagefetch.Extract(strings.NewReader(strings.Repeat("<div>", 10000))); err == nil {
		t.Error("no error for 10000 nested elements")
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(`<main><p>a</p></main>`)
	f.Add(`<body class="cookie"><form><h1>x</h1></form><pre>a
b</pre><table><td>c`)
	f.Add(`<article><article><main role=main><svg><foreignObject><p>x`)
	f.Fuzz(func(t *testing.T, doc string) {
		got, err := pagefetch.Extract(strings.NewReader(doc))
		if err != nil {
			return
		}
		for l := range strings.Lines(got) {
			if strings.TrimSpace(l) == "" {
				t.Fatalf("empty line in %q", got)
			}
		}
	})
}

// TestTableDatesAreContent: a rule table's date cell is part of its row, so
// a change of it alone changes the fingerprint; a stamp under the table does
// not.
func TestTableDatesAreContent(t *testing.T) {
	page := func(date, stamp string) string {
		text, err := pagefetch.Extract(strings.NewReader(`<main><h1>Entry</h1><table><tr><th>Rule</th><th>From</th></tr>` +
			`<tr><td>Online registration</td><td>` + date + `</td></tr></table><p>` + stamp + `</p></main>`))
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	a, b := page("9 November 2025", "Last updated 3 March 2026"), page("10 April 2026", "Last updated 3 March 2026")
	if !strings.Contains(a, "Online registration | 9 November 2025") {
		t.Fatalf("row: %q", a)
	}
	if pagefetch.Fingerprint(a) == pagefetch.Fingerprint(b) {
		t.Error("a changed date in a rule table did not change the fingerprint")
	}
	if c := page("9 November 2025", "Last updated 4 April 2026"); pagefetch.Fingerprint(a) != pagefetch.Fingerprint(c) {
		t.Error("a changed stamp changed the fingerprint")
	}
}
