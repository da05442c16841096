package evaluation

import (
	"slices"
	"testing"

	"github.com/entrycheck/entrycheck"
)

// TestCountSchengenDays: the 90/180 count at its boundaries, stay by stay.
func TestCountSchengenDays(t *testing.T) {
	type want struct {
		distinct, peak    int
		peakEnd           string // "" for none
		exceeded, undated int
		firstOver         []string // per stay, "" for none
		usedAtEnd         []int    // per stay, -1 when not computable
	}
	cases := []struct {
		name  string
		stays []datedStay
		want  want
	}{
		{"no stay", nil, want{0, 0, "", -1, -1, []string{}, []int{}}},
		{"exactly 90 days", stays("2027-01-01", "2027-03-31"),
			want{90, 90, "2027-03-31", -1, -1, []string{""}, []int{90}}},
		{"91 days: the 91st is over", stays("2027-01-01", "2027-04-01"),
			want{91, 91, "2027-04-01", 0, -1, []string{"2027-04-01"}, []int{91}}},
		{"a day just outside the window", stays("2027-01-01", "2027-03-31", "2027-06-30", "2027-06-30"),
			want{91, 90, "2027-03-31", -1, -1, []string{"", ""}, []int{90, 90}}},
		{"a day just inside the window", stays("2027-01-01", "2027-03-31", "2027-06-29", "2027-06-29"),
			want{91, 91, "2027-06-29", 1, -1, []string{"", "2027-06-29"}, []int{90, 91}}},
		{"the window slides off an earlier stay", stays("2027-01-01", "2027-03-01", "2027-06-01", "2027-07-31"),
			want{121, 89, "2027-06-29", -1, -1, []string{"", ""}, []int{60, 89}}},
		{"a border crossing day counts once", stays("2027-01-01", "2027-02-14", "2027-02-14", "2027-03-31"),
			want{90, 90, "2027-03-31", -1, -1, []string{"", ""}, []int{45, 90}}},
		{"adjacent stays add up", stays("2027-01-01", "2027-02-14", "2027-02-15", "2027-04-01"),
			want{91, 91, "2027-04-01", 1, -1, []string{"", "2027-04-01"}, []int{45, 91}}},
		{"overlapping stays count each day once", stays("2027-01-01", "2027-03-01", "2027-02-01", "2027-03-31"),
			want{90, 90, "2027-03-31", -1, -1, []string{"", ""}, []int{60, 90}}},
		{"a stay with one date counts that day; one with none counts nothing",
			append(stays("2027-01-01", "2027-01-10", "2027-02-01", ""), datedStay{}),
			want{11, 11, "2027-02-01", -1, 2, []string{"", "", ""}, []int{10, -1, -1}}},
		{"a departure alone counts that day", stays("", "2027-05-05"),
			want{1, 1, "2027-05-05", -1, 0, []string{""}, []int{-1}}},
		{"the earliest day over names the stay", stays("2027-01-01", "2027-12-31", "2028-01-01", "2028-01-05"),
			want{370, 180, "2027-06-29", 0, -1, []string{"2027-04-01", "2028-01-01"}, []int{180, 180}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := countSchengenDays(c.stays)
			got := want{d.distinct, d.peak, "", d.exceeded, d.undated, []string{}, []int{}}
			if !d.peakEnd.IsZero() {
				got.peakEnd = d.peakEnd.String()
			}
			for _, s := range d.stays {
				over, used := "", -1
				if !s.firstOver.IsZero() {
					over = s.firstOver.String()
				}
				if s.usedAtEnd.Valid {
					used = s.usedAtEnd.N
				}
				got.firstOver, got.usedAtEnd = append(got.firstOver, over), append(got.usedAtEnd, used)
			}
			if !slices.Equal(got.firstOver, c.want.firstOver) || !slices.Equal(got.usedAtEnd, c.want.usedAtEnd) ||
				got.distinct != c.want.distinct || got.peak != c.want.peak || got.peakEnd != c.want.peakEnd ||
				got.exceeded != c.want.exceeded || got.undated != c.want.undated {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// stays reads pairs of arrival and departure, "" for a date not given.
func stays(dates ...string) []datedStay {
	var out []datedStay
	for i := 0; i+1 < len(dates); i += 2 {
		out = append(out, datedStay{arrival: dateOrNil(dates[i]), departure: dateOrNil(dates[i+1])})
	}
	return out
}

func dateOrNil(s string) *entrycheck.Date {
	if s == "" {
		return nil
	}
	d, err := entrycheck.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}
