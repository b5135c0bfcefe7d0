package sweep_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
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
	cases := []struct {
		name  string
		n     int
		state sweep.QueueState
		since time.Time
		due   time.Time
	}{
		{"fresh, mark due", soon, sweep.QueueFresh, daysAgo(85), daysAgo(85).Add(90 * day)},
		{"marked now", due, sweep.QueueStale, t0, t0.Add(30 * day)},
		{"stale, close due", closing, sweep.QueueStale, daysAgo(25), daysAgo(25).Add(30 * day)},
		{"revived", revived, sweep.QueueRevived, daysAgo(1), daysAgo(1).Add(90 * day)},
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
	if want := daysAgo(51); !res.ListedUntil.Equal(want) {
		t.Errorf("ListedUntil = %v, want %v (the last PR of page 1)", res.ListedUntil, want)
	}
	if want := daysAgo(51).Add(90 * 24 * time.Hour); !res.MarksKnownUntil.Equal(want) {
		t.Errorf("MarksKnownUntil = %v, want %v (ListedUntil + 90 days)", res.MarksKnownUntil, want)
	}
	if len(res.Queue) != 100 {
		t.Errorf("queue has %d PRs, want the 100 listed", len(res.Queue))
	}
}
