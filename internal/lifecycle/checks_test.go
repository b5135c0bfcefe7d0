package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestTurnChecksFail: with author-turn-when-checks-fail, a completed,
// failing, required check on the head commit, completed after the author's
// last push (or other action), puts the PR on the author's turn from its completion; nothing
// less certain does (a failure may be spurious: only one that blocks the
// merge of the current head counts).
func TestTurnChecksFail(t *testing.T) {
	const head = "h2"
	on := lifecycle.Options{ChecksFail: true}
	wordOn := lifecycle.Options{ChecksFail: true, AuthorTurnLabel: "waiting-on-author"}
	push := pushed(daysAgo(30), false)
	run := func(name, status, conclusion string, at time.Time, req lifecycle.Required) lifecycle.Check {
		return lifecycle.Check{Name: name, Status: status, Conclusion: conclusion, At: at, Required: req}
	}
	failed := run("test", "COMPLETED", "FAILURE", daysAgo(20), lifecycle.RequiredYes)
	checks := func(commit string, contexts ...lifecycle.Check) lifecycle.PR {
		return lifecycle.PR{HeadSHA: head, Checks: lifecycle.Checks{Commit: commit, Complete: true, Contexts: contexts}}
	}
	incomplete := checks(head, failed)
	incomplete.Checks.Complete = false
	approved := reviewed(daysAgo(25), maintainer, "MEMBER", "approved")
	runTurnCases(t, []turnCase{
		{name: "a failing required check completed after the last push: the author's, from its completion", opts: on,
			pr: checks(head, failed), events: []lifecycle.Event{push}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "a failing required commit status (ERROR) counts too", opts: on,
			pr:     checks(head, run("ci/jenkins", "", "ERROR", daysAgo(20), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "pending: the reviewers'", opts: on,
			pr:     checks(head, run("test", "IN_PROGRESS", "", time.Time{}, lifecycle.RequiredYes), run("ci/jenkins", "", "PENDING", daysAgo(20), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "an optional check's failure: the reviewers'", opts: on,
			pr: checks(head, run("lint", "COMPLETED", "FAILURE", daysAgo(20), lifecycle.RequiredNo)), events: []lifecycle.Event{push},
			whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a failure whose requirement GitHub did not state: the reviewers'", opts: on,
			pr: checks(head, run("test", "COMPLETED", "FAILURE", daysAgo(20), lifecycle.RequiredUnknown)), events: []lifecycle.Event{push},
			whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "failed, then re-run green: the reviewers', from the green run", opts: on,
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(5)},
		{name: "re-run green, listed before the failure: the reviewers', from the green run", opts: on,
			pr:     checks(head, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes), failed),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(5)},
		{name: "failed, re-run under way: the reviewers', from the failure at least", opts: on,
			pr:     checks(head, failed, run("test", "QUEUED", "", time.Time{}, lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(20)},
		{name: "failed, re-run cancelled: the reviewers', from the cancelled run", opts: on,
			pr:     checks(head, failed, run("test", "COMPLETED", "CANCELLED", daysAgo(8), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(8)},
		{name: "two checks failed and re-run green: from the later green run", opts: on,
			pr: checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(12), lifecycle.RequiredYes),
				run("ci/jenkins", "", "ERROR", daysAgo(11), lifecycle.RequiredYes), run("ci/jenkins", "", "SUCCESS", daysAgo(4), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(4)},
		{name: "an optional check re-run green: the reviewers' since the push's turn", opts: on,
			pr: checks(head, run("lint", "COMPLETED", "FAILURE", daysAgo(20), lifecycle.RequiredNo),
				run("lint", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredNo)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a failure before the author's last push, re-run green after it: the reviewers' since the push's turn", opts: on,
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{pushed(daysAgo(10), false)}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "re-run green on an older commit: the reviewers' since the push's turn", opts: on,
			pr:     checks("h1", failed, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "re-run green, input off: the reviewers' since the push's turn",
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "approved, a required check failed and re-run green: the maintainers', from the green run", opts: on,
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push, approved}, whose: lifecycle.TurnMaintainers, since: daysAgo(5)},
		{name: "re-run green before the turn began: the turn's own start", opts: on,
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(19), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push, reviewed(daysAgo(15), maintainer, "MEMBER", "approved")}, whose: lifecycle.TurnMaintainers, since: daysAgo(15)},
		{name: "a person's word after the failure: its turn stands, the green run moves nothing", opts: wordOn,
			pr:     checks(head, failed, run("test", "COMPLETED", "SUCCESS", daysAgo(15), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push, said(daysAgo(25), maintainer, "MEMBER"), unlabeled(daysAgo(18), maintainer, "waiting-on-author")},
			whose:  lifecycle.TurnReviewers, since: daysAgo(18)},
		{name: "a failure on an older commit: the reviewers'", opts: on,
			pr: checks("h1", failed), events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a failure before the author's last push: the reviewers'", opts: on,
			pr: checks(head, failed), events: []lifecycle.Event{pushed(daysAgo(10), false)}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "the author's answer after the failure hands it back", opts: on,
			pr: checks(head, failed), events: []lifecycle.Event{push, said(daysAgo(10), author, "CONTRIBUTOR")}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a rollup not read to its end: the reviewers'", opts: on,
			pr: incomplete, events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "a cancelled run: the reviewers'", opts: on,
			pr: checks(head, run("test", "COMPLETED", "CANCELLED", daysAgo(20), lifecycle.RequiredYes)), events: []lifecycle.Event{push},
			whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "input off: the reviewers'",
			pr: checks(head, failed), events: []lifecycle.Event{push}, whose: lifecycle.TurnReviewers, since: daysAgo(60)},
		{name: "approved, then a required check fails: the author's", opts: on,
			pr: checks(head, failed), events: []lifecycle.Event{push, approved}, whose: lifecycle.TurnAuthor, since: daysAgo(20)},
		{name: "never before the turn it replaces began", opts: on,
			pr: checks(head, failed), events: []lifecycle.Event{push, reviewed(daysAgo(15), maintainer, "MEMBER", "approved")},
			whose: lifecycle.TurnAuthor, since: daysAgo(15)},
		{name: "a person's word after the failure stands: the reviewers'", opts: wordOn,
			pr: checks(head, failed), events: []lifecycle.Event{push, said(daysAgo(25), maintainer, "MEMBER"), unlabeled(daysAgo(10), maintainer, "waiting-on-author")},
			whose: lifecycle.TurnReviewers, since: daysAgo(10)},
		{name: "a failure after the word overrules it", opts: wordOn,
			pr:     checks(head, run("test", "COMPLETED", "FAILURE", daysAgo(5), lifecycle.RequiredYes)),
			events: []lifecycle.Event{push, said(daysAgo(25), maintainer, "MEMBER"), unlabeled(daysAgo(10), maintainer, "waiting-on-author")},
			whose:  lifecycle.TurnAuthor, since: daysAgo(5)},
	})
	// The check is named in the turn, so the notice can say what failed.
	p := checks(head, failed)
	p.Author, p.CreatedAt = author, daysAgo(60)
	a := lifecycle.SummarizeWith(p, []lifecycle.Event{push}, staleLabel, on)
	if a.Turn.Check != "test" || a.Turn.By != "" {
		t.Errorf("turn = %+v, want Check test and no By", a.Turn)
	}
}
