package sweep_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

const routeSetLabels = "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels"

// TestMarkRetriedReadsTheLabelsAgain: with labels-to-remove-when-stale the
// mark replaces the PR's whole label set (PUT labels), computed from a fresh
// read. GitHub refuses it (a 502, a secondary limit) and a maintainer adds a
// label while the run waits to send it again: the retry reads the PR
// first, after the wait, finds it changed and leaves it for the next run,
// so the maintainer's label stays on; the next run decides on it (a
// person's label is activity). A PUT GitHub made before its 502 is found made by that read:
// nothing is sent again.
func TestMarkRetriedReadsTheLabelsAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault *fakegithub.Fault
		label bool // the maintainer labels the PR while the run waits
	}{
		{"a 502, then a label", fakegithub.ServerError(502), true},
		{"a secondary limit, then a label", fakegithub.SecondaryRateLimit(403, 30), true},
		{"a 502 after the labels were set", fakegithub.FailAfterWrite(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.pr(100, withLabels("needs-work"))
			type sent struct {
				what string
				at   time.Time
			}
			var (
				mu      sync.Mutex
				seen    []sent
				labeled bool
			)
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				what := "PUT"
				switch {
				case strings.Contains(r.Body, "f0: pullRequest("):
					what = "READ"
				case r.Route != routeSetLabels:
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, sent{what, w.now()})
				if what != "PUT" || labeled || len(seen) > 2 {
					return nil
				}
				if c.label {
					labeled = true
					w.fake.Label(n, maint, w.now(), "needs-decision")
				}
				return c.fault
			})
			inputs := map[string]string{"labels-to-remove-when-stale": "needs-work", "write-interval": "10s"}
			res := w.run(inputs)

			var got []string
			for _, s := range seen {
				got = append(got, s.what)
			}
			if want := "READ PUT READ"; strings.Join(got, " ") != want {
				t.Errorf("requests for the PR %v, want %s: the fresh read, the refused PUT, the read before its retry", got, want)
			}
			if len(seen) >= 3 && !seen[2].at.After(seen[1].at) {
				t.Errorf("the read before the retry at %s, the refused PUT at %s: no wait before it", seen[2].at.Format(time.TimeOnly), seen[1].at.Format(time.TimeOnly))
			}
			if got := w.labels(n); c.label != slices.Contains(got, "needs-decision") {
				t.Errorf("labels %v: the maintainer's needs-decision is gone", got)
			}
			if !c.label {
				if !has(res.With(sweep.Marked), n) || !res.OK() || !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
					t.Errorf("marked %v, failed %+v, labels %v: want #%d marked once", numbers(res.With(sweep.Marked)), res.Failed(), w.labels(n), n)
				}
				return
			}
			if why(res.Skipped(), n) != sweep.ReasonChangedSince || w.hasLabel(n, "stale") || w.notices(n, "stale") != 0 {
				t.Errorf("#%d skipped as %q, labels %v, %d notices: want it left for the next run as %q", n, why(res.Skipped(), n), w.labels(n), w.notices(n, "stale"), sweep.ReasonChangedSince)
			}
			// The next run decides on what happened: the maintainer's label
			// is a person's activity, so the PR is not stale.
			w.clock.Advance(time.Hour)
			w.run(inputs)
			if got := w.labels(n); !slices.Contains(got, "needs-decision") || w.hasLabel(n, "stale") || w.notices(n, "stale") != 0 {
				t.Errorf("next run: labels %v, %d notices: want needs-decision kept and no mark (a person labelled it)", got, w.notices(n, "stale"))
			}
		})
	}
}

// TestCloseRetriedReadsTheLabelsAgain: a close replaces the PR's whole
// label set (PATCH issue with labels; PUT labels with close-action draft),
// computed from the read before its closing comment. GitHub refuses it (a
// 502) and a maintainer adds a label while the run waits to send it again:
// the retry reads the PR first, finds it changed, and leaves it for the
// next run (which decides on the label, a person's action), the label on.
// A close GitHub made before its 502 is found made: not sent again.
func TestCloseRetriedReadsTheLabelsAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		inputs map[string]string
		route  string
		fault  *fakegithub.Fault
		label  bool
		closed bool
	}{
		{"a 502, then a label", nil, routeCloseIssue, fakegithub.ServerError(502), true, false},
		{"a 502 after the close", nil, routeCloseIssue, fakegithub.FailAfterWrite(), false, true},
		{"draft: a 502, then a label", map[string]string{"close-action": "draft"}, routeSetLabels, fakegithub.ServerError(502), true, false},
		{"draft: a 502 after the labels were set", map[string]string{"close-action": "draft"}, routeSetLabels, fakegithub.FailAfterWrite(), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(31)
			w.failFirst(c.route, c.fault, func() {
				if c.label {
					w.fake.Label(n, maint, w.now(), "needs-decision")
				}
			})
			res := w.run(c.inputs)

			if got := w.fake.CountBy()[c.route]; got != 1 {
				t.Errorf("%d %s, want the one refused, not sent again", got, c.route)
			}
			if c.label && !slices.Contains(w.labels(n), "needs-decision") {
				t.Errorf("labels %v: the maintainer's needs-decision is gone", w.labels(n))
			}
			closed := w.state(n) == "closed" || !w.hasLabel(n, "stale") // a draft stays open
			if c.closed != closed || c.closed != has(res.Closed(), n) {
				t.Errorf("#%d: state %s, labels %v, closed %v; want it closed: %v", n, w.state(n), w.labels(n), numbers(res.Closed()), c.closed)
			}
			if !c.closed && why(res.Skipped(), n) != sweep.ReasonChangedSince {
				t.Errorf("#%d skipped as %q, want %q", n, why(res.Skipped(), n), sweep.ReasonChangedSince)
			}
			if got := w.notices(n, "close"); got != 1 {
				t.Errorf("%d closing comments, want 1", got)
			}
		})
	}
}

// TestCloseRetriedSeesACommentDuringTheWait: GitHub refuses the close (a
// 502, a secondary limit) and the author answers the stale notice while the
// run waits to send it again. The close's own read proves a PR unchanged
// only with no event since the listing (readBeforeClose); its retry, after
// the wait, reads the PR again and must hold it to the same: an answer
// that came during the wait is a person's activity, and the PR is left for
// the next run, open, which un-stales it. Our own closing comment, posted
// before the close, is no such change.
func TestCloseRetriedSeesACommentDuringTheWait(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		fault  *fakegithub.Fault
		answer bool // the author comments while the run waits
	}{
		{"a 502", fakegithub.ServerError(502), true},
		{"a secondary limit", fakegithub.SecondaryRateLimit(403, 30), true},
		{"a 502, nobody answering", fakegithub.ServerError(502), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(31)
			w.failFirst(routeCloseIssue, c.fault, func() {
				if c.answer {
					w.fake.Comment(n, alice, w.now(), "Still on it, rebasing today.")
				}
			})
			res := w.run(nil)
			if !c.answer {
				// Our own closing comment, before the close, is no change.
				if w.state(n) != "closed" || !has(res.Closed(), n) || w.fake.CountBy()[routeCloseIssue] != 2 || w.notices(n, "close") != 1 {
					t.Errorf("#%d %s, closed %v, %d PATCH: want it closed by the retry", n, w.state(n), numbers(res.Closed()), w.fake.CountBy()[routeCloseIssue])
				}
				return
			}

			if got := w.fake.CountBy()[routeCloseIssue]; got != 1 {
				t.Errorf("%d %s, want the one refused, not sent again after the author's answer", got, routeCloseIssue)
			}
			if w.state(n) != "open" || has(res.Closed(), n) {
				t.Fatalf("#%d %s, closed %v: the author answered while the run waited, want it open", n, w.state(n), numbers(res.Closed()))
			}
			if why(res.Skipped(), n) != sweep.ReasonChangedSince {
				t.Errorf("#%d skipped as %q, want %q", n, why(res.Skipped(), n), sweep.ReasonChangedSince)
			}
			w.clock.Advance(time.Hour)
			w.run(nil)
			if w.state(n) != "open" || w.hasLabel(n, "stale") {
				t.Errorf("next run: #%d %s, labels %v: want it open and un-staled (the author answered)", n, w.state(n), w.labels(n))
			}
		})
	}
}

// failFirst answers the first request of route with fault, after
// meanwhile: what a person does while the run waits to send it again.
func (w *world) failFirst(route string, fault *fakegithub.Fault, meanwhile func()) {
	var once sync.Once
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Route != route {
			return nil
		}
		var f *fakegithub.Fault
		once.Do(func() { meanwhile(); f = fault })
		return f
	})
}
