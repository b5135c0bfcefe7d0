package sweep_test

import (
	"fmt"
	"maps"
	"net/http"
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

// The closure audit end to end (README "Closure audit"): a repository that
// switched from actions/stale to stalepr, with closes by both, on every
// turn, and the cases never reopened.

var auditInputs = map[string]string{"close-pr-label": "closed-stale", "audit-closed-days": "30", "write-interval": "0s",
	"exempt-pr-labels": "keep-open", "exempt-milestones": "v2.0", "exempt-pr-assignees": "mia", "exempt-pr-authors": "release-manager"}

func auditWith(more ...string) map[string]string { return sfWith(auditInputs, more...) }

// auditCase is the repository's closed PRs: wrong are those closed on the
// reviewers' or maintainers' turn that may be reopened, kept those closed
// so too that must not be (with the reason), fine the stale closes on the
// author's turn, other the closes that are no stale bot's or lie outside
// the window.
type auditCase struct {
	wrong, fine, other []int
	kept               map[int]lifecycle.Reason
}

// ghaClosed adds a PR opened d days ago that actions/stale marked and then
// closed, as github-actions[bot] (the same login stalepr writes as under
// GITHUB_TOKEN: the switch changed the action, not the token); before runs
// on it first (a review, ...).
func (w *world) ghaClosed(d, closedDaysAgo float64, before ...func(n int)) int {
	n := w.openPR(d, alice)
	for _, f := range before {
		f(n)
	}
	mark := daysAgo(closedDaysAgo + 30)
	w.fake.Comment(n, action, mark, "This PR is stale because it has been open 60 days with no activity.")
	w.fake.Label(n, action, mark.Add(time.Second), "stale")
	at := daysAgo(closedDaysAgo)
	w.fake.Comment(n, action, at, "This PR was closed because it has been stalled for 30 days with no activity.")
	w.fake.Close(n, action, at.Add(time.Second), "")
	w.fake.Label(n, action, at.Add(2*time.Second), "closed-stale")
	return n
}

// ourClosed adds a PR that stalepr marked and closed: label and notice,
// then its closing comment and the close that swaps stale for close-pr-label.
// Its marker is the one every version before the rule's wrote.
func (w *world) ourClosed(d, closedDaysAgo float64, before ...func(n int)) int {
	return w.ourClosedMarked(d, closedDaysAgo, "<!-- stalepr:close -->", before...)
}

// ourClosedMarked is ourClosed with the closing comment's marker given.
func (w *world) ourClosedMarked(d, closedDaysAgo float64, marker string, before ...func(n int)) int {
	n := w.openPR(d, alice)
	for _, f := range before {
		f(n)
	}
	mark := daysAgo(closedDaysAgo + 30)
	w.fake.Label(n, action, mark, "stale")
	w.fake.Comment(n, action, mark.Add(time.Second), "Stale.\n\n<!-- stalepr:stale marked="+mark.Format(time.RFC3339)+" -->")
	at := daysAgo(closedDaysAgo)
	w.fake.Comment(n, action, at, "Closing.\n\n"+marker)
	w.fake.Close(n, action, at.Add(time.Second), "")
	w.fake.Unlabel(n, action, at.Add(time.Second), "stale")
	w.fake.Label(n, action, at.Add(time.Second), "closed-stale")
	return n
}

func (w *world) changesRequested(d float64) func(int) {
	return func(n int) { w.fake.Review(n, maint, daysAgo(d), "CHANGES_REQUESTED", "please rename") }
}

func (w *world) approved(d float64) func(int) {
	return func(n int) { w.fake.Review(n, maint, daysAgo(d), "APPROVED", "") }
}

// auditWorld builds the repository of the audit's tests.
func auditWorld(t *testing.T) (*world, auditCase) {
	w := turnWorld(t)
	var c auditCase
	c.kept = map[int]lifecycle.Reason{}
	c.wrong = append(c.wrong,
		w.ghaClosed(120, 5),                   // actions/stale, waiting on the reviewers
		w.ghaClosed(150, 12, w.approved(100)), // actions/stale, approved: the maintainers'
		w.ourClosed(130, 3),                   // stalepr, waiting on the reviewers
		w.ourClosed(140, 20, w.approved(110))) // stalepr, approved
	c.fine = append(c.fine,
		w.ghaClosed(120, 6, w.changesRequested(100)), // the author's turn
		w.ourClosed(120, 4, w.changesRequested(90)))
	// Merged by a merge bot after its own comment, the stale label on.
	merged := w.openPR(120, alice)
	w.fake.Label(merged, action, daysAgo(40), "stale")
	w.fake.Comment(merged, ci, daysAgo(7), "Merging: the queue passed.")
	w.fake.Merge(merged, ci, daysAgo(7).Add(time.Second))
	c.kept[merged] = sweep.ReasonMerged
	// Its author closed it; a maintainer labelled it closed as stale.
	byAuthor := w.openPR(120, alice)
	w.fake.Close(byAuthor, alice, daysAgo(8), "")
	w.fake.Label(byAuthor, maint, daysAgo(8).Add(time.Minute), "closed-stale")
	c.kept[byAuthor] = sweep.ReasonAuthorClosed
	gone := w.ghaClosed(120, 9)
	w.fake.DeleteBranch(w.fake.MustIssue(gone).HeadRef)
	c.kept[gone] = sweep.ReasonBranchGone
	// The lock and the exemptions hold for the audit too.
	for _, k := range []struct {
		edit func(*fakegithub.Issue)
		why  lifecycle.Reason
	}{
		{func(is *fakegithub.Issue) { is.Locked = true }, lifecycle.ReasonLocked},
		{func(is *fakegithub.Issue) { is.Labels = append(is.Labels, "keep-open") }, lifecycle.ReasonExemptLabel},
		{func(is *fakegithub.Issue) { is.Milestone = "v2.0" }, lifecycle.ReasonExemptMilestone},
		{func(is *fakegithub.Issue) { is.Assignees = []string{"mia"} }, lifecycle.ReasonExemptAssignee},
	} {
		n := w.ghaClosed(120, 10)
		w.fake.Edit(n, k.edit)
		c.kept[n] = k.why
	}
	exemptAuthor := w.openPR(120, fakegithub.Person("release-manager"))
	w.fake.Comment(exemptAuthor, action, daysAgo(10), "This PR was closed because it has been stalled for 30 days with no activity.")
	w.fake.Label(exemptAuthor, action, daysAgo(40), "stale")
	w.fake.Close(exemptAuthor, action, daysAgo(10).Add(time.Second), "")
	c.kept[exemptAuthor] = lifecycle.ReasonExemptAuthor
	// No stale bot's: a maintainer closed it; and a stale close before the window.
	person := w.openPR(120, alice)
	w.fake.Close(person, maint, daysAgo(2), "")
	c.other = append(c.other, person, w.ghaClosed(200, 45))
	return w, c
}

// TestAuditReportsClosesOnTheReviewersOrMaintainersTurn: the report lists
// exactly the stale closes made on the reviewers' or maintainers' turn,
// with why the merged, author-closed and branch-gone ones are not reopened,
// and nothing is written without reopen-wrongly-closed.
func TestAuditReportsClosesOnTheReviewersOrMaintainersTurn(t *testing.T) {
	t.Parallel()
	w, c := auditWorld(t)
	res := w.run(auditInputs)
	if !res.OK() || res.Audit == nil {
		t.Fatalf("failed %+v stopped %v audit %v", res.Failed(), res.Stopped, res.Audit)
	}
	want := slices.Clone(c.wrong)
	for n := range c.kept {
		want = append(want, n)
	}
	got := res.WronglyClosed()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("wrongly closed %v, want %v (fine %v, other %v)", got, want, c.fine, c.other)
	}
	if n := len(want) + len(c.fine); res.Audit.Closes != n || !res.Audit.Complete {
		t.Errorf("%d stale closes replayed (complete %v), want %d", res.Audit.Closes, res.Audit.Complete, n)
	}
	for _, a := range res.Audit.Wrong {
		if a.Kept != c.kept[a.Number] {
			t.Errorf("#%d: kept %q, want %q", a.Number, a.Kept, c.kept[a.Number])
		}
	}
	for _, r := range w.fake.WriteRequests() {
		if r.Route != "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}" { // rule 12's clean-up
			t.Errorf("a write without reopen-wrongly-closed: %s %s", r.Route, r.Path)
		}
	}
}

// TestAuditReopenDryRunThenOnce: a dry run sends no write and says what it
// would reopen; the real run reopens each wrongly closed PR once, with one
// comment and neither stale label left; the next run writes nothing.
func TestAuditReopenDryRunThenOnce(t *testing.T) {
	t.Parallel()
	w, c := auditWorld(t)
	reopen := auditWith("reopen-wrongly-closed", "true")
	dry := w.run(sfWith(reopen, "debug-only", "true"))
	if n := w.fake.Writes(); n != 0 || !sameSet(numbers(dry.Reopened()), c.wrong) {
		t.Fatalf("dry run: %d writes, would reopen %v; want none, and %v", n, numbers(dry.Reopened()), c.wrong)
	}
	res := w.run(reopen)
	if !res.OK() || !sameSet(numbers(res.Reopened()), c.wrong) {
		t.Fatalf("reopened %v, want %v (failed %+v, stopped %v)", numbers(res.Reopened()), c.wrong, res.Failed(), res.Stopped)
	}
	w.checkReopened(t, c)
	w.fake.Reset()
	w.clock.Advance(time.Hour)
	again := w.run(reopen)
	if n := w.fake.Writes(); n != 0 || len(again.WronglyClosed()) != len(c.kept) {
		t.Errorf("a second run: %d writes (%v), wrongly closed %v; want none, and only the kept ones again", n, w.fake.WriteRequests(), again.WronglyClosed())
	}
}

// checkReopened: each wrongly closed PR is open with one reopen comment and
// no stale label; no other PR was touched.
func (w *world) checkReopened(t *testing.T, c auditCase) {
	t.Helper()
	for _, n := range c.wrong {
		if w.state(n) != "open" || w.notices(n, "reopened") != 1 || w.hasLabel(n, "stale") || w.hasLabel(n, "closed-stale") {
			t.Errorf("#%d: %s, %d reopen comments, labels %v; want open, one comment, no stale label", n, w.state(n), w.notices(n, "reopened"), w.labels(n))
		}
	}
	others := slices.Concat(c.fine, c.other)
	for n := range c.kept {
		others = append(others, n)
	}
	for _, n := range others {
		if w.state(n) != "closed" || w.notices(n, "reopened") != 0 {
			t.Errorf("#%d: %s with %d reopen comments; want it left closed", n, w.state(n), w.notices(n, "reopened"))
		}
	}
}

// TestAuditReopenCrashConverges: a run killed after any one of its writes
// leaves a state the next run finishes: every wrongly closed PR open, one
// comment each.
func TestAuditReopenCrashConverges(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	reopen := auditWith("reopen-wrongly-closed", "true")
	ref, _ := auditWorld(t)
	ref.run(reopen)
	total := ref.fake.Writes()
	if total < 8 {
		t.Fatalf("the reference run made %d writes", total)
	}
	for k := 1; k <= total; k++ {
		t.Run(fmt.Sprintf("kill after write %d of %d", k, total), func(t *testing.T) {
			t.Parallel()
			w, c := auditWorld(t)
			if res := w.crashAndResume(k, reopen); !res.OK() {
				t.Errorf("run after the crash: failed %+v, stopped %v", res.Failed(), res.Stopped)
			}
			w.checkReopened(t, c)
		})
	}
}

// TestAuditReopenConcurrentRuns: two runs at once, planned from the same
// state, leave each wrongly closed PR open with one comment.
func TestAuditReopenConcurrentRuns(t *testing.T) {
	t.Parallel()
	w, c := auditWorld(t)
	reopen := auditWith("reopen-wrongly-closed", "true")
	results := sfRunTwoAtOnce(w, reopen, true, isComment)
	for i, r := range results {
		if !r.OK() {
			t.Errorf("run %d: failed %+v stopped %v", i, r.Failed(), r.Stopped)
		}
	}
	posts := 0
	for _, r := range w.fake.WriteRequests() {
		if r.Route == "POST "+sfPRCommentsRoute {
			posts++
		}
	}
	if posts <= len(c.wrong) {
		t.Errorf("%d comments posted for %d reopenings: the runs did not overlap as planned", posts, len(c.wrong))
	}
	w.checkReopened(t, c)
}

// TestAuditCost: the closed PRs are read in the open listing's pages, one
// point per ghapi.PullsPerPage, and the listing stops at the window.
func TestAuditCost(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w := turnWorld(t)
	const inWindow, older = 160, 100
	for i := range inWindow {
		w.ghaClosed(120, 1+float64(i%25))
	}
	for range older {
		w.ghaClosed(200, 60)
	}
	w.run(map[string]string{"close-pr-label": "closed-stale"})
	w.fake.Reset()
	// Without exempt-pr-assignees: the pages then read no assignees (pages
	// of PullsPerPage).
	inputs := maps.Clone(auditInputs)
	delete(inputs, "exempt-pr-assignees")
	res := w.run(inputs)
	// The closed PRs' pages are the audit's alone: the duplicate clean-up
	// reads no closed page of its own after a complete audit.
	got := 0
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" && strings.Contains(r.Body, `"CLOSED"`) {
			got += r.Points
		}
	}
	pages := pagesOf(inWindow)
	if got != pages || len(res.WronglyClosed()) != inWindow {
		t.Errorf("the audit cost %d points for %d wrongly closed, want %d pages of 1 point and %d", got, len(res.WronglyClosed()), pages, inWindow)
	}
	t.Logf("%d closes in the window, %d before: %d points for the audit (%d requests in all)", inWindow, older, got, res.Requests)
}

// isComment: both runs hold their first comment until the other reaches
// its own, so both read the same closed PR and comment on it.
func isComment(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/comments")
}

func sameSet(a, b []int) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestAuditNotDoneSaysSo: a run whose budget ends
// before the closure audit names it, and the summary's audit section
// says it was not done and why, instead of vanishing.
func TestAuditNotDoneSaysSo(t *testing.T) {
	t.Parallel()
	w, _ := auditWorld(t)
	for i := 0; i < 30; i++ {
		w.pr(200 + float64(i)) // marks that spend the budget first
	}
	res := w.run(auditWith("operations-per-run", "20"))
	if res.Stopped == nil {
		t.Fatal("the run did not stop: the budget is too large for the test")
	}
	if res.Audit != nil || !slices.Contains(res.NotDone, sweep.PartAudit) || !slices.Contains(res.NotDone, sweep.PartLabelCleanUp) {
		t.Fatalf("audit %+v, not done %q: want the audit and the clean-ups named not done", res.Audit, res.NotDone)
	}
	summary := report.Summary(res, w.fake.FullName())
	// Where the section would be, and in the stop note, every part left
	// out named together.
	for _, want := range []string{"### Closure audit: not done this run\n\nThe run stopped before it",
		"the closure audit and the reopen commands on closed pull requests were not done; the next run does them."} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}

// TestAuditReadsTheChecksAtTheClose: with author-turn-when-checks-fail, a
// stale close while a required check failed was on the author's turn,
// as the sweep would have judged it: neither reported nor reopened. The
// closed listing reads no checks, so each PR the history calls wrongly
// closed has its checks read (one point); one whose failure was re-run
// since the close is reported but stays closed: its checks at the close
// are unknown.
func TestAuditReadsTheChecksAtTheClose(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	w.fake.SetRequiredChecks("test")
	failed := fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(40)}
	failing := w.ghaClosed(120, 5, func(n int) { w.fake.AddCheck(n, failed) })
	passing := w.ghaClosed(120, 5, func(n int) {
		w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: daysAgo(40)})
	})
	rerun := w.ghaClosed(120, 5, func(n int) { w.fake.AddCheck(n, failed) })
	w.fake.AddCheck(rerun, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: daysAgo(1)})
	res := w.run(auditWith("author-turn-when-checks-fail", "true", "reopen-wrongly-closed", "true"))
	if !res.OK() || res.Audit == nil {
		t.Fatalf("failed %+v, stopped %v", res.Failed(), res.Stopped)
	}
	kept := map[int]lifecycle.Reason{}
	for _, a := range res.Audit.Wrong {
		kept[a.Number] = a.Kept
	}
	if _, wrong := kept[failing]; wrong || w.state(failing) != "closed" {
		t.Errorf("#%d, closed while its required check failed: reported %v, %s; want neither reported nor reopened", failing, wrong, w.state(failing))
	}
	if r, wrong := kept[passing]; !wrong || r != "" || w.state(passing) != "open" {
		t.Errorf("#%d, its checks passing: reported %v (kept %q), %s; want reported and reopened", passing, wrong, r, w.state(passing))
	}
	if r := kept[rerun]; r != sweep.ReasonChecksUnknown || w.state(rerun) != "closed" {
		t.Errorf("#%d, re-run since the close: kept %q, %s; want kept closed, %q", rerun, r, w.state(rerun), sweep.ReasonChecksUnknown)
	}
	// The three it would call wrongly closed are read in one query.
	queries := 0
	for _, r := range w.fake.Requests() {
		if strings.HasSuffix(r.Path, "graphql") && strings.Contains(r.Body, "statusCheckRollup") && strings.Contains(r.Body, "isRequired") {
			queries++
		}
	}
	if queries != 1 {
		t.Errorf("%d queries of the closed PRs' checks, want 1 for the three", queries)
	}
}

// TestAuditReopenNamesTheHumanOfRecord (issue 40 item 10): a Copilot PR
// that actions/stale closed while it waited on rey's review is reopened
// with a comment addressed to alice, who assigned the agent, as the stale
// notices address her; the agent is not named.
func TestAuditReopenNamesTheHumanOfRecord(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.agentPR(120, false)
	w.fake.ReadyForReview(n, alice, daysAgo(110))
	w.fake.RequestReview(n, alice, daysAgo(110), "rey")
	mark := daysAgo(35)
	w.fake.Comment(n, action, mark, "This PR is stale because it has been open 60 days with no activity.")
	w.fake.Label(n, action, mark.Add(time.Second), "stale")
	w.fake.Comment(n, action, daysAgo(5), "This PR was closed because it has been stalled for 30 days with no activity.")
	w.fake.Close(n, action, daysAgo(5).Add(time.Second), "")
	res := w.run(auditWith("reopen-wrongly-closed", "true"))
	if !has(res.Reopened(), n) || w.state(n) != "open" {
		t.Fatalf("#%d: reopened %v, %s; want it reopened (failed %+v, stopped %v)", n, numbers(res.Reopened()), w.state(n), res.Failed(), res.Stopped)
	}
	body := w.onlyComment(t, n)
	if text := strings.Split(body, "<!--")[0]; !strings.Contains(text, "not on @alice") || strings.Contains(text, "Copilot") {
		t.Errorf("the reopen comment must name @alice, who answers for the agent's PR, not the agent:\n%s", body)
	}
	w.noAgentMentioned(t, n)
}

// TestAuditNoChecksAtAll (issue 40 item 9): with author-turn-when-checks-fail,
// a PR on whose head no check ever ran (GitHub's rollup is null) has no
// failing check, a definite answer: closed by actions/stale while it waited
// on its reviewers, it is reopened. The controls: a rollup null beside an
// error that names it, or a PR node GitHub did not answer, is a read that
// erred: the checks stay unknown and the PR closed.
func TestAuditNoChecksAtAll(t *testing.T) {
	t.Parallel()
	const failed = `"errors":[{"type":"SERVICE_UNAVAILABLE","path":%s,"message":"Something went wrong while executing your query."}]`
	for _, c := range []struct {
		name  string
		fault func(head string) string // the answer to the checks' query; "" for GitHub's own
	}{
		{"no check ever ran", nil},
		{"the rollup errs", func(head string) string {
			return fmt.Sprintf(`{"data":{"repository":{"p0":{"headRefOid":%q,"statusCheckRollup":null}}},`+failed+`}`,
				head, `["repository","p0","statusCheckRollup"]`)
		}},
		{"the PR is not answered", func(string) string {
			return `{"data":{"repository":{"p0":null}},` + fmt.Sprintf(failed, `["repository","p0"]`) + `}`
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			w.fake.SetRequiredChecks("test")
			n := w.ghaClosed(120, 5)
			if c.fault != nil {
				body := c.fault(w.fake.MustIssue(n).HeadSHA)
				w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
					if strings.Contains(r.Body, "statusCheckRollup") && strings.Contains(r.Body, "isRequired") {
						return fakegithub.StatusFault(200, body)
					}
					return nil
				})
			}
			res := w.run(auditWith("author-turn-when-checks-fail", "true", "reopen-wrongly-closed", "true"))
			if res.Audit == nil || len(res.Audit.Wrong) != 1 || res.Audit.Wrong[0].Number != n {
				t.Fatalf("audit %+v; want #%d reported wrongly closed", res.Audit, n)
			}
			kept, state := res.Audit.Wrong[0].Kept, w.state(n)
			switch {
			case c.fault == nil && (kept != "" || state != "open" || w.notices(n, "reopened") != 1):
				t.Errorf("#%d, no check ever ran: kept %q, %s; want it reopened, its checks known to be none", n, kept, state)
			case c.fault != nil && (kept != sweep.ReasonChecksUnknown || state != "closed"):
				t.Errorf("#%d, its checks' read erred: kept %q, %s; want it kept closed, %q", n, kept, state, sweep.ReasonChecksUnknown)
			}
		})
	}
}

// TestAuditTrustsTheRuleThatClosed: our close whose marker records a rule
// on now is the sweep's own, and the audit trusts it where its replay
// would not: each PR here was labelled needs-rebase, which put it on its
// author's turn while author-turn-when-labeled listed it, and the project
// has since dropped that option, so the replay finds each closed on the
// reviewers' turn. Trusted, neither reported nor reopened: our close
// recording author-turn under stale-clock: author-turn. Replayed, and
// reopened, as before: the same close with the marker of every earlier
// version (no rule), one recording inactivity (a clock off now), and
// another bot's close after a person's comment quoting our marker with
// its rule (markers count from our own login only).
func TestAuditTrustsTheRuleThatClosed(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	rebase := func(n int) { w.fake.Label(n, maint, daysAgo(60), "needs-rebase") }
	trusted := w.ourClosedMarked(120, 3, "<!-- stalepr:close --> <!-- stalepr:rule=author-turn -->", rebase)
	replayed := map[string]int{
		"an earlier version's marker": w.ourClosedMarked(120, 3, "<!-- stalepr:close -->", rebase),
		"a rule off now":              w.ourClosedMarked(120, 3, "<!-- stalepr:close --> <!-- stalepr:rule=inactivity -->", rebase),
		"a person's quote of our marker": w.ghaClosed(120, 3, rebase, func(n int) {
			w.fake.Comment(n, mallory, daysAgo(4), "As the bot says:\n> Closing.\n> <!-- stalepr:close --> <!-- stalepr:rule=author-turn -->")
		}),
	}
	res := w.run(auditWith("stale-clock", "author-turn", "reopen-wrongly-closed", "true"))
	if !res.OK() || res.Audit == nil || res.Audit.Closes != 1+len(replayed) {
		t.Fatalf("failed %+v, stopped %v, audit %+v: want %d stale closes audited", res.Failed(), res.Stopped, res.Audit, 1+len(replayed))
	}
	if has(res.Reopened(), trusted) || slices.Contains(res.WronglyClosed(), trusted) || w.state(trusted) != "closed" {
		t.Errorf("#%d, our close by author-turn, on now: reported %v, %s; want trusted, neither reported nor reopened",
			trusted, res.WronglyClosed(), w.state(trusted))
	}
	for why, n := range replayed {
		if !has(res.Reopened(), n) || w.state(n) != "open" || w.notices(n, "reopened") != 1 {
			t.Errorf("#%d, %s: reopened %v, %s; want it replayed, found on the reviewers' turn and reopened once",
				n, why, numbers(res.Reopened()), w.state(n))
		}
	}
}

// TestAuditTrustsTheCloseThisVersionWrote: the marker the sweep writes
// records its rule, and the next run's audit reads it back. A PR labelled
// needs-rebase, on its author's turn by author-turn-when-labeled, is
// closed under stale-clock: author-turn; the project then drops the
// option, and the audit, which would replay the close as made on the
// reviewers' turn, trusts it: the rule that made it is still on.
func TestAuditTrustsTheCloseThisVersionWrote(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(120, alice)
	w.fake.Label(n, maint, daysAgo(60), "needs-rebase")
	clock := auditWith("stale-clock", "author-turn", "days-before-stale", "30", "days-before-close", "0")
	if res := w.run(sfWith(clock, "author-turn-when-labeled", "needs-rebase")); !has(res.Closed(), n) {
		t.Fatalf("#%d not closed: closed %v, failed %+v, stopped %v", n, numbers(res.Closed()), res.Failed(), res.Stopped)
	}
	w.clock.Advance(time.Hour)
	res := w.run(sfWith(clock, "reopen-wrongly-closed", "true"))
	if res.Audit == nil || res.Audit.Closes != 1 || len(res.WronglyClosed()) != 0 || w.state(n) != "closed" {
		t.Errorf("#%d: audit %+v, %s; want its close audited, trusted, and left closed", n, res.Audit, w.state(n))
	}
}
