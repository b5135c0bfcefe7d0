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

const (
	routeGetPull   = "GET /repos/{owner}/{repo}/pulls/{pull_number}"
	routeSetLabels = "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels"
)

// TestMarkRetriedReadsTheLabelsAgain: with labels-to-remove-when-stale the
// mark replaces the PR's whole label set (PUT labels). GitHub refuses it
// (a 502, a secondary limit) and a maintainer adds a label while the run
// waits to send it again: the retry reads the PR first and computes the
// set from what it carries then, so the maintainer's label stays on. A PUT
// GitHub made before its 502 is found made by that read: nothing is sent
// again. The write pace and every wait come before the read, never
// between the read and the write.
func TestMarkRetriedReadsTheLabelsAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault *fakegithub.Fault
		label bool // the maintainer labels the PR while the run waits
		// the requests for the PR: its read and the PUT, then the read
		// before the retry, and when that read finds the maintainer's
		// label, the set computed again, read again and sent
		want []string
	}{
		{"a 502, then a label", fakegithub.ServerError(502), true, []string{"GET", "PUT", "GET", "GET", "PUT"}},
		{"a secondary limit, then a label", fakegithub.SecondaryRateLimit(403, 30), true, []string{"GET", "PUT", "GET", "GET", "PUT"}},
		{"a 502 after the labels were set", fakegithub.FailAfterWrite(), false, []string{"GET", "PUT", "GET"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.pr(100, withLabels("needs-work"))
			type sent struct {
				route string
				at    time.Time
			}
			var (
				mu      sync.Mutex
				seen    []sent
				labeled bool
			)
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if r.Route != routeGetPull && r.Route != routeSetLabels {
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, sent{r.Route, w.now()})
				if r.Route != routeSetLabels || labeled || len(seen) > 2 {
					return nil
				}
				if c.label {
					labeled = true
					w.fake.Label(n, maint, w.now(), "needs-decision")
				}
				return c.fault
			})
			res := w.run(map[string]string{"labels-to-remove-when-stale": "needs-work", "write-interval": "10s"})

			if got := w.labels(n); c.label != slices.Contains(got, "needs-decision") || !w.hasLabel(n, "stale") || slices.Contains(got, "needs-work") {
				t.Errorf("labels %v: want stale, needs-work gone, and the maintainer's needs-decision kept", got)
			}
			var got []string
			for i, s := range seen {
				got = append(got, strings.Fields(s.route)[0])
				if s.route == routeSetLabels && (i == 0 || seen[i-1].route != routeGetPull || !seen[i-1].at.Equal(s.at)) {
					t.Errorf("PUT %d went at %s, after a wait since the read before it", i, s.at.Format(time.TimeOnly))
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("requests for the PR %v, want %v", got, c.want)
			}
			if len(seen) >= 3 && !seen[2].at.After(seen[1].at) {
				t.Errorf("the read before the retry at %s, the refused PUT at %s: no wait before it", seen[2].at.Format(time.TimeOnly), seen[1].at.Format(time.TimeOnly))
			}
			if last := seen[len(seen)-1]; len(seen) == 5 && !last.at.Equal(seen[2].at) {
				t.Errorf("the set computed again went at %s, the read that found the label at %s: a write pace for a write never sent", last.at.Format(time.TimeOnly), seen[2].at.Format(time.TimeOnly))
			}
			if !has(res.With(sweep.Marked), n) || !res.OK() {
				t.Errorf("marked %v, failed %+v: want #%d marked", numbers(res.With(sweep.Marked)), res.Failed(), n)
			}
			if got := w.notices(n, "stale"); got != 1 {
				t.Errorf("%d stale notices, want 1", got)
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
			var (
				mu     sync.Mutex
				writes int
			)
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if r.Route != c.route {
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				if writes++; writes > 1 {
					return nil
				}
				if c.label {
					w.fake.Label(n, maint, w.now(), "needs-decision")
				}
				return c.fault
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
