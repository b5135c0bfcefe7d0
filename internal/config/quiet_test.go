package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestQuietPeriodsRefused: each bad quiet-periods value is refused by
// Parse, before any request, naming the input, saying what is wrong,
// what is accepted, and quoting the value.
func TestQuietPeriodsRefused(t *testing.T) {
	t.Parallel()
	many := strings.TrimSuffix(strings.Repeat("2026-12-25,", maxQuietItems+1), ",")
	cases := []struct{ value, problem string }{
		{"2027-01-06..2026-12-20", `"2027-01-06..2026-12-20" ends before it starts`},
		{"2026-12-20..2027-13-06", `"2027-13-06" in "2026-12-20..2027-13-06" is not a date YYYY-MM-DD`},
		{"2026-12-20 .. 2027-1-6", `"2027-1-6" in "2026-12-20 .. 2027-1-6" is not a date YYYY-MM-DD`},
		{"12/25/2026", `"12/25/2026" in "12/25/2026" is not a date YYYY-MM-DD`},
		{"2026-02-30", `"2026-02-30" in "2026-02-30" is not a date YYYY-MM-DD`},
		{"sat, holiday", `"holiday" is neither a date nor a weekday`},
		{"satur", `"satur" is neither a date nor a weekday`},
		{"2026-12-20..", `"" in "2026-12-20.." is not a date YYYY-MM-DD`},
		{"2026-01-01..2027-01-02", `"2026-01-01..2027-01-02" is longer than 366 days`},
		{"mon,tue,wed,thu,fri,sat,sun", "all seven weekdays are quiet, so no clock would ever run"},
		{many, "51 items, at most 50 are accepted"},
	}
	for _, c := range cases {
		_, err := Parse(source(map[string]string{"quiet-periods": c.value}, nil))
		want := `input "quiet-periods": ` + c.problem + `: want ` + quietForms + `, got ` + quote(c.value)
		var ie *InputError
		if err == nil || !errors.As(err, &ie) || err.Error() != want {
			t.Errorf("quiet-periods %q:\n got %v\nwant %s", c.value, err, want)
		}
	}
}

// TestQuietPeriodsAccepted: ranges (both days in), single dates and
// weekdays in any letter case, overlapping ranges, one a line.
func TestQuietPeriodsAccepted(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d.Add(12 * time.Hour) }
	cases := []struct {
		value         string
		quiet, active []string
	}{
		{"", nil, []string{"2026-12-25", "2026-12-26"}},
		{"2026-12-20..2027-01-06", []string{"2026-12-20", "2027-01-06"}, []string{"2026-12-19", "2027-01-07"}},
		{" 2026-12-25 , Sat,SUNDAY ", []string{"2026-12-25", "2026-12-26", "2026-12-27"}, []string{"2026-12-24", "2026-12-28"}},
		{"2026-12-20..2026-12-31,2026-12-28..2027-01-02", []string{"2026-12-31", "2027-01-02"}, []string{"2027-01-03"}},
		{"2026-12-24\nfri", []string{"2026-12-24", "2026-12-18"}, []string{"2026-12-17"}},
		{"2026-12-20..2026-12-20", []string{"2026-12-20"}, []string{"2026-12-21"}},
	}
	for _, c := range cases {
		q := mustParse(t, map[string]string{"quiet-periods": c.value}).Policy.Quiet
		for _, d := range c.quiet {
			if !q.Paused(day(d)) {
				t.Errorf("quiet-periods %q: %s is not quiet", c.value, d)
			}
		}
		for _, d := range c.active {
			if q.Paused(day(d)) {
				t.Errorf("quiet-periods %q: %s is quiet", c.value, d)
			}
		}
	}
}
