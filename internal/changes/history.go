package changes

import "encoding/json"

// History says, from the recorded matrix events, since which snapshot each
// route's verdict holds, as the generator prints it on route pages.
// Baseline is the oldest snapshot the log knows (the current one when the
// log holds no matrix event); Changed maps {passport, destination} to the
// newest snapshot, not newer than current, in which the route changed.
func History(events []Event, current string) (baseline string, changed map[[2]string]string) {
	baseline, changed = current, map[[2]string]string{}
	for _, e := range events {
		if e.Kind != KindMatrixRuleChanged || e.DatasetVersion > current {
			continue
		}
		var rc RuleChange
		if json.Unmarshal(e.Details, &rc) != nil {
			continue
		}
		if rc.PreviousVersion != "" && rc.PreviousVersion < baseline {
			baseline = rc.PreviousVersion
		}
		key := [2]string{rc.Passport, rc.Destination}
		if e.DatasetVersion > changed[key] {
			changed[key] = e.DatasetVersion
		}
	}
	return baseline, changed
}
