package sweep_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
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
