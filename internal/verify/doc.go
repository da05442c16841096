// Package verify re-reads the cited sources of the curated layer and keeps
// what it finds as events in the store's log (spec 6 and 9).
//
// A run reads every cited page (politely, see package pagefetch) and
// compares its main text with the last reading kept in the store:
//
//   - unchanged (or 304 Not Modified): source_reverified, and the records
//     citing the page are verified as of the run, once a curator has
//     confirmed the page's baseline;
//   - changed: source_changed, and one rule_flagged event for each record
//     citing the page, which is needs_review until a curator reviews it;
//   - unreadable (error status, timeout, robots.txt, too large...):
//     source_unreachable; the records keep their last verification, which
//     ages until they are stale;
//   - read for the first time: source_baselined, which verifies nothing
//     (there is nothing to compare with, and nobody has yet said that the
//     page says what the records say) but keeps the baseline, which awaits
//     a curator's confirmation.
//
// A curator accepts a flag (the record still holds against the changed
// page: verified as of the review) or rejects it (the record no longer
// holds: it stays flagged until the curated layer is corrected with a
// citation read after the review); a baseline is confirmed or rejected the
// same way, with the source_baselined event's id, for every record citing
// the page. Both are review events. A record is verified on the live page
// (RecordState.Live) only by a confirmed reading or by a curator's citation
// that says read_from live: a stored copy of unknown date verifies nothing.
//
// State folds the events into each record's verification state, which the
// evaluator turns into the answers' entry_rules_verification with the
// clock. Nothing here is claimed by a file: a record's state starts at its
// citation's retrieved_at date, the day a curator read the source, and only
// events move it.
package verify
