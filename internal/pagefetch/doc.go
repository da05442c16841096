// Package pagefetch fetches the official pages the dataset cites, politely,
// and reduces each one to its main text and a fingerprint that changes when
// the content changes and not when the page's chrome does.
//
// It holds the HTTP side and the text side only: what an outcome means for a
// citation (stale, broken, changed) and where events are stored is decided
// by the caller. It imports nothing of the service.
//
// # Politeness
//
// The sources are government sites we depend on, fetched once a day; being a
// good guest matters more than speed:
//
//   - Every request names the service and its contact page in User-Agent
//     (Config.UserAgent is required) and asks for HTML in English.
//   - A request that carries the validators of the previous fetch is a
//     conditional GET, so an unchanged page costs the server a 304.
//   - Requests are grouped by origin (scheme, host and port). One origin is
//     fetched by one goroutine, one request at a time, with at least
//     Config.HostInterval between the end of one request and the start of
//     the next, robots.txt and retries included. A robots.txt Crawl-delay
//     for our agent lengthens that gap (capped at Config.MaxBackoff, so one
//     site cannot stall the whole run). Up to Config.Concurrency origins are
//     fetched at once.
//   - Retries are for failures that may pass: network errors, timeouts, 429
//     and 5xx. They back off exponentially from Config.Backoff, with jitter,
//     and honour Retry-After up to Config.MaxBackoff. Other 4xx are final.
//   - Bodies are capped (Config.MaxBody) and so is the extracted text, so a
//     misbehaving server cannot exhaust memory; every attempt has a deadline
//     (Config.Timeout) covering the whole exchange, body included.
//
// # robots.txt
//
// robots.txt is fetched once per origin per FetchAll and matched with the
// product token of the User-Agent (the part before the first "/" or space,
// e.g. "entrycheck-verifier"), through github.com/temoto/robotstxt:
//
//   - 2xx: its rules apply; an unparseable file allows everything.
//   - 4xx other than 429 (404, 410, but also 401 and 403): there is no
//     robots.txt to obey, everything is allowed, as Google does.
//   - 429, 5xx, timeout or network error after the usual retries: the
//     origin is not crawled in this run, as Google does. Its pages are
//     reported failed with the reason of the robots.txt failure (not as
//     robots_disallowed, which would wrongly say the site forbids us), and
//     are retried on the next run.
//   - Too many redirects: treated like 404 (allowed), as Google does.
//
// Only the origin of the requested URL is checked: a redirect to another
// host is followed without reading that host's robots.txt. The cited URLs
// are pages a person would follow to; the redirect is the site's own doing.
//
// # Fingerprints
//
// A page is fetched daily to notice when its rules change, so its
// fingerprint (see Fingerprint) must change with the rules and not with
// the page's churn. Besides the chrome Extract drops (banners, navigation,
// footer), what is neutralised in the main text is:
//
//   - stamp lines, dropped: "Last updated 3 March 2026", "Page last
//     reviewed: ... Next review due: ...", "Published ...", "Printed on
//     ...", "Generated ...", "As of <date>" alone on a line, and the like;
//   - lines that are only a date and/or time ("Monday, 22 November 2026 |
//     14:05 CET"), made one token;
//   - the date or time right after a stamp word in a longer line ("News —
//     updated 3 March 2026: ..."), made one token;
//   - view counters ("viewed 1,234 times") and copyright years ("© Crown
//     copyright 2026"), made tokens;
//   - case and white space.
//
// Every other date or time is kept: in the text of a page of entry
// requirements it is usually part of a rule ("Travellers must register
// from 9 November 2025", "valid until 31/12/2026"), and a rule whose only
// change is its date has changed. Summarize compares lines the same way,
// so it quotes such a line.
package pagefetch
