package verify_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/pagefetch"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/verify"
)

// officialSite imitates the official pages the curated layer cites: every
// cited URL is answered by this one server (the transport below sends them
// here), with a government-style page per path whose rule text a test can
// change, and per-path failures.
type officialSite struct {
	mu      sync.Mutex
	rules   map[string]string // path -> rule text, when changed from the default
	failing map[string]int    // path -> status to answer
	stamp   string            // the "last updated" line, churn
}

func (s *officialSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	key := r.URL.Host + r.URL.Path
	if code := s.failing[key]; code != 0 {
		http.Error(w, http.StatusText(code), code)
		return
	}
	rule, ok := s.rules[key]
	if !ok {
		rule = "Passports must be valid for six months on arrival. Visitors may stay 60 days."
	}
	var body bytes.Buffer
	fmt.Fprintf(&body, `<!doctype html><html><head><title>Entry requirements</title></head><body>
<header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
<div class="cookie-banner">We use cookies. %s</div>
<main><h1>Entry requirements for %s</h1><p>%s</p><p>Last updated %s</p></main>
<footer>Crown copyright %s</footer></body></html>`, s.stamp, r.URL.Path, rule, s.stamp, s.stamp)
	etag := fmt.Sprintf(`"%x"`, sha256.Sum256(body.Bytes()))
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(body.Bytes())
}

func (s *officialSite) set(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

// toSite sends every request to the test server, keeping the original host
// and path in the URL the handler sees.
type toSite struct{ server *url.URL }

func (t toSite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	orig := *r.URL
	r.URL.Scheme, r.URL.Host = t.server.Scheme, t.server.Host
	r.URL.Path = "/" + orig.Host + orig.Path
	r.Host = t.server.Host
	return http.DefaultTransport.RoundTrip(r)
}

// rewritePaths undoes toSite's path prefix for the handler.
func rewritePaths(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		r.URL.Host, r.URL.Path = host, "/"+path
		h.ServeHTTP(w, r)
	})
}

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

func newRunner(t *testing.T, st *store.Store, records []entrycheck.CitedRecord, site *officialSite, c *clock) verify.Runner {
	t.Helper()
	srv := httptest.NewServer(rewritePaths(site))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	f, err := pagefetch.New(pagefetch.Config{UserAgent: "entrycheck-verifier/test (+http://127.0.0.1/transparency/)", Transport: toSite{u},
		Timeout: 5 * time.Second, Retries: 1, Backoff: time.Millisecond, HostInterval: time.Millisecond, Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	return verify.Runner{Store: st, Fetcher: f, Records: records, DatasetVersion: datatest.Current, Clock: c}
}

// TestStateTransitions follows Thailand's records through the life the
// daily verification gives them, on the real curated layer, with a
// controlled clock: stale while read only from stored copies and while the
// verifier's first live reading awaits a curator; verified once a curator
// confirms it, stale after the threshold without readings,
// needs_review after a change of a cited page, verified after a curator
// accepts it; a rejected flag stays; an unreachable page ages its records.
func TestStateTransitions(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	var tha []entrycheck.CitedRecord
	for _, r := range snap.Curated.Records() {
		if r.Destination == "THA" {
			tha = append(tha, r)
		}
	}
	if len(tha) < 3 {
		t.Fatalf("Thailand has %d cited records", len(tha))
	}
	validity := tha[slices.IndexFunc(tha, func(r entrycheck.CitedRecord) bool { return r.Field == entrycheck.FieldPassportValidity })]
	pu, _ := url.Parse(validity.Source.URL)
	validityKey := pu.Host + pu.Path
	cited := validity.Source.RetrievedAt.Time().Add(3 * time.Hour)

	for name, dsn := range datatest.StoreDSNs(t, "verify_test") {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			site := &officialSite{rules: map[string]string{}, failing: map[string]int{}, stamp: "1 March 2026"}
			c := &clock{t: cited}
			run := newRunner(t, st, tha, site, c)
			answer := func(days int) entrycheck.EntryRulesVerification {
				t.Helper()
				v, _, err := verify.Load(ctx, st, snap.Curated.Records())
				if err != nil {
					t.Fatal(err)
				}
				ev := evaluation.NewVerified(snap, v)
				res, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}, entrycheck.FixedClock(cited.AddDate(0, 0, days)))
				if err != nil {
					t.Fatal(err)
				}
				return res.EntryRulesVerification
			}
			runAt := func(days int) verify.Report {
				t.Helper()
				c.t = cited.AddDate(0, 0, days)
				rep, err := run.Run(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}

			// Day 0: the first reading is a baseline; it verifies nothing.
			rep := runAt(0)
			if rep.Baselined != len(verify.Sources(tha)) || rep.Reverified+rep.Changed+rep.Unreachable != 0 {
				t.Fatalf("first run: %+v", rep)
			}
			if v := answer(0); v.Status != entrycheck.RulesStale || v.Reason != entrycheck.ReasonAwaitingConfirmation || v.LastVerified.String() != validity.Source.RetrievedAt.String() {
				t.Fatalf("day 0: %+v", v)
			}
			// Day 10: the pages are the same but for their stamps: re-read
			// unchanged, which verifies nothing before a curator confirmed
			// the baselines.
			site.set(func() { site.stamp = "9 March 2026, 10:42" })
			rep = runAt(10)
			if rep.Reverified != len(verify.Sources(tha)) || rep.Changed != 0 {
				t.Fatalf("day 10: %+v", rep)
			}
			if v := answer(10); v.Status != entrycheck.RulesStale || v.Reason != entrycheck.ReasonAwaitingConfirmation || v.StalenessDays.N != 10 {
				t.Fatalf("day 10, unconfirmed: %+v", v)
			}
			// A curator confirms each baseline: verified as of the confirmation.
			folded, err := verify.LoadFolded(ctx, st, snap.Curated.Records())
			if err != nil {
				t.Fatal(err)
			}
			if len(folded.Baselines) != len(verify.Sources(tha)) || len(folded.Open) != 0 {
				t.Fatalf("baselines %+v, flags %+v", folded.Baselines, folded.Open)
			}
			if _, err := verify.Review(ctx, st, snap.Curated.Records(), folded.Baselines[0].ID, true, " ", datatest.Current, c.t); err == nil {
				t.Fatal("a confirmation without a note was recorded")
			}
			for _, b := range folded.Baselines {
				if len(b.Records) == 0 || b.Records[0].Destination != "THA" {
					t.Fatalf("baseline %+v", b)
				}
				if _, err := verify.Review(ctx, st, snap.Curated.Records(), b.ID, true, "Checked: the live page says what the records say.", datatest.Current, c.t); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := verify.Review(ctx, st, snap.Curated.Records(), folded.Baselines[0].ID, true, "again", datatest.Current, c.t); err == nil {
				t.Fatal("a baseline was confirmed twice")
			}
			if folded, _ := verify.LoadFolded(ctx, st, snap.Curated.Records()); len(folded.Baselines) != 0 {
				t.Fatalf("baselines after confirmation: %+v", folded.Baselines)
			}
			v := answer(10)
			if v.Status != entrycheck.RulesVerifiedOfficialSources || v.LastVerified.String() != entrycheck.DateOf(cited.AddDate(0, 0, 10)).String() || v.StalenessDays.N != 0 {
				t.Fatalf("day 10: %+v", v)
			}
			// No reading for 31 days: stale, by the clock alone.
			if v := answer(10 + entrycheck.StaleAfterDays + 1); v.Status != entrycheck.RulesStale || v.Reason != entrycheck.ReasonNotReverified || v.StalenessDays.N != entrycheck.StaleAfterDays+1 {
				t.Fatalf("day 41: %+v", v)
			}
			// Day 45: the passport-validity page changes its rule: flagged.
			site.set(func() {
				site.rules[validityKey] = "Passports must be valid for three months on arrival. Visitors may stay 60 days."
			})
			rep = runAt(45)
			if rep.Changed != 1 || rep.Flagged == 0 {
				t.Fatalf("day 45: %+v", rep)
			}
			v = answer(45)
			if v.Status != entrycheck.RulesNeedsReview || v.Reason != entrycheck.ReasonFlagged || !slices.Contains(v.FlaggedFields, entrycheck.FieldPassportValidity) {
				t.Fatalf("day 45: %+v", v)
			}
			_, open, err := verify.Load(ctx, st, snap.Curated.Records())
			if err != nil {
				t.Fatal(err)
			}
			// Every record citing the changed page is flagged.
			var flags []entrycheck.VerificationFlag
			for _, f := range open {
				if f.Record.Source.URL == validity.Source.URL {
					flags = append(flags, f)
				}
			}
			if len(flags) == 0 || len(flags) != len(open) || !strings.Contains(flags[0].Change, "three months") {
				t.Fatalf("open flags %+v", open)
			}
			flag := flags[0]
			// The next run finds every page unchanged (304 Not Modified to its
			// conditional request): the changed page's records stay flagged
			// until a curator reviews them.
			rep = runAt(46)
			for _, s := range rep.Sources {
				if s.Outcome != verify.OutcomeReverified || s.Detail != "not modified (HTTP 304)" {
					t.Fatalf("day 46: %+v", s)
				}
			}
			if v := answer(46); v.Status != entrycheck.RulesNeedsReview {
				t.Fatalf("day 46: %+v", v)
			}
			// A curator accepts: verified again, as of the review.
			c.t = cited.AddDate(0, 0, 47)
			if _, err := verify.Review(ctx, st, snap.Curated.Records(), flag.ID, true, "", datatest.Current, c.t); err == nil {
				t.Fatal("a review without a note was recorded")
			}
			for _, f := range flags {
				if _, err := verify.Review(ctx, st, snap.Curated.Records(), f.ID, true, "Checked: the page still says six months for visitors.", datatest.Current, c.t); err != nil {
					t.Fatal(err)
				}
			}
			v = answer(47)
			if v.Status != entrycheck.RulesVerifiedOfficialSources || len(v.FlaggedFields) != 0 || v.StalenessDays.N > 1 {
				t.Fatalf("after acceptance: %+v", v)
			}
			if _, err := verify.Review(ctx, st, snap.Curated.Records(), flag.ID, false, "again", datatest.Current, c.t); err == nil {
				t.Fatal("a flag was reviewed twice")
			}

			// Day 50: the page changes again and a curator rejects the record:
			// it stays flagged.
			site.set(func() { site.rules[validityKey] = "Passports must be valid for one month." })
			runAt(50)
			_, open, _ = verify.Load(ctx, st, snap.Curated.Records())
			if len(open) == 0 {
				t.Fatal("no flag after the second change")
			}
			if _, err := verify.Review(ctx, st, snap.Curated.Records(), open[0].ID, false, "The rule is now one month: the curated record must change.", datatest.Current, cited.AddDate(0, 0, 50)); err != nil {
				t.Fatal(err)
			}
			if v := answer(51); v.Status != entrycheck.RulesNeedsReview {
				t.Fatalf("after rejection: %+v", v)
			}

			// An unreachable page: its records keep their date, which ages.
			site.set(func() {
				site.rules = map[string]string{}
				site.failing[validityKey] = http.StatusInternalServerError
			})
			rep = runAt(52)
			if rep.Unreachable != 1 {
				t.Fatalf("day 52: %+v", rep)
			}
			events, err := changes.LoadVerification(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			o := verify.Summarize(events, nil)
			if len(o.Unreachable) != 1 || o.Unreachable[0].URL != validity.Source.URL || !strings.Contains(o.Unreachable[0].Problem, "500") {
				t.Fatalf("unreachable %+v", o.Unreachable)
			}
			if o.LastRun == nil || o.LastRun.Unreachable != 1 || o.LastRun.Reverified != len(verify.Sources(tha))-1 {
				t.Fatalf("last run %+v", o.LastRun)
			}
		})
	}
}

// TestOneInstanceRuns: instances sharing a PostgreSQL database run the
// verification once; the one that finds the lock taken skips the run.
func TestOneInstanceRuns(t *testing.T) {
	dsn, ok := datatest.StoreDSNs(t, "verify_lock_test")["postgresql"]
	if !ok {
		t.Skip("no PostgreSQL (ENTRYCHECK_TEST_POSTGRES_URL); CI runs this test")
	}
	ctx := context.Background()
	a, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ok, release, err := a.TryJobLock(ctx, verify.JobName)
	if err != nil || !ok {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	site := &officialSite{rules: map[string]string{}, failing: map[string]int{}}
	records := datatest.Evaluator(t).Snapshot().Curated.Records()[:2]
	rep, err := newRunner(t, b, records, site, &clock{t: time.Now()}).Run(ctx)
	if err != nil || !rep.Skipped {
		t.Fatalf("second instance while the first holds the lock: %+v %v", rep, err)
	}
	release()
	rep, err = newRunner(t, b, records, site, &clock{t: time.Now()}).Run(ctx)
	if err != nil || rep.Skipped || rep.Baselined == 0 {
		t.Fatalf("after release: %+v %v", rep, err)
	}
}

// offline is a network with no route anywhere: every dial fails at once,
// as on a machine without internet access.
type offline struct{}

func (offline) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("dial tcp: lookup %s: no such host", r.URL.Hostname())
}

// TestOffline reads every real citation with no network: the run ends,
// every source is recorded unreachable, no record changes state, and the
// feeds show the run.
func TestOffline(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	records := snap.Curated.Records()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir()+"/offline.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := pagefetch.New(pagefetch.Config{UserAgent: "entrycheck-verifier/test", Transport: offline{},
		Retries: 2, Backoff: time.Millisecond, HostInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	rep, err := verify.Runner{Store: st, Fetcher: f, Records: records, DatasetVersion: snap.Version(), Clock: entrycheck.FixedClock(at)}.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sources := verify.Sources(records)
	if len(sources) < 90 || rep.Unreachable != len(sources) || rep.Reverified+rep.Baselined+rep.Changed != 0 || len(rep.Sources) != len(sources) {
		t.Fatalf("%d sources: %d re-verified, %d baselined, %d changed, %d unreachable", len(sources), rep.Reverified, rep.Baselined, rep.Changed, rep.Unreachable)
	}
	v, open, err := verify.Load(ctx, st, records)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 0 {
		t.Fatalf("flags without a reading: %+v", open)
	}
	for _, r := range records {
		if s := v.StateOf(r); s.LastVerified != r.Source.RetrievedAt || s.Flagged {
			t.Fatalf("%+v: state %+v after an offline run", r, s)
		}
	}
	events, err := changes.Load(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := changes.Documents(changes.FeedSite{BaseURL: "https://entrycheck.example", DatasetVersion: snap.Version()}, events)
	if err != nil {
		t.Fatal(err)
	}
	current := map[string][]byte{}
	for _, d := range docs {
		current[d.Path] = d.Body
	}
	feed := current[changes.DefaultJSONPath]
	want := fmt.Sprintf(`"verification_days":[{"date":"2026-12-01","reverified":0,"baselined":0,"changed":0,"unreachable":%d`, len(sources))
	if !strings.Contains(string(feed), want) || !strings.Contains(string(feed), `"kind":"source_unreachable"`) {
		t.Fatalf("changes.json lacks the run: %.600s", feed)
	}
	atom := current[changes.DefaultAtomPath]
	if !strings.Contains(string(atom), fmt.Sprintf("Verification on 2026-12-01: 0 cited sources re-verified, %d unreachable", len(sources))) {
		t.Fatalf("the Atom feed lacks the day: %.600s", atom)
	}
}

func TestProblemsNameNoAddress(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir()+"/p.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := pagefetch.New(pagefetch.Config{UserAgent: "entrycheck-verifier/test", Transport: resolverDown{}, Retries: -1, HostInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	records := []entrycheck.CitedRecord{{Destination: "THA", Field: entrycheck.FieldApply, Source: entrycheck.Citation{Name: "x", URL: "https://example.org/a"}}}
	rep, err := verify.Runner{Store: st, Fetcher: f, Records: records, Clock: entrycheck.FixedClock(time.Now())}.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Sources[0].Detail; strings.Contains(d, "10.255.255.53") || strings.Contains(d, "192.0.2.7") || strings.Contains(d, "2001:db8") || !strings.Contains(d, "no such host") {
		t.Fatalf("problem %q", d)
	}
}

type resolverDown struct{}

func (resolverDown) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("dial tcp: lookup %s on 10.255.255.53:53: no such host (tried 192.0.2.7:443 and [2001:db8::1]:443)", r.URL.Hostname())
}
