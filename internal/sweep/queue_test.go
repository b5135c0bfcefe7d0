package sweep_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The queue views need, for every open PR looked at, its state after the
// run and when its next step falls due, from data the run has anyway: the
// run spends no request on them (the PR logic ignores the issue).
func TestQueueFactsComeFromTheSweep(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	soon := w.pr(85)          // marked in 5 days
	due := w.pr(95)           // marked by this run: closes in 30 days
	closing := w.markedPR(25) // closes in 5 days
	closed := w.markedPR(31)  // closed by this run: out of the queue
	revived := w.markedPR(10) // a person commented: un-staled
	w.fake.Comment(revived, bob, daysAgo(1), "still on it")
	exempt := w.pr(200, func(is *fakegithub.Issue) { is.Labels = []string{"pinned"} })
	w.fake.AddIssue(fakegithub.Issue{Title: "an issue", User: alice, CreatedAt: daysAgo(300), UpdatedAt: daysAgo(300)})

	res := w.run(map[string]string{"exempt-pr-labels": "pinned"})

	got := map[int]sweep.QueueItem{}
	for _, it := range res.Queue {
		got[it.Number] = it
	}
	if _, ok := got[closed]; ok {
		t.Errorf("#%d closed by the run is still in the queue", closed)
	}
	if len(got) != 5 {
		t.Errorf("queue has %d PRs, want 5 (no issue, not the closed PR): %+v", len(got), res.Queue)
	}
	day := 24 * time.Hour
	// A mark falls due strictly after days-before-stale days: its first
	// instant is a nanosecond past them (lifecycle.MarkDate).
	mark := func(last time.Time) time.Time { return last.Add(90*day + time.Nanosecond) }
	cases := []struct {
		name  string
		n     int
		state sweep.QueueState
		since time.Time
		due   time.Time
	}{
		{"fresh, mark due", soon, sweep.QueueFresh, daysAgo(85), mark(daysAgo(85))},
		{"marked now", due, sweep.QueueStale, t0, t0.Add(30 * day)},
		{"stale, close due", closing, sweep.QueueStale, daysAgo(25), daysAgo(25).Add(30 * day)},
		// Taking the label off moves updated_at: the clock starts again
		// now, not at the person's comment.
		{"revived", revived, sweep.QueueRevived, daysAgo(1), mark(t0)},
		{"exempt", exempt, sweep.QueueExempt, daysAgo(200), time.Time{}},
	}
	for _, c := range cases {
		it, ok := got[c.n]
		if !ok {
			t.Errorf("%s: #%d not in the queue", c.name, c.n)
			continue
		}
		if it.State != c.state || !it.Since.Equal(c.since) || !it.Due.Equal(c.due) {
			t.Errorf("%s: #%d = state %d since %v due %v; want state %d since %v due %v",
				c.name, c.n, it.State, it.Since, it.Due, c.state, c.since, c.due)
		}
	}
	if !res.ListedAll {
		t.Errorf("ListedAll = false; the one page held every open PR")
	}
}

// A listing stopped at the stale cutoff says how far it got: later marks are
// not known.
func TestQueueSaysHowFarTheListingWent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := 0; i < 150; i++ {
		w.pr(float64(150 - i)) // 150 PRs, one a day: the cutoff falls on page 1
	}
	res := w.run(nil)
	if res.ListedAll {
		t.Fatalf("ListedAll = true, but the listing stops at the first page past the cutoff")
	}
	page := ghapi.PullsPerPage
	last := daysAgo(float64(150 - page + 1))
	if !res.ListedUntil.Equal(last) {
		t.Errorf("ListedUntil = %v, want %v (the last PR of page 1)", res.ListedUntil, last)
	}
	if want := last.Add(90*24*time.Hour + time.Nanosecond); !res.MarksKnownUntil.Equal(want) {
		t.Errorf("MarksKnownUntil = %v, want %v (ListedUntil + 90 days)", res.MarksKnownUntil, want)
	}
	if len(res.Queue) != page {
		t.Errorf("queue has %d PRs, want the %d listed", len(res.Queue), page)
	}
}

// Under stale-clock: author-turn the queue carries each PR's turn as the
// run read it, and only a PR on its author's turn has a mark due; a PR on
// the reviewers' turn carries its nudge: posted by this run, or when it
// falls due. The facts come from the timelines the decision read anyway.
func TestQueueCarriesTurns(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	nudged := w.openPR(60, alice)  // never reviewed: the reviewers' turn, nudged now
	waiting := w.openPR(15, alice) // the reviewers' turn: nudged in 5 days
	author := w.openPR(60, alice)  // a change request 5 days ago: marked in 5 days
	f.Review(author, maint, daysAgo(5), "CHANGES_REQUESTED", "please rename")
	approved := w.openPR(60, alice) // the maintainers' turn: nothing falls due
	f.Review(approved, maint, daysAgo(40), "APPROVED", "lgtm")
	young := w.openPR(3, alice) // young: the page's history tells its turn all the same

	inputs := map[string]string{"days-before-review-nudge": "20"}
	for k, v := range authorTurnInputs {
		inputs[k] = v
	}
	res := w.run(inputs)
	if !res.OK() {
		t.Fatalf("run: failed %+v, stopped %v", res.Failed(), res.Stopped)
	}
	if res.StaleClock != lifecycle.ClockAuthorTurn {
		t.Errorf("StaleClock = %q: the queue views cannot tell to group by turn", res.StaleClock)
	}
	got := map[int]sweep.QueueItem{}
	for _, it := range res.Queue {
		got[it.Number] = it
	}
	day := 24 * time.Hour
	cases := []struct {
		name          string
		n             int
		turn          lifecycle.Whose
		since         time.Time
		due, nudgeDue time.Time
		wasNudged     bool
	}{
		{"reviewers, nudged now", nudged, lifecycle.TurnReviewers, daysAgo(60), time.Time{}, time.Time{}, true},
		{"reviewers, nudge due", waiting, lifecycle.TurnReviewers, daysAgo(15), time.Time{}, daysAgo(15).Add(20 * day), false},
		{"author, mark due", author, lifecycle.TurnAuthor, daysAgo(5), daysAgo(5).Add(10*day + time.Nanosecond), time.Time{}, false},
		{"maintainers, nudged now to merge", approved, lifecycle.TurnMaintainers, daysAgo(40), time.Time{}, time.Time{}, true},
		{"young, known from the page", young, lifecycle.TurnReviewers, daysAgo(3), time.Time{}, daysAgo(3).Add(20 * day), false},
	}
	for _, c := range cases {
		it, ok := got[c.n]
		if !ok {
			t.Errorf("%s: #%d not in the queue", c.name, c.n)
			continue
		}
		if it.Turn != c.turn || !it.TurnSince.Equal(c.since) || !it.Due.Equal(c.due) || !it.NudgeDue.Equal(c.nudgeDue) || it.Nudged != c.wasNudged {
			t.Errorf("%s: #%d = turn %v since %v, due %v, nudge due %v, nudged %v; want %v since %v, due %v, nudge due %v, nudged %v",
				c.name, c.n, it.Turn, it.TurnSince, it.Due, it.NudgeDue, it.Nudged, c.turn, c.since, c.due, c.nudgeDue, c.wasNudged)
		}
	}
	if it := got[nudged]; !it.NudgedAt.Equal(t0) {
		t.Errorf("#%d nudged by this run: NudgedAt = %v, want the run's %v", nudged, it.NudgedAt, t0)
	}
	// The next run finds the nudge of this turn in the timeline: nudged
	// earlier, nothing due.
	w.clock.Advance(lifecycle.Day)
	for _, it := range w.run(inputs).Queue {
		if it.Number == nudged && (it.Nudged || !it.NudgedAt.Equal(t0) || !it.NudgeDue.IsZero()) {
			t.Errorf("next run: #%d nudged %v at %v, due %v; want the earlier nudge at %v, none due", nudged, it.Nudged, it.NudgedAt, it.NudgeDue, t0)
		}
	}
	// The listing's page carries every PR's history: the queue's turns
	// cost nothing more, in either run.
	if got := w.historyReads(); got != 0 {
		t.Errorf("%d history reads in two runs, want none: the page gave every PR's turn", got)
	}
}
