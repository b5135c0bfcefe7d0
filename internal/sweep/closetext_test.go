package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestCloseTextComesTrue: the default closing comment says what happened
// to the PR it closes. Under author-turn a maintainer's comment after the
// mark does not postpone the close, so the comment says whose turn it was,
// not "without activity". The other closes' texts (marked, never marked,
// a text of the user's own) are cases in testdata/rules (close-text-*).
func TestCloseTextComesTrue(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddMember(maint.Login, mia.Login)
	n := w.openPR(60, alice)
	w.fake.Review(n, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename")
	w.run(authorTurnInputs)
	if !w.hasLabel(n, "stale") {
		t.Fatalf("#%d not marked: %v", n, w.labels(n))
	}
	w.clock.Advance(2 * lifecycle.Day)
	w.fake.Comment(n, mia, w.now(), "any news?") // a maintainer: the author's turn goes on
	w.clock.Advance(4 * lifecycle.Day)
	w.run(authorTurnInputs)
	if w.state(n) != "closed" {
		t.Fatalf("#%d %s, labels %v: want closed", n, w.state(n), w.labels(n))
	}
	want := "it stayed marked `stale` for 5 days, waiting on its author since " + daysAgo(20).Format("2006-01-02") + ", after maintainer's review"
	if body := w.commentWith(n, "close"); !strings.Contains(body, want) || strings.Contains(body, "without activity") {
		t.Errorf("closing comment %q: want %q in it, and never %q", body, want, "without activity")
	}
}

// TestCloseTextNeverMarkedReadsNothing: a PR closed unmarked has its days
// inactive from the decision (its updated_at is not our mark): the
// closing comment costs no read of its history, even one longer than the
// listing's page holds.
func TestCloseTextNeverMarkedReadsNothing(t *testing.T) {
	t.Parallel()
	requests := func(message string) int {
		w := newWorld(t)
		n := w.pr(120)
		for i := range 120 {
			w.fake.Comment(n, ci, daysAgo(121).Add(time.Duration(i)*time.Minute), "build passed")
		}
		w.run(map[string]string{"days-before-close": "0", "close-pr-message": message})
		return w.fake.Count()
	}
	if plain, counted := requests("Closed."), requests("Closed after {{days-inactive}} days."); counted != plain {
		t.Errorf("{{days-inactive}} costs %d requests more on a PR never marked, want none", counted-plain)
	}
}
