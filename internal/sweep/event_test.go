package sweep_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The event path through HTTP: a run started by an event on one PR reads
// that PR once and writes only an un-stale or turn labels, within 3
// requests; it never lists the repository, and never marks, notifies,
// closes or nudges.

// eventRun evaluates PR n as main does after an event sender caused, on
// the event path's budget.
func (w *world) eventRun(inputs map[string]string, n int, sender string) sweep.Result {
	w.t.Helper()
	before := w.fake.Count()
	res := w.eventRunBeside(inputs, n, sender)
	for _, r := range w.fake.Requests()[before:] {
		if strings.Contains(r.Body, "pullRequests(") {
			w.t.Errorf("the event run listed the repository: %s", r.Route)
		}
	}
	return res
}

// eventRunBeside is eventRun with other runs at once: the requests are
// not all its own.
func (w *world) eventRunBeside(inputs map[string]string, n int, sender string) sweep.Result {
	cfg := w.config(sfWith(inputs, "write-interval", "0s"))
	cfg.OperationsPerRun = sweep.EventRequests
	return sweep.New(w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{}).OnePR(context.Background(), n, sender)
}

func TestEventUnstalesAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(5)
	w.fake.Comment(n, alice, daysAgo(0.01), "still working on it")
	res := w.eventRun(nil, n, alice.Login)
	if w.hasLabel(n, "stale") || !has(res.Unstaled(), n) {
		t.Fatalf("#%d: labels %v after the author's comment; want it un-staled at once", n, w.labels(n))
	}
	if got := w.fake.Count(); got > 3 {
		t.Errorf("%d requests, want at most 3", got)
	}
	t.Logf("un-stale: %v", w.fake.CountBy())
}

func TestEventTurnLabelsFollowAtOnce(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.Comment(n, maint, daysAgo(0.01), "could you add a test?")
	res := w.eventRun(turnLabelInputs, n, maint.Login)
	if !w.hasLabel(n, "waiting-on-author") || len(res.With(sweep.TurnLabeled)) != 1 {
		t.Fatalf("#%d: labels %v after a maintainer's request; want waiting-on-author at once", n, w.labels(n))
	}
	if got := w.fake.Count(); got > 3 {
		t.Errorf("%d requests, want at most 3", got)
	}
}

// The author answers a stale PR that a maintainer labelled as waiting on
// them: the event run takes the stale label off and swaps the turn labels,
// all of it at once, within EventRequests. (A budget of 3 requests once
// stopped it after the un-stale, the turn labels left for the schedule.)
func TestEventAnswerDoneWhole(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.markedPR(5)
	w.fake.Label(n, maint, daysAgo(6), "waiting-on-author")
	w.fake.Comment(n, alice, daysAgo(0.01), "done")
	inputs := sfWith(turnLabelInputs, "stale-clock", "author-turn", "days-before-stale", "30")
	res := w.eventRun(inputs, n, alice.Login)
	if res.Stopped != nil || res.Left != 0 || !res.OK() {
		t.Fatalf("stopped %v with %d left (ok %v): want the answer's writes all done", res.Stopped, res.Left, res.OK())
	}
	if w.hasLabel(n, "stale") || w.hasLabel(n, "waiting-on-author") || !w.hasLabel(n, "waiting-on-review") {
		t.Errorf("#%d: labels %v, want the stale label off and the turn labels swapped", n, w.labels(n))
	}
	if got := w.fake.Count(); got > sweep.EventRequests {
		t.Errorf("%d requests, more than the event path's %d", got, sweep.EventRequests)
	}
}

// TestEventHandsBackTheReview: with rerequest-reviewers-on-answer, the
// author's push that answers a change request gets the reviewer's review
// requested again by the push's own event run, once: the next event finds
// that request after the answer.
func TestEventHandsBackTheReview(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.answeredPR(0.01)
	res := w.eventRun(rerequestInputs, n, alice.Login)
	if got := numbers(res.With(sweep.Rerequested)); len(got) != 1 || w.requestsOf(n, maint.Login, action) != 1 {
		t.Fatalf("re-requested %v, %d requests of %s by stalepr: want #%d's, once", got, w.requestsOf(n, maint.Login, action), maint.Login, n)
	}
	if got := w.fake.Count(); got > sweep.EventRequests || got != 2 {
		t.Errorf("%d requests, want 2 (the read, the request; never more than the event path's %d)", got, sweep.EventRequests)
	}
	w.fake.Comment(n, alice, w.now(), "pushed the rename")
	before := w.fake.Writes()
	w.eventRun(rerequestInputs, n, alice.Login)
	if w.fake.Writes() != before || w.requestsOf(n, maint.Login, action) != 1 {
		t.Errorf("the next event wrote %d times: want the review requested once per answer", w.fake.Writes()-before)
	}
}

// The marks, notices, closes and nudges are the schedule's: an event on a
// PR that is due one writes nothing.
func TestEventLeavesTheScheduleItsWrites(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	due := w.markedPR(40)        // a close is due
	inactive := w.pr(100)        // a mark is due
	nudge := w.openPR(30, alice) // a nudge is due
	inputs := map[string]string{"days-before-review-nudge": "7"}
	for _, n := range []int{due, inactive, nudge} {
		before := w.fake.Writes()
		res := w.eventRun(inputs, n, bob.Login)
		if w.fake.Writes() != before || len(res.Closed())+len(res.Marked())+len(res.Nudged()) != 0 {
			t.Errorf("#%d: the event run wrote %d times (closed %v, marked %v, nudged %v); want none",
				n, w.fake.Writes()-before, numbers(res.Closed()), numbers(res.Marked()), numbers(res.Nudged()))
		}
		if w.state(n) != "open" {
			t.Errorf("#%d closed by an event run", n)
		}
	}
}

// An event of stalepr's own identity (its own label change, with a
// personal token) and one on a PR closed since the event end after the
// one read, writing nothing: no loop, nothing stale.
func TestEventDoNothingAfterTheRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		setup  func(w *world) int
		sender string
	}{
		{"our own write", func(w *world) int {
			n := w.markedPR(5)
			w.fake.Comment(n, alice, daysAgo(0.01), "still working on it")
			return n
		}, action.Login},
		{"closed since", func(w *world) int {
			n := w.markedPR(5)
			w.fake.Comment(n, alice, daysAgo(0.01), "never mind")
			w.fake.Close(n, alice, daysAgo(0.005), "")
			return n
		}, alice.Login},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := tc.setup(w)
			res := w.eventRun(nil, n, tc.sender)
			if got := w.fake.Count(); got != 1 || w.fake.Writes() != 0 {
				t.Errorf("%d requests, %d writes; want the one read and no write", got, w.fake.Writes())
			}
			if !has(res.Skipped(), n) || !res.OK() {
				t.Errorf("#%d not reported skipped (ok %v): %+v", n, res.OK(), res.Items)
			}
		})
	}
}

// An event run and the scheduled run at once on the PR a person answered:
// the label comes off, the notice stays the only one, neither fails.
func TestEventBesideTheScheduledRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(5)
	for i := 0; i < 20; i++ {
		w.pr(100) // the scheduled run marks these meanwhile
	}
	w.fake.Comment(n, alice, daysAgo(0.01), "still working on it")
	var wg sync.WaitGroup
	var scheduled, evented sweep.Result
	wg.Add(2)
	go func() { defer wg.Done(); scheduled = w.run(sfWith(nil, "write-interval", "0s")) }()
	go func() { defer wg.Done(); evented = w.eventRunBeside(nil, n, alice.Login) }()
	wg.Wait()
	if w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
		t.Errorf("#%d: labels %v, %d notices; want the label off and its one notice", n, w.labels(n), w.notices(n, "stale"))
	}
	if !scheduled.OK() || !evented.OK() {
		t.Errorf("scheduled ok %v (failed %+v), event ok %v (failed %+v)", scheduled.OK(), scheduled.Failed(), evented.OK(), evented.Failed())
	}
}

// BenchmarkEvent is one event run on a 2,000-PR repository: the requests
// it sends (it never lists the repository) and its time against the fake.
//
//	go test -run '^$' -bench BenchmarkEvent -benchtime 20x ./internal/sweep/
func BenchmarkEvent(b *testing.B) {
	w := openPRs(b, 2000)
	n := w.markedPR(5)
	cfg := w.config(map[string]string{"write-interval": "0s", "stale-clock": "author-turn"})
	cfg.OperationsPerRun = sweep.EventRequests
	var requests int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.fake.Comment(n, alice, w.now(), "still working on it")
		before := w.fake.Count()
		b.StartTimer()
		res := sweep.New(w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{}).OnePR(context.Background(), n, alice.Login)
		b.StopTimer()
		requests = w.fake.Count() - before
		if !res.OK() {
			b.Fatalf("failed %+v", res.Failed())
		}
		w.fake.Label(n, action, w.now(), "stale") // marked again for the next round
		b.StartTimer()
	}
	b.ReportMetric(float64(requests), "requests/event")
}

// A failed read leaves the event's PR to the scheduled run: reported
// failed, nothing written.
func TestEventFailedReadWritesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(5)
	w.fake.Comment(n, alice, daysAgo(0.01), "still working on it")
	w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: -1, Fault: fakegithub.ServerError(502)})
	res := w.eventRun(nil, n, alice.Login)
	if w.fake.Writes() != 0 || !has(res.Failed(), n) || res.OK() || res.ListingFailed() {
		t.Errorf("writes %d, failed %v, ok %v, listing failed %v: want #%d failed, nothing written, no listing blamed",
			w.fake.Writes(), numbers(res.Failed()), res.OK(), res.ListingFailed(), n)
	}
}

// forkRefusal is GitHub's answer to a write by a fork's pull_request_review
// run's read-only GITHUB_TOKEN.
var forkRefusal = fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration",`+
	`"documentation_url":"https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue","status":"403"}`)

// An event run on a fork's PR whose token GitHub made read-only: the
// author's answer calls for the un-stale and the turn labels' swap; the
// first write is refused, and nothing else is sent for the PR: a green
// run, the PR skipped for the scheduled run, no half-done write. A
// refusal after a write went through stays a failure, half done.
func TestEventForkReadOnlyStopsWhole(t *testing.T) {
	t.Parallel()
	inputs := sfWith(turnLabelInputs, "stale-clock", "author-turn", "days-before-stale", "30")
	answered := func(w *world) int {
		n := w.markedPR(5)
		w.fake.Label(n, maint, daysAgo(6), "waiting-on-author")
		w.fake.Comment(n, alice, daysAgo(0.01), "done")
		return n
	}
	t.Run("first write refused", func(t *testing.T) {
		t.Parallel()
		w := turnWorld(t)
		n := answered(w)
		w.fake.InjectFault(fakegithub.FaultRule{Writes: true, Times: -1, Fault: forkRefusal})
		cfg := w.config(sfWith(inputs, "write-interval", "0s"))
		cfg.OperationsPerRun = sweep.EventRequests
		res := sweep.New(w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{}).OneForkPR(context.Background(), n, alice.Login, "contributor/repo")
		if writes := len(w.fake.WriteRequests()); writes != 1 {
			t.Errorf("%d writes sent, want the refused one and nothing after it", writes)
		}
		if !res.OK() || res.Stopped != nil || !has(res.Skipped(), n) || len(res.Items) != 1 {
			t.Errorf("ok %v, stopped %v, items %+v: want #%d skipped once, green", res.OK(), res.Stopped, res.Items, n)
		}
		if !w.hasLabel(n, "stale") || !w.hasLabel(n, "waiting-on-author") {
			t.Errorf("#%d: labels %v, want them as they were", n, w.labels(n))
		}
	})
	t.Run("refused after a write", func(t *testing.T) {
		t.Parallel()
		w := turnWorld(t)
		n := answered(w)
		w.fake.InjectFault(fakegithub.FaultRule{Writes: true, Nth: 2, Times: -1, Fault: forkRefusal})
		cfg := w.config(sfWith(inputs, "write-interval", "0s"))
		cfg.OperationsPerRun = sweep.EventRequests
		res := sweep.New(w.client(cfg, w.clock, nil), cfg, w.now(), &nopLog{}).OneForkPR(context.Background(), n, alice.Login, "contributor/repo")
		if res.OK() || len(res.Failed()) == 0 {
			t.Errorf("ok %v, items %+v: a refusal after a write is no fork rule, want it failed", res.OK(), res.Items)
		}
	})
}
