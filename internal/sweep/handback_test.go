package sweep_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Handing the turn back on the author's behalf, end to end through the
// HTTP path: docs/rules.md "Hand the turn back".

var rerequestInputs = map[string]string{"days-before-stale": "-1", "rerequest-reviewers-on-answer": "true"}

// answeredPR adds a PR by alice on which maint asked for changes d+2 days
// ago and alice pushed d days ago: GitHub lists no review request.
func (w *world) answeredPR(d float64) int {
	n := w.openPR(d+5, alice)
	w.fake.RequestReview(n, alice, daysAgo(d+4), maint.Login)
	w.fake.Review(n, maint, daysAgo(d+2), "CHANGES_REQUESTED", "please rename it")
	w.fake.Push(n, "alice", daysAgo(d), "renamed")
	return n
}

// requestsOf counts the review requests of login on PR n by actor.
func (w *world) requestsOf(n int, login string, actor fakegithub.User) int {
	c := 0
	for _, e := range w.fake.Events(n) {
		if e.Type == fakegithub.EventReviewRequested && strings.EqualFold(e.Reviewer, login) && e.Actor.Login == actor.Login {
			c++
		}
	}
	return c
}

// TestHandBackNudgeNamesAnsweredReviewers: the nudge names the pending
// requested reviewers and those whose change request the author answered
// (GitHub lists them no more); never the author, never a bot.
func TestHandBackNudgeNamesAnsweredReviewers(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.answeredPR(10)
	f.RequestReview(n, alice, daysAgo(9), "rey")
	f.RequestReview(n, alice, daysAgo(9), "Copilot")
	w.run(nudgeInputs)
	if w.notices(n, "nudge") != 1 {
		t.Fatalf("#%d: %d nudges, want 1", n, w.notices(n, "nudge"))
	}
	body := f.Comments(n)[0].Body
	if !strings.Contains(body, "@rey") || !strings.Contains(body, "@"+maint.Login) || strings.Count(body, "@") != 2 {
		t.Errorf("the nudge must mention @rey and @%s, and nobody else:\n%s", maint.Login, body)
	}
	if got := w.fake.Writes(); got != 2 {
		t.Errorf("%d writes without rerequest-reviewers-on-answer, want the nudge and its label", got)
	}
}

// TestHandBackRerequest: with rerequest-reviewers-on-answer, the reviewer
// who asked for changes is requested again once the author answered, once
// per answer; never when they reviewed again since.
func TestHandBackRerequest(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.answeredPR(1)
	unanswered := w.openPR(5, alice)
	f.Review(unanswered, maint, daysAgo(2), "CHANGES_REQUESTED", "please rename it")
	reviewedAgain := w.answeredPR(3)
	f.Review(reviewedAgain, mia, daysAgo(1), "COMMENTED", "looks better")
	f.Review(reviewedAgain, maint, daysAgo(1), "COMMENTED", "one more thing")

	res := w.run(rerequestInputs)
	if got := numbers(res.With(sweep.Rerequested)); len(got) != 1 || got[0] != n {
		t.Fatalf("re-requested %v, want #%d alone", got, n)
	}
	if c := w.requestsOf(n, maint.Login, action); c != 1 {
		t.Errorf("#%d: %d review requests of %s by stalepr, want 1", n, c, maint.Login)
	}
	if is := f.MustIssue(n); len(is.RequestedReviewers) != 1 || is.RequestedReviewers[0] != maint.Login {
		t.Errorf("#%d: requested reviewers %v, want [%s]", n, is.RequestedReviewers, maint.Login)
	}
	for _, m := range []int{unanswered, reviewedAgain} {
		if got := w.writesTo(m); len(got) != 0 {
			t.Errorf("#%d: writes %v, want none", m, got)
		}
	}
	// Once per answer: the next runs find our request after the answer.
	w.clock.Advance(lifecycle.Day)
	f.Reset()
	w.run(rerequestInputs)
	if got := f.Writes(); got != 0 {
		t.Errorf("a second run wrote %d times", got)
	}
	// The reviewer asks again and the author answers again: a new answer.
	f.Review(n, maint, w.now(), "CHANGES_REQUESTED", "and the docs")
	f.Comment(n, alice, w.now().Add(time.Hour), "done, see the docs")
	w.clock.Advance(lifecycle.Day)
	w.run(rerequestInputs)
	if c := w.requestsOf(n, maint.Login, action); c != 2 {
		t.Errorf("#%d: %d review requests by stalepr after a second answer, want 2", n, c)
	}
}

// TestHandBackRerequestDryRun: a dry run reports the re-request and sends
// no write.
func TestHandBackRerequestDryRun(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.answeredPR(1)
	res := w.run(sfWith(rerequestInputs, "debug-only", "true"))
	if got := w.fake.Writes(); got != 0 || !has(res.With(sweep.Rerequested), n) {
		t.Errorf("dry run: %d writes, re-requested %v; want none, and #%d reported", got, numbers(res.With(sweep.Rerequested)), n)
	}
}

// TestHandBackRerequestCrash: a run that dies right after the request
// (its answer lost) leaves the request in the history: the next run asks
// nothing again.
func TestHandBackRerequestCrash(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.answeredPR(1)
	w.sfKillAfter(1)
	w.run(rerequestInputs)
	w.fake.ClearFaults()
	if c := w.requestsOf(n, maint.Login, action); c != 1 {
		t.Fatalf("the killed run's request did not take effect: %d requests", c)
	}
	w.clock.Advance(time.Hour)
	w.checkNothingLeft(t, rerequestInputs)
}

// TestHandBackRerequestTwoRunsAtOnce: two runs planned from the same
// state leave one request of each reviewer; a run whose fresh read comes
// after the other's request sends none.
func TestHandBackRerequestTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	t.Run("planned together", func(t *testing.T) {
		t.Parallel()
		w := turnWorld(t)
		n := w.answeredPR(1)
		results := sfRunTwoAtOnce(w, rerequestInputs, true, nil)
		for i, r := range results {
			if !r.OK() {
				t.Errorf("run %d: failed %+v stopped %v", i, r.Failed(), r.Stopped)
			}
		}
		if c := w.requestsOf(n, maint.Login, action); c != 1 {
			t.Errorf("#%d: %d review requests after two runs at once, want 1", n, c)
		}
		posts := 0
		for _, r := range w.fake.WriteRequests() {
			if strings.HasSuffix(r.Route, "/requested_reviewers") {
				posts++
			}
		}
		if posts != 2 {
			t.Errorf("%d requests sent, want one by each run: the runs did not overlap as planned", posts)
		}
	})
	t.Run("one finishes while the other plans", func(t *testing.T) {
		t.Parallel()
		w := turnWorld(t)
		n := w.answeredPR(1)
		var second sweep.Result
		hook := &hookBase{
			match: func(r *http.Request) bool { return strings.Contains(graphqlDoc(r), "pullRequest(") },
			hook:  func() { second = w.run(rerequestInputs) },
		}
		first := w.sfRun(rerequestInputs, sfOpts{base: hook})
		if !has(second.With(sweep.Rerequested), n) || has(first.With(sweep.Rerequested), n) {
			t.Errorf("re-requested by the run that finished first %v, by the other %v; want the first only",
				numbers(second.With(sweep.Rerequested)), numbers(first.With(sweep.Rerequested)))
		}
		if c := w.requestsOf(n, maint.Login, action); c != 1 {
			t.Errorf("#%d: %d review requests, want 1", n, c)
		}
		if why(first.Items, n) != sweep.ReasonRequestedSince {
			t.Errorf("the later run's reason %q, want %q", why(first.Items, n), sweep.ReasonRequestedSince)
		}
	})
}

// TestHandBackCounted: the counts, the job summary and the dashboard say
// whose review a run requested again, naming them without a mention.
func TestHandBackCounted(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.answeredPR(1)
	inputs := sfWith(rerequestInputs, "stale-clock", "author-turn", "days-before-stale", "30")
	for _, dry := range []bool{true, false} {
		in, done := inputs, "review requested again"
		if dry {
			in, done = sfWith(inputs, "debug-only", "true"), "would request the review again"
		}
		res := w.run(in)
		if got := report.Counts(res); !strings.Contains(got, "requested again 1") && !strings.Contains(got, "reviews again 1") {
			t.Errorf("dry %v: counts %q name no re-request", dry, got)
		}
		cell := done + " (" + maint.Login + ")"
		if s := report.Summary(res, "octo/repo"); !strings.Contains(s, cell) || !strings.Contains(s, fmt.Sprintf("#%d", n)) {
			t.Errorf("dry %v: the summary has no %q for #%d:\n%s", dry, cell, n, s)
		}
		if d := report.Dashboard(res); !strings.Contains(d, cell) || strings.Contains(d, "@"+maint.Login) {
			t.Errorf("dry %v: the dashboard has no %q, or mentions the reviewer:\n%s", dry, cell, d)
		}
	}
}

// TestHandBackCost: the hand-back costs the open listing read to its end
// (the histories come with its pages) and, per re-request, one GraphQL
// read of the PR (one point) and the request.
func TestHandBackCost(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	const quiet = 150
	for range quiet {
		w.openPR(30, alice)
	}
	w.answeredPR(1)
	res := w.run(rerequestInputs)
	pages := pagesOf(quiet + 1)
	// The open pages, the recently closed page (duplicate read-back), the fresh read.
	if res.Writes != 1 || res.Queries != pages+2 || res.Points != pages+2 {
		t.Errorf("%d writes, %d queries costing %d points; want 1 write, %d queries of 1 point: %v",
			res.Writes, res.Queries, res.Points, pages+2, w.fake.CountBy())
	}
	t.Logf("%d open PRs, one answered: %d requests (%d writes, %d queries, %d points)", quiet+1, res.Requests, res.Writes, res.Queries, res.Points)
}

// TestHandBackRerequestAsksCollaboratorsOnly: GitHub requests the review
// of the repository's collaborators only, refusing a request whole (422)
// when one it names is not. A reviewer counted as a maintainer through the
// reviewers input who is no collaborator is not asked: the collaborator
// listing (one a run) says so before any request, the others are asked in
// one request (a collaborator with triage access is one), and the log and
// the PR's reason name who could not be. No run sends a refused request:
// not the first, not the next.
func TestHandBackRerequestAsksCollaboratorsOnly(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	carol := fakegithub.Person("carol") // in reviewers, no collaborator
	alone := w.openPR(6, alice)
	w.fake.Review(alone, carol, daysAgo(3), "CHANGES_REQUESTED", "please rename it")
	w.fake.Push(alone, "alice", daysAgo(1), "renamed")
	both := w.answeredPR(1)
	w.fake.Review(both, carol, daysAgo(2), "CHANGES_REQUESTED", "and the docs")
	triager := fakegithub.Person("tri") // in reviewers, a collaborator without write access
	w.fake.SetPermission(triager.Login, "triage")
	triaged := w.openPR(6, alice)
	w.fake.Review(triaged, triager, daysAgo(3), "CHANGES_REQUESTED", "please split it")
	w.fake.Push(triaged, "alice", daysAgo(1), "split")
	inputs := sfWith(rerequestInputs, "reviewers", "carol,tri")

	for run := 1; run <= 2; run++ {
		log := &nopLog{}
		res := w.runLog(inputs, log)
		if got := w.reviewRequests(); slices.Contains(got, http.StatusUnprocessableEntity) {
			t.Errorf("run %d: review requests answered %v: a refused request was sent", run, got)
		}
		if !res.OK() || len(res.Failed()) != 0 {
			t.Errorf("run %d: failed %+v, stopped %v", run, res.Failed(), res.Stopped)
		}
		said := fmt.Sprintf("#%d: review not requested of carol: not a collaborator", alone)
		if !strings.Contains(strings.Join(log.printed, "\n"), said) || !strings.Contains(string(why(res.Skipped(), alone)), "carol: not a collaborator") {
			t.Errorf("run %d: log %q, #%d skipped as %q: want it to say carol could not be asked", run, log.printed, alone, why(res.Skipped(), alone))
		}
		if run == 1 && (!has(res.With(sweep.Rerequested), both) || !strings.Contains(string(why(res.With(sweep.Rerequested), both)), "carol: not a collaborator")) {
			t.Errorf("#%d re-requested: %v, reason %q; want it re-requested, saying carol could not be asked", both,
				has(res.With(sweep.Rerequested), both), why(res.With(sweep.Rerequested), both))
		}
		w.clock.Advance(lifecycle.Day)
		w.fake.Reset()
	}
	if c := w.requestsOf(triaged, triager.Login, action); c != 1 {
		t.Errorf("#%d: %d requests of %s, a collaborator with triage access; want 1", triaged, c, triager.Login)
	}
	if w.requestsOf(both, maint.Login, action) != 1 || w.requestsOf(both, "carol", action) != 0 || w.requestsOf(alone, "carol", action) != 0 {
		t.Errorf("requests of %s on #%d: %d, want 1; of carol: %d and %d, want none", maint.Login, both,
			w.requestsOf(both, maint.Login, action), w.requestsOf(both, "carol", action), w.requestsOf(alone, "carol", action))
	}
}

// TestHandBackOneNotification: a PR whose author answered a change request
// long ago, on the first run with both the nudge and the re-request on,
// gets the re-request alone, not a nudge too: GitHub notifies the reviewer
// of the request. The next run posts no nudge either; the nudge comes
// days-before-review-nudge after the request, if the turn has not passed.
func TestHandBackOneNotification(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.answeredPR(20)
	inputs := map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "7", "rerequest-reviewers-on-answer": "true"}
	res := w.run(inputs)
	if got := numbers(res.With(sweep.Rerequested)); len(got) != 1 || got[0] != n {
		t.Fatalf("re-requested %v, want #%d", got, n)
	}
	if w.notices(n, "nudge") != 0 || len(res.With(sweep.Nudged)) != 0 {
		t.Fatalf("#%d: the re-request and a nudge the same run: two notifications", n)
	}
	w.clock.Advance(lifecycle.Day)
	w.run(inputs)
	if w.notices(n, "nudge") != 0 || w.requestsOf(n, maint.Login, action) != 1 {
		t.Fatalf("#%d the day after: %d nudges, %d requests; want the one request alone", n, w.notices(n, "nudge"), w.requestsOf(n, maint.Login, action))
	}
	w.clock.Advance(6 * lifecycle.Day)
	w.run(inputs)
	if w.notices(n, "nudge") != 1 {
		t.Errorf("#%d a week after the request: %d nudges, want 1", n, w.notices(n, "nudge"))
	}
}
