package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestNext: the dated step after a decision is the first instant Decide
// takes it, from the facts the decision had and the write it makes; a date
// Decide would not keep is not given.
func TestNext(t *testing.T) {
	day := lifecycle.Day
	markAt := func(last time.Time) time.Time { return last.Add(staleDays*day + time.Nanosecond) }
	authorTurn := func(p *lifecycle.Policy) { p.StaleClock = lifecycle.ClockAuthorTurn }
	people := func(p *lifecycle.Policy) { p.ActivityFrom = lifecycle.People }
	young := with(pr(daysAgo(12)), created(daysAgo(20)))
	changes := lifecycle.Summarize(young, []lifecycle.Event{reviewed(daysAgo(12), maintainer, "MEMBER", "CHANGES_REQUESTED")}, staleLabel, nil)
	personAfterMark := marked(daysAgo(10))
	personAfterMark.LastPersonAt = daysAgo(1)
	cases := []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		policy lifecycle.Policy
		want   lifecycle.Step
	}{
		{"active: marked strictly after the days", pr(daysAgo(10)), nil, policy(),
			lifecycle.Step{Action: lifecycle.Mark, At: markAt(daysAgo(10))}},
		{"marking off: nothing", pr(daysAgo(10)), nil, policy(func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }), lifecycle.Step{}},
		{"exempt: nothing", pr(daysAgo(10), "pinned"), nil, policy(func(p *lifecycle.Policy) { p.ExemptLabels = []string{"pinned"} }), lifecycle.Step{}},
		{"marked now: the close it announces", pr(daysAgo(40)), nil, policy(),
			lifecycle.Step{Action: lifecycle.Close, At: now.Add(closeDays * day)}},
		{"stale, waiting: its close", pr(daysAgo(3), staleLabel), marked(daysAgo(3)), policy(),
			lifecycle.Step{Action: lifecycle.Close, At: daysAgo(3).Add(closeDays * day)}},
		{"un-staled: the label's removal starts the clock", pr(daysAgo(1), staleLabel), personAfterMark, policy(),
			lifecycle.Step{Action: lifecycle.Mark, At: markAt(now)}},
		{"un-staled, people: from the person's activity", pr(daysAgo(1), staleLabel), personAfterMark, policy(people),
			lifecycle.Step{Action: lifecycle.Mark, At: markAt(daysAgo(1))}},
		{"people, activity read: from the person's, not the bot's update", with(pr(daysAgo(1)), created(daysAgo(20))),
			&lifecycle.Activity{}, policy(people), lifecycle.Step{Action: lifecycle.Mark, At: markAt(daysAgo(20))}},
		{"people, listing only, a person may have acted: not dated", with(pr(daysAgo(1)), created(daysAgo(20))), nil, policy(people), lifecycle.Step{}},
		{"author-turn, young PR: from the change request, not the opening", young, &changes, policy(authorTurn),
			lifecycle.Step{Action: lifecycle.Mark, At: markAt(daysAgo(12))}},
		{"author-turn, turn not read: not dated", young, nil, policy(authorTurn), lifecycle.Step{}},
		{"awaiting review exempt, listing only: not dated", pr(daysAgo(10)), nil,
			policy(func(p *lifecycle.Policy) { p.ExemptAwaitingReview = true }), lifecycle.Step{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := lifecycle.Decide(c.pr, c.act, now, c.policy)
			got := lifecycle.Next(c.pr, c.act, d, now, c.policy)
			if got.Action != c.want.Action || !got.At.Equal(c.want.At) {
				t.Fatalf("after %v: Next = %v at %v, want %v at %v", d, got.Action, got.At, c.want.Action, c.want.At)
			}
			if got.At.IsZero() || d.Action == lifecycle.Mark || d.Action == lifecycle.Unstale {
				return // the step after a write is decided on the facts after it
			}
			if at := lifecycle.Decide(c.pr, c.act, got.At, c.policy).Action; at != got.Action {
				t.Errorf("Decide at %v = %v, want %v", got.At, at, got.Action)
			}
			if before := lifecycle.Decide(c.pr, c.act, got.At.Add(-time.Nanosecond), c.policy).Action; before != lifecycle.Keep {
				t.Errorf("Decide a nanosecond before = %v, want keep", before)
			}
		})
	}
}

// TestDecisionDueAt: the rule that decides dates its decision: when a mark
// or a close fell due, and after a keep (or a write a quiet period holds)
// when the next step falls due; Next takes its forecast from it.
func TestDecisionDueAt(t *testing.T) {
	day := lifecycle.Day
	markAt := func(last time.Time) time.Time { return last.Add(staleDays*day + time.Nanosecond) }
	noNotice := &lifecycle.Activity{MarkedAt: daysAgo(3)}
	today := dayOf(now)
	quietToday := func(p *lifecycle.Policy) {
		q, err := lifecycle.NewQuiet([]lifecycle.DayRange{{First: today, Last: today}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Quiet = q
	}
	cases := []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		policy lifecycle.Policy
		want   lifecycle.Action
		due    time.Time
	}{
		{"active: its mark", pr(daysAgo(10)), nil, policy(), lifecycle.Keep, markAt(daysAgo(10))},
		{"marked: when the mark fell due", pr(daysAgo(40)), nil, policy(), lifecycle.Mark, markAt(daysAgo(40))},
		{"closed at once (days-before-close 0): now", pr(daysAgo(40)), nil,
			policy(func(p *lifecycle.Policy) { p.DaysBeforeClose = 0 }), lifecycle.Close, now},
		{"stale, waiting: its close", pr(daysAgo(3), staleLabel), marked(daysAgo(3)), policy(), lifecycle.Keep,
			daysAgo(3).Add(closeDays * day)},
		{"stale, closing: when the close fell due", pr(daysAgo(9), staleLabel), marked(daysAgo(9)), policy(), lifecycle.Close,
			daysAgo(9).Add(closeDays * day)},
		{"notice missing: the close it announces", pr(daysAgo(3), staleLabel), noNotice, policy(), lifecycle.Notify,
			now.Add(closeDays * day)},
		{"a mark held by a quiet day: its mark's date", pr(daysAgo(40)), nil, policy(quietToday), lifecycle.Keep,
			markAt(daysAgo(40))},
		{"marking off: none", pr(daysAgo(40)), nil, policy(func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }),
			lifecycle.Keep, time.Time{}},
		{"exempt: none", pr(daysAgo(40), "pinned"), nil, policy(func(p *lifecycle.Policy) { p.ExemptLabels = []string{"pinned"} }),
			lifecycle.Skip, time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := lifecycle.Decide(c.pr, c.act, now, c.policy)
			if d.Action != c.want || !d.DueAt.Equal(c.due) {
				t.Errorf("Decide = %v, DueAt %v; want %v, DueAt %v", d, d.DueAt, c.want, c.due)
			}
		})
	}
}

// dayOf is the first instant of t's UTC day.
func dayOf(t time.Time) time.Time { return t.Truncate(lifecycle.Day) }
