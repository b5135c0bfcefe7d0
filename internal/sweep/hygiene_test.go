package sweep_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// A stale label a person put on a PR after it was closed is theirs (their
// record of why it was closed), not a mark stalepr left behind: the label
// clean-up leaves it, and with delete-branch the branch of a PR stalepr
// closed long before is not taken for a deletion a stopped run left.
func TestHygieneLeavesAStaleLabelAPersonAddedAfterTheClose(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"delete-branch": "true"}
	w.fake.AddBranch("feature")
	ours := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "feature" })
	w.run(inputs)
	if w.state(ours) != "closed" || w.hasLabel(ours, "stale") || w.fake.HasBranch("feature") {
		t.Fatalf("#%d: state %s labels %v branches %v; want closed by stalepr, label off, branch deleted",
			ours, w.state(ours), w.labels(ours), w.fake.Branches())
	}
	byPerson := w.pr(5)
	w.fake.Close(byPerson, maint, w.now().Add(-time.Hour), "")

	// The next day the maintainer restores the branch and labels both stale.
	w.clock.Advance(24 * time.Hour)
	w.fake.AddBranch("feature")
	w.fake.Label(ours, maint, w.now().Add(-time.Hour), "stale")
	w.fake.Label(byPerson, maint, w.now().Add(-time.Hour), "stale")
	w.fake.Reset()
	res := w.run(inputs)
	for _, n := range []int{ours, byPerson} {
		if !w.hasLabel(n, "stale") || has(res.Cleaned(), n) {
			t.Errorf("#%d: the stale label a maintainer added after the close was taken off: labels %v", n, w.labels(n))
		}
		if got := w.writesTo(n); len(got) != 0 {
			t.Errorf("#%d: writes %v; want none", n, got)
		}
	}
	if !w.fake.HasBranch("feature") {
		t.Errorf("the branch a maintainer restored after stalepr's close was deleted: branches %v", w.fake.Branches())
	}
}

// A merged PR is nobody's stale close: a stale label it carried into the
// merge comes off, but one a person put on after the merge is theirs and
// stays (delete-branch off, where merged PRs were cleaned without their
// history).
func TestHygieneMergedPRsLabelByWhen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.markedPR(10)
	w.fake.Merge(before, maint, w.now().Add(-2*time.Hour))
	after := w.pr(5)
	w.fake.Merge(after, maint, w.now().Add(-2*time.Hour))
	w.fake.Label(after, maint, w.now().Add(-time.Hour), "stale")
	w.run(nil)
	if w.hasLabel(before, "stale") {
		t.Errorf("#%d: labels %v; the stale label it was merged with must come off", before, w.labels(before))
	}
	if !w.hasLabel(after, "stale") {
		t.Errorf("#%d: labels %v; the stale label a maintainer put on after the merge was taken off", after, w.labels(after))
	}
}
