package sweep_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Rule 8: a PR closed after the listing (by a person, by a concurrent run)
// is left alone: no review nudge is posted into it either. A page of open
// PRs carries their histories, so the PR closed while the run lists (before
// the page that would list it) is neither listed nor nudged. One closed
// after its page was read is not read again before its nudge: a comment
// and a label added on a closed PR are noise, not harm, and a fresh read
// would cost a request per nudge.
func TestNudgeNotPostedOnAPRClosedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	other := w.openPR(10, alice) // nudged: the run did list and decide
	w.fake.RequestReview(other, alice, daysAgo(10), "rey")
	res := w.sfRun(nudgeInputs, sfOpts{base: &hookBase{match: isOpenPage, hook: func() {
		w.fake.Close(n, maint, w.now(), "not planned")
	}}})
	if c := w.notices(n, "nudge"); c != 0 || w.hasLabel(n, "waiting-on-review") || has(res.Nudged(), n) {
		t.Errorf("#%d closed since the listing: %d nudges, labels %v, nudged %v; want it left alone",
			n, c, w.labels(n), has(res.Nudged(), n))
	}
	if !has(res.Nudged(), other) || w.notices(other, "nudge") != 1 {
		t.Errorf("#%d, open, was not nudged: %d nudges (the run must nudge what it lists)", other, w.notices(other, "nudge"))
	}
}

// Rule 5 under stale-clock: author-turn: a PR closed as stale and reopened
// (by its author, or by a maintainer) is fresh: the next run neither marks
// nor closes it.
func TestTurnReopenedIsFresh(t *testing.T) {
	t.Parallel()
	for _, by := range []fakegithub.User{alice, maint} {
		t.Run(by.Login, func(t *testing.T) {
			w := turnWorld(t)
			f := w.fake
			n := w.openPR(60, alice)
			f.Review(n, maint, daysAgo(40), "CHANGES_REQUESTED", "please rename")
			w.run(authorTurnInputs) // marks: 40 days on the author's turn
			w.clock.Advance(6 * lifecycle.Day)
			w.run(authorTurnInputs) // closes
			if w.state(n) != "closed" {
				t.Fatalf("#%d: %s, %v; want closed as stale first", n, w.state(n), w.labels(n))
			}
			w.clock.Advance(lifecycle.Day)
			f.Reopen(n, by, w.now())
			w.clock.Advance(lifecycle.Day / 24)
			res := w.run(authorTurnInputs)
			if w.hasLabel(n, "stale") || w.state(n) != "open" || has(res.Marked(), n) {
				t.Errorf("#%d reopened by %s an hour ago: %s, labels %v; want open and not stale", n, by.Login, w.state(n), w.labels(n))
			}
		})
	}
}

// Rule 3, remove-stale-when-updated: false: a push after the mark postpones
// the close. A review nudge posted after that push (while the nudge was on)
// is our comment but says nothing of what came between the mark and it: a
// run that reads the repository's comments (three stale PRs) must not take
// it for "nothing happened after the mark" and close on the mark's clock.
func TestKeptLabelPushBeforeANudgeStillPostponesTheClose(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	on := map[string]string{"days-before-stale": "10", "days-before-close": "20", "remove-stale-when-updated": "false",
		"days-before-review-nudge": "7"}
	off := sfWith(on, "days-before-review-nudge", "-1")
	n := w.markedPR(15)
	for range 2 { // on their author's turn: not nudged, and their notices open the comment listing's window
		m := w.markedPR(15)
		w.fake.Comment(m, maint, daysAgo(20), "please add a test")
	}
	w.fake.Push(n, "alice", daysAgo(12), "the fix") // after the mark: the close moves to 8 days from now
	w.run(on)
	if w.notices(n, "nudge") != 1 {
		t.Fatalf("#%d: %d nudges, want 1 (setup)", n, w.notices(n, "nudge"))
	}
	w.clock.Advance(6 * lifecycle.Day) // due from the mark, not from the push
	res := w.run(off)
	if w.state(n) != "open" || has(res.Closed(), n) {
		t.Errorf("#%d closed 18 days after a push that postpones its close by 20", n)
	}
	w.clock.Advance(3 * lifecycle.Day)
	w.run(off)
	if w.state(n) != "closed" {
		t.Errorf("#%d: %s 21 days after the push, want closed", n, w.state(n))
	}
}

// Concurrent runs' copies are deleted, never a notice of a new mark: with
// days-before-stale: 0 and runs more often than hourly, a PR un-staled
// after a person's comment is marked again within the hour. Its new notice
// is no copy of the old one (the un-stale lies between them), also when the
// run learns of the old one from the repository's comments only.
func TestDupNewMarkWithinTheHourIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"days-before-stale": "0", "days-before-close": "5"}
	n := w.pr(1)
	w.pr(1)
	w.pr(1)
	w.run(inputs) // marks all three
	if w.notices(n, "stale") != 1 {
		t.Fatalf("#%d: %d notices after the first run, want 1", n, w.notices(n, "stale"))
	}
	w.clock.Advance(10 * time.Minute)
	w.fake.Comment(n, bob, w.now(), "still working on it")
	w.clock.Advance(10 * time.Minute)
	res := w.run(inputs)
	if w.hasLabel(n, "stale") || !has(res.Unstaled(), n) {
		t.Fatalf("#%d not un-staled after bob's comment (setup): %v", n, w.labels(n))
	}
	for i := range 3 {
		w.clock.Advance(10 * time.Minute)
		w.run(inputs)
		if c := w.notices(n, "stale"); c != 2 || !w.hasLabel(n, "stale") {
			t.Errorf("run %d after the un-stale: #%d has %d stale notices, labels %v; want the old and the new mark's, stale",
				i+1, n, c, w.labels(n))
		}
	}
}
