package sweep_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// The review escalation, end to end through the HTTP path: docs/rules.md
// "Escalation".

var escalateInputs = map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "7",
	"days-before-review-escalation": "7", "escalation-reviewers": "lead,alice,octo/core"}

// nudgedPR adds a PR by alice waiting on rey's review for 20 days, which
// an earlier run nudged d days ago.
func (w *world) nudgedPR(d float64) int {
	n := w.openPR(20, alice)
	w.fake.RequestReview(n, alice, daysAgo(20), "rey")
	w.fake.Comment(n, action, daysAgo(d), "@rey This pull request has been waiting 13 days for a review.\n\n<!-- stalepr:nudge -->")
	return n
}

// escalations counts our escalation comments on PR n.
func (w *world) escalations(n int) int { return w.notices(n, "escalated") }

// teamRequests counts the review requests of team slug on PR n by actor.
func (w *world) teamRequests(n int, slug string, actor fakegithub.User) int {
	c := 0
	for _, e := range w.fake.Events(n) {
		if e.Type == fakegithub.EventReviewRequested && e.Team == slug && e.Actor.Login == actor.Login {
			c++
		}
	}
	return c
}

// TestEscalation: a nudge unanswered for days-before-review-escalation days
// is escalated once per turn: the escalation reviewers' review requested
// (never the author's) and one comment naming them.
func TestEscalation(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.nudgedPR(8)
	early := w.nudgedPR(5)
	onAuthor := w.nudgedPR(10)
	w.fake.Review(onAuthor, maint, daysAgo(9), "CHANGES_REQUESTED", "please add a test") // the nudge was answered

	res := w.run(escalateInputs)
	if got := numbers(res.With(sweep.Escalated)); len(got) != 1 || got[0] != n {
		t.Fatalf("escalated %v, want #%d alone", got, n)
	}
	if w.escalations(n) != 1 || w.requestsOf(n, "lead", action) != 1 || w.teamRequests(n, "core", action) != 1 {
		t.Errorf("#%d: %d escalations, %d requests of lead, %d of the team; want one each", n,
			w.escalations(n), w.requestsOf(n, "lead", action), w.teamRequests(n, "core", action))
	}
	if w.requestsOf(n, alice.Login, action) != 0 {
		t.Errorf("#%d: the author's review was requested", n)
	}
	cs := w.fake.Comments(n)
	body := cs[len(cs)-1].Body
	if !strings.Contains(body, "@lead") || !strings.Contains(body, "@octo/core") || strings.Contains(body, "@alice") || strings.Count(body, "@") != 2 {
		t.Errorf("the escalation must name @lead and @octo/core, nobody else:\n%s", body)
	}
	for _, m := range []int{early, onAuthor} {
		if got := w.writesTo(m); len(got) != 0 {
			t.Errorf("#%d: writes %v, want none", m, got)
		}
	}
	// Once per turn: the next runs find our marker.
	for range 3 {
		w.clock.Advance(lifecycle.Day)
		w.fake.Reset()
		w.run(escalateInputs)
		if got := w.writesTo(n); len(got) != 0 {
			t.Fatalf("a later run wrote %v to #%d", got, n)
		}
	}
	if w.escalations(n) != 1 || w.escalations(early) != 1 {
		t.Errorf("after three more days: %d escalations of #%d (want 1), %d of #%d (want 1, now due)", w.escalations(n), n, w.escalations(early), early)
	}
	// Never un-requesting anyone: rey is still requested.
	if is := w.fake.MustIssue(n); !strings.Contains(strings.Join(is.RequestedReviewers, ","), "rey") {
		t.Errorf("#%d: requested reviewers %v lost rey", n, is.RequestedReviewers)
	}
}

// TestEscalationListed: with no escalation reviewers, the escalation is a
// row of the dashboard's Escalated section; nothing is written on the PR.
func TestEscalationListed(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.nudgedPR(8)
	res := w.run(sfWith(escalateInputs, "escalation-reviewers", ""))
	if got := w.writesTo(n); len(got) != 0 {
		t.Errorf("#%d: writes %v, want none", n, got)
	}
	d := report.Dashboard(res)
	if !strings.Contains(d, "#### Escalated (1)") || !strings.Contains(d, fmt.Sprintf("#%d", n)) || !strings.Contains(d, "nobody to ask") {
		t.Errorf("the dashboard has no Escalated row for #%d:\n%s", n, d)
	}
}

// TestEscalationDryRun: a dry run reports the escalation and sends no write.
func TestEscalationDryRun(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.nudgedPR(8)
	res := w.run(sfWith(escalateInputs, "debug-only", "true"))
	if got := w.fake.Writes(); got != 0 || !has(res.With(sweep.Escalated), n) {
		t.Errorf("dry run: %d writes, escalated %v; want none, and #%d reported", got, numbers(res.With(sweep.Escalated)), n)
	}
	if !strings.Contains(report.Counts(res), "would escalate reviews 1") {
		t.Errorf("counts %q", report.Counts(res))
	}
}

// TestEscalationCrash: a run that dies after the request or after the
// comment leaves a state the next run finishes: one comment, one request.
func TestEscalationCrash(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 2; k++ {
		t.Run(fmt.Sprintf("kill after write %d", k), func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			n := w.nudgedPR(8)
			w.crashAndResume(k, escalateInputs)
			if c, r := w.escalations(n), w.requestsOf(n, "lead", action); c != 1 || r != 1 {
				t.Errorf("%d escalations, %d requests of lead; want one each", c, r)
			}
			w.checkNothingLeft(t, escalateInputs)
		})
	}
}

// TestEscalationTwoRunsAtOnce: two runs planned from the same state both
// escalate; the read-back leaves one comment, GitHub one request.
func TestEscalationTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	var prs []int
	for range 3 {
		prs = append(prs, w.nudgedPR(8))
	}
	results := sfRunTwoAtOnce(w, escalateInputs, true, nil)
	checkPostedTwiceDeletedOnce(t, w, len(prs))
	for i, r := range results {
		if !r.OK() {
			t.Errorf("run %d: failed %+v stopped %v", i, r.Failed(), r.Stopped)
		}
	}
	for _, n := range prs {
		if c, r := w.escalations(n), w.requestsOf(n, "lead", action); c != 1 || r != 1 {
			t.Errorf("#%d: %d escalations, %d requests of lead after two runs at once; want one each", n, c, r)
		}
	}
}

// TestEscalationCost: an escalation is two writes (the request, the
// comment), the read-back of this run's notices and one query of the
// reviewers' GitHub status for the run; the turn comes with the open
// listing's pages.
func TestEscalationCost(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	const quiet = 150
	for range quiet {
		w.openPR(3, alice)
	}
	w.nudgedPR(8)
	res := w.run(escalateInputs)
	pages := pagesOf(quiet + 1)
	if res.Writes != 2 || res.Queries != pages+2 || res.Points != pages+2 || w.statusQueries() != 1 {
		t.Errorf("%d writes, %d queries costing %d points (%d of statuses); want 2 writes, %d queries of 1 point (1 of statuses): %v",
			res.Writes, res.Queries, res.Points, w.statusQueries(), pages+2, w.fake.CountBy())
	}
	t.Logf("%d open PRs, one escalated: %d requests (%d writes, %d queries, %d points)", quiet+1, res.Requests, res.Writes, res.Queries, res.Points)
}

// TestEscalationNeverOnTheMergersTurn: an approved PR nobody merges gets
// the merge nudge, and no escalation after it however long it waits: there
// is no review to ask for (and our escalation marks only the reviewers'
// turn, so one there would be posted again every run).
func TestEscalationNeverOnTheMergersTurn(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(30, alice)
	w.fake.Review(n, maint, daysAgo(20), "APPROVED", "lgtm")
	for day := 0; day < 4; day++ {
		w.run(escalateInputs)
		w.clock.Advance(5 * lifecycle.Day)
	}
	if c, r := w.escalations(n), w.requestsOf(n, "lead", action); c != 0 || r != 0 {
		t.Errorf("#%d approved: %d escalations, %d requests of lead over 15 days; want none", n, c, r)
	}
	if nudges := w.notices(n, "nudge"); nudges != 1 {
		t.Errorf("#%d approved: %d merge nudges, want one", n, nudges)
	}
}

// TestEscalationsPaced (issue 40 item 5): forty PRs waiting on one reviewer
// whose GitHub status says busy are escalated escalations-per-run at a time
// (5 by default), the longest waiting first, instead of forty comments and
// forty review requests of the lead in one run. The counts, the summary's
// next 14 days and the dashboard say how many wait and when they go; each
// next run sends the next five, and none twice.
func TestEscalationsPaced(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		away func(w *world) map[string]string // makes rey unavailable; the inputs
	}{
		{"busy on GitHub", func(w *world) map[string]string {
			w.fake.SetStatus("rey", true, time.Time{})
			return escalateInputs
		}},
		{"away-reviewers", func(*world) map[string]string { return sfWith(escalateInputs, "away-reviewers", "rey") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.name != "busy on GitHub" {
				testenv.Long(t) // the same pacing, nine runs of forty PRs again
			}
			w := turnWorld(t)
			var prs []int // the longest waiting first
			for i := range 40 {
				d := float64(60 - i)
				n := w.openPR(d, alice)
				w.fake.RequestReview(n, alice, daysAgo(d), "rey")
				prs = append(prs, n)
			}
			w.checkEscalationsPaced(t, prs, sfWith(c.away(w), "write-interval", "0s"))
		})
	}
}

// checkEscalationsPaced runs TestEscalationsPaced's eight runs a day apart
// and the one after.
func (w *world) checkEscalationsPaced(t *testing.T, prs []int, in map[string]string) {
	t.Helper()
	const per = 5
	for run := range len(prs) / per {
		res := w.run(in)
		got := numbers(res.With(sweep.Escalated))
		want := slices.Clone(prs[run*per : (run+1)*per])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || len(res.Nudged()) != 0 {
			t.Fatalf("run %d escalated %v, want %v (the longest waiting first); nudged %v", run+1, got, want, numbers(res.Nudged()))
		}
		if left := len(prs) - per*(run+1); res.EscalationsPaced != left {
			t.Errorf("run %d: %d escalations paced, want %d", run+1, res.EscalationsPaced, left)
		}
		if run == 0 {
			checkEscalationsPacedSaid(t, res, prs)
		}
		w.clock.Advance(lifecycle.Day)
	}
	for _, n := range prs {
		if c, r := w.escalations(n), w.requestsOf(n, "lead", action); c != 1 || r != 1 {
			t.Errorf("#%d: %d escalations, %d requests of lead; want one each", n, c, r)
		}
	}
	w.fake.Reset()
	if res := w.run(in); w.fake.Writes() != 0 || res.EscalationsPaced != 0 {
		t.Errorf("a run after all were escalated: %d writes (%v), %d paced; want none", w.fake.Writes(), w.fake.WriteRequests(), res.EscalationsPaced)
	}
}

// checkEscalationsPacedSaid: the first run of TestEscalationsPaced says
// that 35 wait and when they go: the log's counts, the job summary (its
// counts and its next 14 days, the 35 on the first row), the dashboard
// (the last of them goes in 7 runs).
func checkEscalationsPacedSaid(t *testing.T, res sweep.Result, prs []int) {
	t.Helper()
	const when = "35 review escalations due wait: 5 go next run, the last 5 in 7 runs"
	if c := report.Counts(res); !strings.Contains(c, when+" (escalations-per-run: 5 a run, the longest waiting first)") {
		t.Errorf("the counts do not say what waits and when it goes: %s", c)
	}
	s := report.Summary(res, "octo/widgets")
	for _, want := range []string{when, "| Date | Closes | Marks | Escalations |", " | 35: ",
		"Review escalations are paced (escalations-per-run: 5 a run, the longest waiting first): of the 35 due that wait, 5 go next run, the last 5 in 7 runs"} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary lacks %q:\n%s", want, s)
		}
	}
	d := report.Dashboard(res)
	if row := fmt.Sprintf("#%d", prs[len(prs)-1]); !strings.Contains(d, row) || !strings.Contains(d, "held back by `escalations-per-run`, goes in 7 runs") {
		t.Errorf("the dashboard's Escalated section does not say when #%d goes:\n%s", prs[len(prs)-1], d)
	}
}

const routeRequestReviewers = "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"

// reviewRequests lists the status of each review request sent, in order.
func (w *world) reviewRequests() []int {
	var out []int
	for _, r := range w.fake.Requests() {
		if r.Route == routeRequestReviewers {
			out = append(out, r.Status)
		}
	}
	return out
}

// TestEscalationAsksWhoCanBeAsked: GitHub refuses a review request whole
// (422) when one reviewer it names is not a collaborator. The others are
// asked each alone, the escalation is posted naming them and saying who
// could not be asked, and the run does not fail; the next run sends no
// request: the turn's escalation is done.
func TestEscalationAsksWhoCanBeAsked(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.nudgedPR(8)
	inputs := sfWith(escalateInputs, "escalation-reviewers", "lead,carol,mia") // carol: no collaborator
	log := &nopLog{}
	res := w.runLog(inputs, log)

	if got, want := w.reviewRequests(), []int{422, 201, 422, 201}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("review requests answered %v, want %v: refused whole, then each reviewer alone", got, want)
	}
	if w.requestsOf(n, "lead", action) != 1 || w.requestsOf(n, mia.Login, action) != 1 || w.requestsOf(n, "carol", action) != 0 {
		t.Errorf("#%d: requests of lead %d, mia %d, carol %d; want 1, 1, 0", n,
			w.requestsOf(n, "lead", action), w.requestsOf(n, mia.Login, action), w.requestsOf(n, "carol", action))
	}
	if !res.OK() || len(res.Failed()) != 0 || !has(res.With(sweep.Escalated), n) {
		t.Fatalf("escalated %v, failed %+v, stopped %v; want #%d escalated, nothing failed", numbers(res.With(sweep.Escalated)), res.Failed(), res.Stopped, n)
	}
	if it := res.With(sweep.Escalated)[0]; !strings.Contains(string(it.Reason), "review not requested of carol: not a collaborator") {
		t.Errorf("reason %q does not say carol was not asked", it.Reason)
	}
	if !strings.Contains(strings.Join(log.printed, "\n"), fmt.Sprintf("#%d: review not requested of carol: not a collaborator", n)) {
		t.Errorf("log %q does not name carol", log.printed)
	}
	cs := w.fake.Comments(n)
	body := cs[len(cs)-1].Body
	if w.escalations(n) != 1 || !strings.Contains(body, "@lead") || !strings.Contains(body, "@"+mia.Login) || strings.Contains(body, "@carol") ||
		!strings.Contains(body, "carol, whose review GitHub refused to request") {
		t.Errorf("%d escalations; the last must name @lead and @%s and say carol was not asked, without a mention:\n%s", w.escalations(n), mia.Login, body)
	}

	w.clock.Advance(lifecycle.Day)
	w.fake.Reset()
	res = w.run(inputs)
	if got := w.reviewRequests(); len(got) != 0 || !res.OK() {
		t.Errorf("the next run: review requests %v, failed %+v; want none, nothing failed", got, res.Failed())
	}
}
