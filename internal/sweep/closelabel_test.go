package sweep_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Rule 4 and the migration table: close-pr-label means "closed as stale".
// A PR closed so and reopened loses it on the next run (one write, that
// label only); closed PRs, issues and locked PRs keep theirs.
func TestCloseLabelComesOffReopenedPRs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"close-pr-label": "closed-stale"}
	reopened := w.pr(5, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale", "area/api"} })
	// Reopened, then marked again: it carries both labels.
	both := w.markedPR(3, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	closed := w.pr(50, func(is *fakegithub.Issue) {
		is.Labels, is.State, is.ClosedAt = []string{"closed-stale"}, "closed", daysAgo(50)
	})
	issue := w.fake.AddIssue(fakegithub.Issue{Title: "an issue closed-stale by another bot", User: alice,
		CreatedAt: daysAgo(100), UpdatedAt: daysAgo(5), Labels: []string{"closed-stale"}})
	lockedPR := w.pr(5, locked, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	closing := w.markedPR(40) // this run closes it: it keeps the label it gets

	res := w.run(inputs)
	if w.hasLabel(reopened, "closed-stale") || !w.hasLabel(reopened, "area/api") {
		t.Errorf("reopened #%d: labels %v, want closed-stale off and area/api kept", reopened, w.labels(reopened))
	}
	if got := w.writesTo(reopened); len(got) != 1 || got[0] != "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}" {
		t.Errorf("reopened #%d: writes %v, want the one label removal", reopened, got)
	}
	if w.hasLabel(both, "closed-stale") || !w.hasLabel(both, "stale") {
		t.Errorf("reopened and marked again #%d: labels %v, want stale only", both, w.labels(both))
	}
	for _, n := range []int{closed, issue, lockedPR} {
		if !w.hasLabel(n, "closed-stale") || len(w.writesTo(n)) != 0 {
			t.Errorf("#%d (closed, an issue, or locked) was touched: labels %v", n, w.labels(n))
		}
	}
	if w.state(closing) != "closed" || !w.hasLabel(closing, "closed-stale") {
		t.Errorf("#%d closed by this run: %s %v, want closed with closed-stale", closing, w.state(closing), w.labels(closing))
	}
	if !has(res.Cleaned(), reopened) || !has(res.Cleaned(), both) {
		t.Errorf("Cleaned = %v, want #%d and #%d", numbers(res.Cleaned()), reopened, both)
	}
	// The next run has nothing left to do about it.
	w.fake.Reset()
	w.run(inputs)
	for _, r := range w.fake.WriteRequests() {
		if strings.Contains(r.Route, "labels") {
			t.Errorf("second run: %s on #%d", r.Route, sfPROf(r))
		}
	}
}

// A run that finds a PR closed by a concurrent run since its
// listing leaves it alone: it keeps close-pr-label, gets no
// labels-to-add-when-unstale, and is not reported un-staled.
func TestConcurrentCloseIsNotTakenForAReopen(t *testing.T) {
	t.Parallel()
	inputs := sfWith(sfInputs, "close-pr-label", "closed-stale", "labels-to-add-when-unstale", "active")
	check := func(t *testing.T, w *world, prs []int, res sweep.Result) {
		t.Helper()
		for _, n := range prs {
			if w.state(n) != "closed" || !w.hasLabel(n, "closed-stale") || w.hasLabel(n, "active") || w.hasLabel(n, "stale") {
				t.Errorf("#%d: %s, labels %v; want closed with closed-stale only", n, w.state(n), w.labels(n))
			}
			if has(res.Unstaled(), n) {
				t.Errorf("#%d reported un-staled by the run that came second", n)
			}
		}
	}

	// The other run closes the PRs while this run lists: a page of open
	// PRs carries their histories, so this run's reads are its listing
	// pages, and the close comes before its first. (The histories of
	// PRs the page does not list are not read: a closed PR is left alone.)
	t.Run("closed before the reads", func(t *testing.T) {
		w := newWorld(t)
		prs := []int{w.markedPR(40), w.markedPR(45)}
		var other sweep.Result
		base := &hookBase{
			match: isOpenPage,
			hook:  func() { other = w.sfRun(inputs, sfOpts{}) },
		}
		w.fake.Reset()
		res := w.sfRun(inputs, sfOpts{base: base})
		if len(other.Closed()) != len(prs) {
			t.Fatalf("the other run closed %v, want %v", numbers(other.Closed()), prs)
		}
		check(t, w, prs, res)
		otherWrites := len(prs) * 2 // its closing comment and close for each
		if ws := w.fake.WriteRequests(); len(ws) != otherWrites {
			t.Errorf("%d writes, want the other run's %d: this run wrote to PRs closed before it read them", len(ws), otherWrites)
		}
	})

	// The other run reads before a person comments and closes after this
	// run has read (and found the comment): only a fresh read right before
	// the un-stale's label write can tell.
	t.Run("closed between the reads and the writes", func(t *testing.T) {
		w := newWorld(t)
		prs := []int{w.markedPR(40), w.markedPR(41), w.markedPR(42)}
		revived := prs[0]
		firstWrite := isWrite
		// The second run's reads are done once it writes, or reads the PRs
		// afresh before writing.
		afterReads := func(r *http.Request) bool { return firstWrite(r) || isNowRead(r) }
		ready, done := make(chan struct{}), make(chan struct{})
		pass := func() {
			select {
			case ready <- struct{}{}:
			case <-time.After(10 * time.Second):
				t.Error("the runs did not interleave as planned")
			}
		}
		wait := func() {
			select {
			case <-ready:
			case <-time.After(10 * time.Second):
				t.Error("the runs did not interleave as planned")
			}
		}
		var res sweep.Result
		go func() {
			defer close(done)
			wait()
			// This run's reads see the comment; its writes wait until the
			// other run has closed everything.
			res = w.sfRun(inputs, sfOpts{base: &hookBase{match: afterReads, hook: func() { pass(); wait() }}})
		}()
		other := w.sfRun(inputs, sfOpts{base: &hookBase{match: firstWrite, hook: func() {
			w.fake.Comment(revived, bob, w.now(), "please keep it open")
			pass() // start the second run
			wait() // until its reads are done
		}}})
		pass() // the other run is done: let the second one write
		<-done
		if !has(other.Closed(), revived) {
			t.Fatalf("the other run did not close #%d: %v", revived, numbers(other.Closed()))
		}
		check(t, w, []int{revived}, res)
		if r := why(res.Skipped(), revived); r != lifecycle.ReasonClosedSince {
			t.Errorf("#%d skipped as %q, want %q", revived, r, lifecycle.ReasonClosedSince)
		}
	})
}

// Item 2 meets item 4: a PR with close-pr-label that the listing showed
// open and another run closed since keeps the label.
func TestCloseLabelKeptOnAPRClosedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := sfWith(sfInputs, "close-pr-label", "closed-stale")
	// Closed as stale once, reopened, marked again, due again.
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.Labels = []string{"closed-stale"} })
	// This run skips it (exempt), so only its clean-up would touch it; the
	// other run, without the exemption, closes it after this run listed it.
	mine := sfWith(inputs, "exempt-pr-labels", "area/api")
	w.fake.Label(n, maint, daysAgo(41), "area/api")
	var other sweep.Result
	res := w.sfRun(mine, sfOpts{base: &hookBase{match: isNowRead, hook: func() { other = w.sfRun(inputs, sfOpts{}) }}})
	if !has(other.Closed(), n) {
		t.Fatalf("the other run did not close #%d", n)
	}
	if !w.hasLabel(n, "closed-stale") || has(res.Cleaned(), n) {
		t.Errorf("#%d closed by the other run: labels %v, cleaned %v; want closed-stale kept", n, w.labels(n), has(res.Cleaned(), n))
	}
	found := false
	for _, it := range res.Skipped() {
		found = found || it.Number == n && it.Reason == lifecycle.ReasonClosedSince
	}
	if !found {
		t.Errorf("#%d not skipped as %q: %+v", n, lifecycle.ReasonClosedSince, res.Skipped())
	}
}
