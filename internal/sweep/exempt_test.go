package sweep_test

// exempt-approved end to end, with an approval dismissed, which the fake's
// scenario format does not write; the other exemptions are the cases in
// testdata/rules/exempt (TestRuleCases).

import "testing"

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
