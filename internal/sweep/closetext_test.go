package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestCloseTextComesTrue: the default closing comment says what happened
// to the PR it closes. "Stayed marked for N days without activity" is true
// of a PR marked under the inactivity clock only: a PR closed in the run
// that finds it stale (days-before-close 0) was never marked, and under
// author-turn a maintainer's comment after the mark does not postpone the
// close, so the comment says whose turn it was. A text of the user's own
// serves every close as it is.
func TestCloseTextComesTrue(t *testing.T) {
	t.Parallel()
	pinged := func(w *world) int {
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
		return n
	}
	zeroDays := map[string]string{"days-before-close": "0"}
	for _, tc := range []struct {
		name        string
		inputs      map[string]string
		setup       func(w *world) int
		want, never string
	}{
		{"marked", nil, func(w *world) int { return w.markedPR(40) },
			"it stayed marked `stale` for 30 days without activity", ""},
		{"never marked: days-before-close 0", zeroDays, func(w *world) int { return w.pr(120) },
			"it has had no activity for 120 days", "marked"},
		{"author-turn, a maintainer's comment since the mark", authorTurnInputs, pinged,
			"it stayed marked `stale` for 5 days, waiting on its author since " + daysAgo(20).Format("2006-01-02") + ", after maintainer's review", "without activity"},
		{"author-turn, never marked", sfWith(authorTurnInputs, "days-before-close", "0"), func(w *world) int {
			w.fake.AddMember(maint.Login, mia.Login)
			n := w.openPR(60, alice)
			w.fake.Review(n, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename")
			return n
		}, "it has been waiting on its author since " + daysAgo(20).Format("2006-01-02") + ", after maintainer's review", "marked"},
		{"the user's own text, never marked", sfWith(zeroDays, "close-pr-message", "Bye after {{days-inactive}} days"),
			func(w *world) int { return w.pr(120) }, "Bye after 120 days", ""},
		// The history read (exempt-awaiting-review asks it) shows a bot's
		// comment, activity under activity-from anyone: the days are the
		// decision's, not those since a person's last action.
		{"never marked, its history read", sfWith(zeroDays, "exempt-awaiting-review", "true"), func(w *world) int {
			n := w.pr(100)
			w.fake.Comment(n, ci, daysAgo(100), "build passed")
			return n
		}, "it has had no activity for 100 days", "110"},
		// ignore-updates counts from the opening: a comment 5 days ago
		// does not make it 5 days.
		{"ignore-updates, never marked", sfWith(zeroDays, "ignore-updates", "true", "exempt-awaiting-review", "true"), func(w *world) int {
			n := w.pr(5, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(200) })
			w.fake.Comment(n, bob, daysAgo(5), "any news?")
			return n
		}, "it has been open for 200 days", "no activity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := tc.setup(w)
			w.run(tc.inputs)
			if w.state(n) != "closed" {
				t.Fatalf("#%d %s, labels %v: want closed", n, w.state(n), w.labels(n))
			}
			body := w.commentWith(n, "close")
			if !strings.Contains(body, tc.want) || tc.never != "" && strings.Contains(body, tc.never) {
				t.Errorf("closing comment %q: want %q in it, and never %q", body, tc.want, tc.never)
			}
		})
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
