package sweep_test

// What maintainers keep asking stale bots for, end to end: exempt authors, exempt approvals, a locked conversation.

import (
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestExemptPRAuthors(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dependabot := w.pr(120, func(is *fakegithub.Issue) { is.User = fakegithub.Bot("dependabot[bot]") })
	renovate := w.pr(120, func(is *fakegithub.Issue) { is.User = fakegithub.Bot("Renovate[bot]") })
	security := w.pr(120, func(is *fakegithub.Issue) { is.User = fakegithub.Person("sec-team-lead") })
	person := w.pr(120)
	w.run(map[string]string{"exempt-pr-authors": "*[bot], SEC-*"})
	for _, n := range []int{dependabot, renovate, security} {
		if w.hasLabel(n, "stale") {
			t.Errorf("#%d by an exempt author was marked", n)
		}
	}
	if !w.hasLabel(person, "stale") {
		t.Error("a PR by an author not listed was not marked")
	}
}

func TestExemptApproved(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddMember(maint.Login) // only reviews by accounts with write access count
	approved := w.pr(100)
	w.fake.Review(approved, maint, daysAgo(100), "APPROVED", "")
	dismissed := w.pr(100)
	rv := w.fake.Review(dismissed, maint, daysAgo(101), "APPROVED", "")
	w.fake.DismissReview(dismissed, rv.ID, maint, daysAgo(100))
	withdrawn := w.pr(100)
	w.fake.Review(withdrawn, maint, daysAgo(102), "APPROVED", "")
	w.fake.Review(withdrawn, maint, daysAgo(101), "CHANGES_REQUESTED", "one more thing")
	plain := w.pr(100)

	w.run(map[string]string{"exempt-approved": "true"})
	if w.hasLabel(approved, "stale") {
		t.Error("a PR with a standing approval was marked")
	}
	for _, n := range []int{dismissed, withdrawn, plain} {
		if !w.hasLabel(n, "stale") {
			t.Errorf("#%d (approval dismissed, withdrawn, or none) was not marked", n)
		}
	}
}

var draftInputs = map[string]string{"close-action": "draft", "exempt-draft-pr": "true", "close-pr-label": "closed-stale"}

// Rule 6: a locked conversation is left alone, as actions/stale does: not
// marked, not closed, and its stale label stays whatever happens on it.
func TestLockedPRsAreLeftAlone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inactive := w.pr(200, locked)     // found by the pulls listing
	due := w.markedPR(40, locked)     // found by the stale-label listing
	revived := w.markedPR(20, locked) // a person commented after the mark
	w.fake.Comment(revived, bob, daysAgo(1), "still on it")
	open := w.pr(200)
	res := w.run(map[string]string{"labels-to-add-when-unstale": "active"})
	for _, n := range []int{inactive, due, revived} {
		if got := w.writesTo(n); len(got) != 0 {
			t.Errorf("locked #%d got writes %v; want none", n, got)
		}
		if r := why(res.Skipped(), n); r != lifecycle.ReasonLocked {
			t.Errorf("locked #%d: skipped as %q, want %q", n, r, lifecycle.ReasonLocked)
		}
	}
	if w.state(due) != "open" || !w.hasLabel(due, "stale") || !w.hasLabel(revived, "stale") {
		t.Errorf("locked PRs changed: #%d %s %v, #%d %v", due, w.state(due), w.labels(due), revived, w.labels(revived))
	}
	if !has(res.Marked(), open) {
		t.Errorf("the unlocked PR #%d was not marked", open)
	}
}

// exempt-approved follows GitHub's review decision: an approval does not
// exempt while another reviewer's latest review requests changes.
func TestExemptApprovedNotWhileChangesAreRequested(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddMember(maint.Login, bob.Login) // only reviews by accounts with write access count
	blocked := w.pr(100)
	w.fake.Review(blocked, maint, daysAgo(105), "APPROVED", "")
	w.fake.Review(blocked, bob, daysAgo(101), "CHANGES_REQUESTED", "the API changes need a test")
	settled := w.pr(100)
	w.fake.Review(settled, maint, daysAgo(105), "APPROVED", "")
	w.fake.Review(settled, bob, daysAgo(103), "CHANGES_REQUESTED", "needs a test")
	w.fake.Review(settled, bob, daysAgo(101), "APPROVED", "")
	res := w.run(map[string]string{"exempt-approved": "true"})
	if !w.hasLabel(blocked, "stale") || !has(res.Marked(), blocked) {
		t.Errorf("#%d approved by one, changes requested by another: not marked (%q); it waits on its author", blocked, why(res.Skipped(), blocked))
	}
	if w.hasLabel(settled, "stale") || why(res.Skipped(), settled) != lifecycle.ReasonApproved {
		t.Errorf("#%d approved by both in the end: marked, want exempt", settled)
	}
}
