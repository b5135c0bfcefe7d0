package sweep_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/testenv"
)

func TestRule3RemoveStaleWhenUpdatedFalseKeepsLabelButPostponesClose(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(40)
	w.fake.Comment(n, bob, daysAgo(20), "please wait")
	w.run(map[string]string{"remove-pr-stale-when-updated": "false"})
	if !w.hasLabel(n, "stale") || w.state(n) != "open" {
		t.Fatalf("labels %v state %s: want still labelled and open (activity 20 days ago < 30)", w.labels(n), w.state(n))
	}
	w.clock.Advance(11 * 24 * time.Hour)
	w.run(map[string]string{"remove-pr-stale-when-updated": "false"})
	if w.state(n) != "closed" {
		t.Fatalf("31 days after the last activity: state %s, want closed", w.state(n))
	}
}

func TestRule4ClockStartsAtTheLastLabel(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(60)
	w.fake.Unlabel(n, maint, daysAgo(20), "stale")
	w.fake.Label(n, maint, daysAgo(20), "stale")
	w.run(nil)
	if w.state(n) != "open" {
		t.Fatalf("re-labelled 20 days ago: state %s, want open", w.state(n))
	}
	if w.notices(n, "stale") != 1 {
		t.Errorf("a maintainer's hand-added label gets no notice of ours: %d notices, want the first mark's one", w.notices(n, "stale"))
	}
	w.clock.Advance(11 * 24 * time.Hour)
	w.run(nil)
	if w.state(n) != "closed" {
		t.Fatalf("31 days after the re-label: state %s, want closed", w.state(n))
	}
}

// Rule 5: closed by us, reopened by a person: not closed again.
func TestRule5ReopenedIsFresh(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(31)
	w.run(nil)
	if w.state(n) != "closed" {
		t.Fatalf("setup: state %s, want closed", w.state(n))
	}
	w.clock.Advance(24 * time.Hour)
	w.fake.Reopen(n, alice, w.now())
	w.clock.Advance(24 * time.Hour)
	w.run(nil)
	if w.state(n) != "open" || w.hasLabel(n, "stale") {
		t.Fatalf("after reopen: state %s labels %v, want open and not stale", w.state(n), w.labels(n))
	}
}

// Rule 8: dry run sends no write request at all.
func TestRule8DryRunWritesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	mark := w.pr(120)
	closing := w.markedPR(40)
	unstale := w.markedPR(5)
	w.fake.Comment(unstale, bob, daysAgo(1), "hi")
	w.fake.Reset()
	res := w.run(map[string]string{"debug-only": "true", "delete-branch": "true"})
	if n := w.fake.Writes(); n != 0 {
		t.Fatalf("dry run sent %d write requests: %v", n, w.fake.WriteRequests())
	}
	if !has(res.Marked(), mark) || !has(res.Closed(), closing) || !has(res.Unstaled(), unstale) || !res.DryRun {
		t.Fatalf("dry run should report what it would do: marked %v closed %v unstaled %v",
			numbers(res.Marked()), numbers(res.Closed()), numbers(res.Unstaled()))
	}
}

// Rule 9: operations-per-run caps requests; the next run continues.
func TestRule9BudgetAndContinuation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var prs []int
	for i := 0; i < 30; i++ {
		prs = append(prs, w.pr(100+float64(i)))
	}
	w.fake.Reset()
	res := w.run(map[string]string{"operations-per-run": "21"})
	if c := w.fake.Count(); c > 21 {
		t.Fatalf("%d requests with operations-per-run 21", c)
	}
	if res.Stopped == nil || res.Left == 0 || len(res.Marked()) == 0 {
		t.Fatalf("Stopped %v Left %d Marked %d: want an early stop that marked some", res.Stopped, res.Left, len(res.Marked()))
	}
	for i := 0; i < 5; i++ {
		w.clock.Advance(time.Hour)
		w.run(map[string]string{"operations-per-run": "21"})
	}
	for _, n := range prs {
		if !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Fatalf("#%d after several budgeted runs: labels %v, %d notices", n, w.labels(n), w.notices(n, "stale"))
		}
	}
}

func TestRule9RateLimitReserve(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := 0; i < 40; i++ {
		w.pr(100 + float64(i))
	}
	w.fake.SetRateRemaining(130)
	w.fake.Reset()
	res := w.run(map[string]string{"rate-limit-reserve": "100"})
	if got := w.fake.RateRemaining(); got < 100 {
		t.Fatalf("remaining fell to %d, below the reserve of 100", got)
	}
	if res.Stopped == nil {
		t.Fatal("want a clean early stop")
	}
}

// Running twice in a row: the second run writes nothing.
func TestSecondRunWritesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.pr(120)
	w.pr(5)
	w.markedPR(40)
	u := w.markedPR(5)
	w.fake.Comment(u, bob, daysAgo(1), "alive")
	w.markedPR(10)
	w.fake.AddPR(fakegithub.Issue{Title: "merged by a person", User: alice, State: "closed", Labels: []string{"stale"},
		CreatedAt: daysAgo(200), UpdatedAt: daysAgo(2), ClosedAt: daysAgo(2), MergedAt: daysAgo(2)})
	w.run(nil)
	w.fake.Reset()
	w.clock.Advance(time.Minute)
	res := w.run(nil)
	if n := w.fake.Writes(); n != 0 {
		t.Fatalf("second run sent %d writes: %v", n, w.fake.WriteRequests())
	}
	if !res.OK() {
		t.Fatalf("second run not OK: %+v", res.Failed())
	}
}

// A listing that ignores sort=updated&direction=asc (a proxy, an old
// Enterprise Server, another fake) must not make the run stop early and
// miss stale PRs.
func TestListingInAnotherOrderIsReadToTheEnd(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // 270 PRs over three pages: a load test
	w := newWorld(t)
	var stale []int
	for i := 0; i < 150; i++ {
		w.pr(float64(i % 5)) // active
	}
	for i := 0; i < 120; i++ {
		stale = append(stale, w.pr(100+float64(i)))
	}
	w.srv.Config.Handler = reverseListings(w.fake)
	w.run(nil)
	for _, n := range stale {
		if !w.hasLabel(n, "stale") {
			t.Fatalf("#%d not marked when the listing came newest first", n)
		}
	}
}

// reverseListings serves the issue listing with each page in reverse order.
func reverseListings(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/issues") {
			h.ServeHTTP(rw, r)
			return
		}
		q := r.URL.Query()
		q.Set("direction", "desc")
		r.URL.RawQuery = q.Encode()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			rw.Header()[k] = v
		}
		rw.WriteHeader(rec.Code)
		rw.Write(rec.Body.Bytes())
	})
}

// Rule 3, remove-stale-when-updated: false: a push after the mark postpones
// the close. A review nudge posted after that push (while the nudge was on)
// is our comment but says nothing of what came between the mark and it: a
// run that reads the repository's comments (three stale PRs) must not take
// it for "nothing happened after the mark" and close on the mark's clock.
func TestKeptLabelPushBeforeANudgeStillPostponesTheClose(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	on := map[string]string{"days-before-stale": "10", "days-before-close": "20", "remove-stale-when-updated": "false",
		"days-before-review-nudge": "7"}
	off := sfWith(on, "days-before-review-nudge", "-1")
	n := w.markedPR(15)
	for range 2 { // on their author's turn: not nudged, and their notices open the comment listing's window
		m := w.markedPR(15)
		w.fake.Comment(m, maint, daysAgo(20), "please add a test")
	}
	w.fake.Push(n, "alice", daysAgo(12), "the fix") // after the mark: the close moves to 8 days from now
	w.run(on)
	if w.notices(n, "nudge") != 1 {
		t.Fatalf("#%d: %d nudges, want 1 (setup)", n, w.notices(n, "nudge"))
	}
	w.clock.Advance(6 * lifecycle.Day) // due from the mark, not from the push
	res := w.run(off)
	if w.state(n) != "open" || has(res.Closed(), n) {
		t.Errorf("#%d closed 18 days after a push that postpones its close by 20", n)
	}
	w.clock.Advance(3 * lifecycle.Day)
	w.run(off)
	if w.state(n) != "closed" {
		t.Errorf("#%d: %s 21 days after the push, want closed", n, w.state(n))
	}
}

// Rule 3, remove-stale-when-updated: false. A person's comment after the
// mark is the PR's last update; the repository's comments do not date the
// mark (three stale PRs make the comment listing cheaper than timelines, and
// it starts after the notice; or the notice's marker carries no date): the
// timeline does, and the PR closes days-before-close after the comment.
func TestKeptLabelClosesWhenTheCommentsCannotDateTheMark(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		marker string // the notice's marker; "" for the harness's dated one
	}{
		{"notice before the comment listing's start", ""},
		{"bare marker without a date", "<!-- stalepr:stale -->"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			inputs := map[string]string{"remove-stale-when-updated": "false"}
			var n int
			if tc.marker == "" {
				n = w.markedPR(80)
			} else {
				n = w.pr(170)
				w.fake.Label(n, action, daysAgo(80), "stale")
				w.fake.Comment(n, action, daysAgo(80).Add(time.Second), "This PR is stale.\n\n"+tc.marker)
			}
			w.fake.Comment(n, bob, daysAgo(35), "I will get back to it")
			others := []int{w.markedPR(2), w.markedPR(3), w.markedPR(4)}
			res := w.run(inputs)
			if w.state(n) != "closed" || !has(res.Closed(), n) {
				t.Fatalf("#%d: %s, skipped as %q; want closed 30 days after the person's comment", n, w.state(n), why(res.Skipped(), n))
			}
			if r := why(res.Closed(), n); r != lifecycle.ReasonCloseDueSincePerson {
				t.Errorf("closed as %q, want %q: the clock ran from the person's comment", r, lifecycle.ReasonCloseDueSincePerson)
			}
			for _, o := range others {
				if w.state(o) != "open" || !w.hasLabel(o, "stale") {
					t.Errorf("#%d marked days ago changed: %s %v", o, w.state(o), w.labels(o))
				}
			}
		})
	}
}

// With marking off (days-before-stale: -1) and an input that reads the
// whole open listing, the stale PRs are still listed: the labelled listing
// was skipped for the open one, which marking off did not read, and a PR
// marked before stayed open for ever (found by the GraphQL tests' review).
func TestMarkingOffStillClosesTheMarked(t *testing.T) {
	t.Parallel()
	for _, inputs := range []map[string]string{
		{"days-before-stale": "-1", "activity-from": "people"},
		{"days-before-stale": "-1", "stale-clock": "author-turn"},
	} {
		w := turnWorld(t) // maintainer is a member: a maintainer
		due := w.markedPR(40)
		w.fake.Review(due, maint, daysAgo(135), "CHANGES_REQUESTED", "please rebase") // the author's turn since
		revived := w.markedPR(10)
		w.fake.Comment(revived, bob, daysAgo(2), "still on it")
		res := w.run(inputs)
		if w.state(due) != "closed" || !has(res.Closed(), due) {
			t.Errorf("%v: #%d marked 40 days ago: state %s; want closed", inputs, due, w.state(due))
		}
		if w.hasLabel(revived, "stale") {
			t.Errorf("%v: #%d: a person commented after the mark, still labelled", inputs, revived)
		}
	}
}
