package entrycheck_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
)

func TestVerdictWords(t *testing.T) {
	for _, c := range []struct {
		r    entrycheck.Requirement
		d    entrycheck.Days
		want string
	}{
		{entrycheck.VisaFree, entrycheck.SomeDays(60), "Visa-free, up to 60 days"},
		{entrycheck.VisaFree, entrycheck.Days{}, "Visa-free, allowed stay: no limit given by the source"},
		{entrycheck.VisaOnArrival, entrycheck.SomeDays(1), "Visa on arrival, up to 1 day"},
		{entrycheck.VisaRequired, entrycheck.Days{}, "Visa required"},
	} {
		if got := entrycheck.VerdictWords(c.r.Label(), c.r, c.d); got != c.want {
			t.Errorf("VerdictWords(%s, %+v) = %q, want %q", c.r, c.d, got, c.want)
		}
	}
}

// TestEveryKindHasWords fails when an apply kind, an action or a trip
// condition has no words of its own: a surface would show its code.
func TestEveryKindHasWords(t *testing.T) {
	for _, k := range entrycheck.ApplyKinds() {
		if l := entrycheck.ApplyKindLabelIn(entrycheck.English(), k); l == k {
			t.Errorf("apply kind %s has no label", k)
		}
	}
	sentences := map[string]entrycheck.Action{}
	for _, r := range entrycheck.Requirements {
		a := r.Action()
		s := a.Sentence(r, false)
		if other, ok := sentences[s]; ok && other != a {
			t.Errorf("actions %s and %s read the same: %q", a, other, s)
		}
		sentences[s] = a
	}
	for _, kind := range []string{entrycheck.ConditionPassportValidity, entrycheck.ConditionStayDuration, entrycheck.ConditionSchengen, entrycheck.ConditionTransit,
		entrycheck.ConditionOnwardTicket, entrycheck.ConditionYellowFever, entrycheck.ConditionBlankPages, entrycheck.ConditionOtherHealth, entrycheck.ConditionVerdictAge} {
		if l := entrycheck.ConditionLabelIn(entrycheck.English(), kind); strings.Contains(l, "_") || l == "" || strings.ToUpper(l[:1]) != l[:1] {
			t.Errorf("condition %s is labelled %q", kind, l)
		}
	}
}
