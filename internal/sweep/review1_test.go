package sweep_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Rule 8: a PR closed after the listing (by a person, by a concurrent run)
// is left alone: no review nudge is posted into it either.
func TestNudgeNotPostedOnAPRClosedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	timeline := func(r *http.Request) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/issues/"+strconv.Itoa(n)+"/timeline")
	}
	res := w.sfRun(nudgeInputs, sfOpts{base: &hookBase{match: timeline, hook: func() {
		w.fake.Close(n, maint, w.now(), "not planned")
	}}})
	if c := w.notices(n, "nudge"); c != 0 || w.hasLabel(n, "waiting-on-review") || has(res.Nudged(), n) {
		t.Errorf("#%d closed since the listing: %d nudges, labels %v, nudged %v; want it left alone",
			n, c, w.labels(n), has(res.Nudged(), n))
	}
}

// Rule 5 under stale-clock: author-turn: a PR closed as stale and reopened
// (by its author, or by a maintainer) is fresh: the next run neither marks
// nor closes it.
func TestTurnReopenedIsFresh(t *testing.T) {
	t.Parallel()
	for _, by := range []fakegithub.User{alice, maint} {
		t.Run(by.Login, func(t *testing.T) {
			w := turnWorld(t)
			f := w.fake
			n := w.openPR(60, alice)
			f.Review(n, maint, daysAgo(40), "CHANGES_REQUESTED", "please rename")
			w.run(authorTurnInputs) // marks: 40 days on the author's turn
			w.clock.Advance(6 * lifecycle.Day)
			w.run(authorTurnInputs) // closes
			if w.state(n) != "closed" {
				t.Fatalf("#%d: %s, %v; want closed as stale first", n, w.state(n), w.labels(n))
			}
			w.clock.Advance(lifecycle.Day)
			f.Reopen(n, by, w.now())
			w.clock.Advance(lifecycle.Day / 24)
			res := w.run(authorTurnInputs)
			if w.hasLabel(n, "stale") || w.state(n) != "open" || has(res.Marked(), n) {
				t.Errorf("#%d reopened by %s an hour ago: %s, labels %v; want open and not stale", n, by.Login, w.state(n), w.labels(n))
			}
		})
	}
}
