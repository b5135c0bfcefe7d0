package lifecycle_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// at is a UTC instant, "2026-12-01 10:00".
func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

// quiet builds quiet days from "FIRST..LAST" ranges and weekdays.
func quiet(t *testing.T, ranges []string, weekdays ...time.Weekday) lifecycle.Quiet {
	t.Helper()
	var rs []lifecycle.DayRange
	for _, r := range ranges {
		var first, last string
		if _, err := fmt.Sscanf(r, "%10s..%10s", &first, &last); err != nil {
			t.Fatalf("range %q: %v", r, err)
		}
		rs = append(rs, lifecycle.DayRange{First: at(first + " 00:00"), Last: at(last + " 00:00")})
	}
	q, err := lifecycle.NewQuiet(rs, weekdays)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// winter is the quiet period of the README's example: 18 days.
const winter = "2026-12-20..2027-01-06"

// TestQuietShiftsDates: every clock counts unquiet days only, so a date
// whose window holds quiet days moves by exactly as many days; a period
// outside the window moves nothing.
func TestQuietShiftsDates(t *testing.T) {
	weekend := []time.Weekday{time.Saturday, time.Sunday}
	cases := []struct {
		name     string
		ranges   []string
		weekdays []time.Weekday
		from     string // the clock's start
		days     int
		want     string
	}{
		{"no quiet days: calendar days", nil, nil, "2026-12-01 10:00", 30, "2026-12-31 10:00"},
		{"a window straddling the period moves by its 18 days", []string{winter}, nil, "2026-12-01 10:00", 30, "2027-01-18 10:00"},
		{"a period after the date moves nothing", []string{winter}, nil, "2026-11-01 10:00", 30, "2026-12-01 10:00"},
		{"a period before the start moves nothing", []string{winter}, nil, "2027-01-10 10:00", 7, "2027-01-17 10:00"},
		{"a clock started inside the period starts at its end", []string{winter}, nil, "2026-12-25 15:00", 7, "2027-01-14 00:00"},
		{"due at midnight before the period: at its end", []string{winter}, nil, "2026-12-10 00:00", 10, "2027-01-07 00:00"},
		{"due just before the period: unmoved", []string{winter}, nil, "2026-12-09 23:00", 10, "2026-12-19 23:00"},
		{"two periods: both count", []string{"2026-12-05..2026-12-06", "2026-12-24..2026-12-26"}, nil, "2026-12-01 10:00", 30, "2027-01-05 10:00"},
		{"overlapping ranges count each day once", []string{"2026-12-20..2026-12-31", "2026-12-25..2027-01-06"}, nil, "2026-12-01 10:00", 30, "2027-01-18 10:00"},
		{"one day", []string{"2026-12-25..2026-12-25"}, nil, "2026-12-01 10:00", 30, "2027-01-01 10:00"},
		// 2026-12-07 is a Monday: five weekdays later is the next Monday.
		{"weekends off: five days from a Monday is the next Monday", nil, weekend, "2026-12-07 10:00", 5, "2026-12-14 10:00"},
		{"weekends off: started on a Saturday, counted from Monday", nil, weekend, "2026-12-05 10:00", 1, "2026-12-08 00:00"},
		{"weekends and a range", []string{"2026-12-09..2026-12-09"}, weekend, "2026-12-07 10:00", 5, "2026-12-15 10:00"},
		{"zero days: the next unquiet instant", []string{winter}, nil, "2026-12-31 10:00", 0, "2027-01-07 00:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := lifecycle.Policy{DaysBeforeStale: c.days, DaysBeforeClose: c.days, DaysBeforeReviewNudge: c.days,
				Quiet: quiet(t, c.ranges, c.weekdays...)}
			from, want := at(c.from), at(c.want)
			for what, got := range map[string]time.Time{
				// A mark is due strictly after the days (StaleCutoff): its
				// first instant is one nanosecond past them.
				"MarkDate": p.MarkDate(from).Add(-time.Nanosecond), "CloseDate": p.CloseDate(from), "NudgeDate": p.NudgeDate(from),
			} {
				if !got.Equal(want) {
					t.Errorf("%s(%s) = %s, want %s", what, c.from, got.Format(time.DateTime), want.Format(time.DateTime))
				}
			}
		})
	}
}

// TestQuietDisabledClocks: -1 and an unknown start give no date, quiet
// days or not.
func TestQuietDisabledClocks(t *testing.T) {
	p := lifecycle.Policy{DaysBeforeStale: -1, DaysBeforeClose: -1, DaysBeforeReviewNudge: -1, Quiet: quiet(t, []string{winter})}
	if d := p.MarkDate(at("2026-12-01 10:00")); !d.IsZero() {
		t.Errorf("MarkDate with marking off = %v", d)
	}
	if d := p.CloseDate(at("2026-12-01 10:00")); !d.IsZero() {
		t.Errorf("CloseDate with closing off = %v", d)
	}
	if d := p.NudgeDate(at("2026-12-01 10:00")); !d.IsZero() {
		t.Errorf("NudgeDate with the nudge off = %v", d)
	}
	if _, ok := p.StaleCutoff(at("2026-12-01 10:00")); ok {
		t.Error("StaleCutoff with marking off: ok")
	}
	p.DaysBeforeStale = 5
	if d := p.MarkDate(time.Time{}); !d.IsZero() {
		t.Errorf("MarkDate of an unknown start = %v", d)
	}
}

// TestQuietCutoffAgreesWithMarkDate: the listing's cutoff and the mark
// date tell the same story for every last activity, hour by hour across
// the periods: active before the cutoff exactly when the mark date has
// come (from the period's end, when the run is inside one).
func TestQuietCutoffAgreesWithMarkDate(t *testing.T) {
	qs := map[string]lifecycle.Quiet{
		"winter":         quiet(t, []string{winter}),
		"weekends":       quiet(t, nil, time.Saturday, time.Sunday),
		"both":           quiet(t, []string{winter, "2026-12-10..2026-12-11"}, time.Sunday),
		"none":           {},
		"adjacent pairs": quiet(t, []string{"2026-12-20..2026-12-21", "2026-12-22..2026-12-23"}),
	}
	step := 7 * time.Hour // every hour of the day in turn, over three weeks
	if testing.Short() {
		step = 31 * time.Hour // a quarter of the runs, still every hour of the day over time
	}
	for name, q := range qs {
		for _, days := range []int{0, 1, 10} {
			p := lifecycle.Policy{DaysBeforeStale: days, Quiet: q}
			for now := at("2026-12-18 06:00"); now.Before(at("2027-01-10 00:00")); now = now.Add(step) {
				cutoff, _ := p.StaleCutoff(now)
				from := q.Resume(now)
				for last := now.Add(-40 * lifecycle.Day); !last.After(now); last = last.Add(time.Hour) {
					stale := last.Before(cutoff)
					due := !from.Before(p.MarkDate(last))
					if stale != due {
						t.Fatalf("%s, %d days, now %s, last %s: before cutoff %s = %v, but mark date %s passed = %v",
							name, days, now.Format(time.DateTime), last.Format(time.DateTime), cutoff.Format(time.DateTime), stale,
							p.MarkDate(last).Format(time.DateTime), due)
					}
				}
			}
		}
	}
}

// TestQuietPaused: whole UTC days, from the first midnight of a range to
// the end of its last day; Resume is the end of the run of quiet days.
func TestQuietPaused(t *testing.T) {
	q := quiet(t, []string{winter}, time.Friday) // 2027-01-08 is a Friday
	cases := []struct {
		t      string
		paused bool
		resume string
	}{
		{"2026-12-19 23:59", false, "2026-12-19 23:59"},
		{"2026-12-20 00:00", true, "2027-01-07 00:00"},
		{"2027-01-06 23:59", true, "2027-01-07 00:00"},
		{"2027-01-07 00:00", false, "2027-01-07 00:00"},
		{"2027-01-08 12:00", true, "2027-01-09 00:00"},
	}
	for _, c := range cases {
		if got := q.Paused(at(c.t)); got != c.paused {
			t.Errorf("Paused(%s) = %v, want %v", c.t, got, c.paused)
		}
		if got := q.Resume(at(c.t)); !got.Equal(at(c.resume)) {
			t.Errorf("Resume(%s) = %s, want %s", c.t, got.Format(time.DateTime), c.resume)
		}
	}
	if _, err := lifecycle.NewQuiet(nil, []time.Weekday{0, 1, 2, 3, 4, 5, 6}); err == nil {
		t.Error("NewQuiet with every weekday quiet: no error")
	}
}

// TestDecideQuiet: on a quiet day nothing is marked, told or closed and
// no nudge is posted, but an un-stale goes on; after the period the dates
// are the shifted ones.
func TestDecideQuiet(t *testing.T) {
	q := quiet(t, []string{winter})
	pol := func(opts ...func(*lifecycle.Policy)) lifecycle.Policy {
		return policy(append([]func(*lifecycle.Policy){func(p *lifecycle.Policy) { p.Quiet = q }}, opts...)...)
	}
	open := func(updated string) lifecycle.PR {
		return lifecycle.PR{Number: 1, Author: author, CreatedAt: at("2026-01-01 00:00"), UpdatedAt: at(updated)}
	}
	stale := func() lifecycle.PR { p := open("2026-12-01 10:00"); p.Labels = []string{staleLabel}; return p }
	cases := []struct {
		name    string
		pr      lifecycle.PR
		act     *lifecycle.Activity
		now     string
		want    lifecycle.Action
		reason  lifecycle.Reason
		closeAt string // "" when not checked
	}{
		{name: "due before the period, run inside it: held", pr: open("2026-11-15 10:00"), now: "2026-12-21 09:00",
			want: lifecycle.Keep, reason: lifecycle.ReasonQuiet},
		{name: "the window straddles the period: 30 days are not enough", pr: open("2026-12-10 10:00"), now: "2027-01-10 11:00",
			want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "the window straddles the period: 30 days and its 18", pr: open("2026-12-10 10:00"), now: "2027-01-27 11:00",
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, closeAt: "2027-02-03 11:00"},
		{name: "marked before a period in the future: the close date skips it", pr: open("2026-10-01 10:00"), now: "2026-12-15 09:00",
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, closeAt: "2027-01-09 09:00"},
		{name: "close due before the period, run inside it: held", pr: stale(), act: marked(at("2026-12-12 10:00")), now: "2026-12-21 09:00",
			want: lifecycle.Keep, reason: lifecycle.ReasonQuiet, closeAt: "2026-12-19 10:00"},
		{name: "the calendar close date falls inside the period: the clock stopped", pr: stale(), act: marked(at("2026-12-15 10:00")), now: "2026-12-23 09:00",
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: "2027-01-09 10:00"},
		{name: "closed on the shifted date", pr: stale(), act: marked(at("2026-12-15 10:00")), now: "2027-01-09 10:30",
			want: lifecycle.Close, reason: lifecycle.ReasonCloseDue, closeAt: "2027-01-09 10:00"},
		{name: "a day before it: waiting", pr: stale(), act: marked(at("2026-12-15 10:00")), now: "2027-01-08 10:30",
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: "2027-01-09 10:00"},
		{name: "a missing notice waits too", pr: stale(), act: &lifecycle.Activity{MarkedAt: at("2026-12-15 10:00")}, now: "2026-12-23 09:00",
			want: lifecycle.Keep, reason: lifecycle.ReasonQuiet},
		{name: "a person's activity un-stales inside the period",
			pr: stale(), act: &lifecycle.Activity{MarkedAt: at("2026-12-15 10:00"), NoticeAt: at("2026-12-15 10:00"),
				LastPersonAt: at("2026-12-22 08:00"), LastPersonLogin: author},
			now: "2026-12-23 09:00", want: lifecycle.Unstale, reason: lifecycle.ReasonPersonActivity},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := lifecycle.Decide(c.pr, c.act, at(c.now), pol())
			if d.Action != c.want || d.Reason != c.reason {
				t.Errorf("Decide = %v, want %v (%s)", d, c.want, c.reason)
			}
			if c.closeAt != "" && !d.CloseAt.Equal(at(c.closeAt)) {
				t.Errorf("CloseAt = %s, want %s", d.CloseAt.Format(time.DateTime), c.closeAt)
			}
		})
	}
}

// TestDecideNudgeQuiet: no nudge (nor its label) on a quiet day, the
// nudge's clock skips the period, and a passed turn's label still comes
// off.
func TestDecideNudgeQuiet(t *testing.T) {
	const label = "waiting-on-review"
	p := policy(func(p *lifecycle.Policy) {
		p.DaysBeforeReviewNudge, p.NudgeLabel, p.Quiet = 7, label, quiet(t, []string{winter})
	})
	open := lifecycle.PR{Number: 1, Author: author, CreatedAt: at("2026-12-01 00:00"), UpdatedAt: at("2026-12-18 10:00")}
	labelled := open
	labelled.Labels = []string{label}
	cases := []struct {
		name string
		pr   lifecycle.PR
		act  *lifecycle.Activity
		now  string
		want lifecycle.NudgeAction
	}{
		{"due inside the period: not posted", open, turnAct(lifecycle.TurnReviewers, at("2026-12-10 10:00")), "2026-12-21 09:00", lifecycle.NudgeNone},
		{"the missing label waits too", open, withNudge(turnAct(lifecycle.TurnReviewers, at("2026-12-10 10:00")), at("2026-12-18 10:00")),
			"2026-12-21 09:00", lifecycle.NudgeNone},
		{"the label of a passed turn comes off", labelled, turnAct(lifecycle.TurnAuthor, at("2026-12-19 10:00")), "2026-12-21 09:00", lifecycle.NudgeUnlabel},
		{"the turn straddles the period: 7 days are not enough", open, turnAct(lifecycle.TurnReviewers, at("2026-12-17 10:00")), "2027-01-08 09:00", lifecycle.NudgeNone},
		{"the turn straddles the period: posted 18 days later", open, turnAct(lifecycle.TurnReviewers, at("2026-12-17 10:00")), "2027-01-11 10:00", lifecycle.NudgePost},
		{"the listing asks for the turn of a PR due when the period ends", open, nil, "2026-12-21 09:00", lifecycle.NudgeDetail},
	}
	for _, c := range cases {
		if got := lifecycle.DecideNudge(c.pr, c.act, at(c.now), p); got != c.want {
			t.Errorf("%s: DecideNudge = %v, want %v", c.name, got, c.want)
		}
	}
}

func withNudge(a *lifecycle.Activity, nudgedAt time.Time) *lifecycle.Activity {
	a.Turn.NudgedAt = nudgedAt
	return a
}
