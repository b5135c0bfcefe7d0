package sweep_test

// Safety properties of a whole run, through the real HTTP path (the ghapi
// client against the fake GitHub): transient failures, rate limits, partial
// knowledge, crashes, concurrent runs, pagination under change, hostile text,
// branch deletion and a long soak.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// ---- helpers ----

// sfOpts varies one run beyond its inputs.
type sfOpts struct {
	ctx   context.Context   // nil: background
	clock ghapi.Clock       // nil: the world's clock, waits advance it
	base  http.RoundTripper // nil: the fake in process (fakegithub.Server.Transport)
	now   time.Time         // zero: the clock's time
}

// sfRun is world.run with a chosen context, clock and base transport.
func (w *world) sfRun(inputs map[string]string, o sfOpts) sweep.Result {
	w.t.Helper()
	cfg := w.config(inputs)
	if o.ctx == nil {
		o.ctx = context.Background()
	}
	if o.clock == nil {
		o.clock = w.clock
	}
	client := w.client(cfg, o.clock, o.base)
	if o.now.IsZero() {
		o.now = o.clock.Now()
	}
	return sweep.Run(o.ctx, client, cfg, o.now, &nopLog{})
}

// sfWith returns inputs plus more (more wins).
func sfWith(inputs map[string]string, more ...string) map[string]string {
	out := map[string]string{}
	for k, v := range inputs {
		out[k] = v
	}
	for i := 0; i+1 < len(more); i += 2 {
		out[more[i]] = more[i+1]
	}
	return out
}

// sfState is what a PR's end state is compared on.
type sfState struct {
	State   string
	Labels  string // lower-cased, sorted, comma-joined
	Notices int    // stalepr stale notices
	Closes  int    // stalepr closing comments
}

func (w *world) sfSnapshot() map[int]sfState {
	out := map[int]sfState{}
	for _, is := range w.fake.Issues() {
		labels := make([]string, len(is.Labels))
		for i, l := range is.Labels {
			labels[i] = strings.ToLower(l)
		}
		sort.Strings(labels)
		out[is.Number] = sfState{State: is.State, Labels: strings.Join(labels, ","),
			Notices: w.notices(is.Number, "stale"), Closes: w.notices(is.Number, "close")}
	}
	return out
}

func sfDiff(t *testing.T, what string, got, want map[int]sfState) {
	t.Helper()
	var nums []int
	for n := range want {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		if got[n] != want[n] {
			t.Errorf("%s: #%d = %+v, want %+v", what, n, got[n], want[n])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d issues, want %d", what, len(got), len(want))
	}
}

var sfPRInPath = regexp.MustCompile(`/(?:issues|pulls)/(\d+)(?:/|$|\?)`)

// sfPROf returns the PR number a request addresses, 0 for none.
func sfPROf(r fakegithub.RequestInfo) int {
	m := sfPRInPath.FindStringSubmatch(r.Path)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sfFailWhere answers every request matching pred with f.
func (w *world) sfFailWhere(pred func(fakegithub.RequestInfo) bool, f func() *fakegithub.Fault) {
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if pred(r) {
			return f()
		}
		return nil
	})
}

const (
	sfListRoute         = "/repos/{owner}/{repo}/issues"
	sfRepoCommentsRoute = "/repos/{owner}/{repo}/issues/comments"
	sfPRCommentsRoute   = "/repos/{owner}/{repo}/issues/{issue_number}/comments"
	sfPatchIssueRoute   = "PATCH /repos/{owner}/{repo}/issues/{issue_number}"
	sfDeleteRefRoute    = "DELETE /repos/{owner}/{repo}/git/refs/{ref}"
)

var sfQuick = map[string]string{"write-interval": "0s"}

// sfMixed builds a repository with work of every kind. It returns the PRs by
// the action the rules call for.
type sfMixed struct {
	mark, close, unstale, keep []int
	closeDetail                int // due for closing, but only the timeline can tell
}

func (w *world) sfMixed() sfMixed {
	var m sfMixed
	m.mark = append(m.mark,
		w.pr(120),
		w.pr(150, func(is *fakegithub.Issue) { is.Labels = []string{"needs-review", "keep"} }),
		w.pr(200, func(is *fakegithub.Issue) { is.Labels = []string{"Needs-Review"} }),
	)
	m.close = append(m.close,
		w.markedPR(40),
		w.markedPR(45, func(is *fakegithub.Issue) { is.Labels = []string{"keep"} }),
	)
	m.closeDetail = w.markedPR(35)
	w.fake.Comment(m.closeDetail, ci, daysAgo(2), "build passed")
	m.close = append(m.close, m.closeDetail)
	u1 := w.markedPR(10, func(is *fakegithub.Issue) { is.Labels = []string{"waiting-for-author"} })
	w.fake.Comment(u1, bob, daysAgo(1), "back on it")
	u2 := w.markedPR(12)
	w.fake.Push(u2, "alice", daysAgo(3), "address review")
	m.unstale = append(m.unstale, u1, u2)
	m.keep = append(m.keep, w.markedPR(5), w.pr(10))
	// Merged by a person while stale: the label comes off (one DELETE).
	w.fake.AddPR(fakegithub.Issue{Title: "merged while stale", User: alice, State: "closed", Labels: []string{"stale"},
		CreatedAt: daysAgo(200), UpdatedAt: daysAgo(2), ClosedAt: daysAgo(2), MergedAt: daysAgo(2)})
	return m
}

var sfInputs = map[string]string{
	"write-interval":                "0s",
	"labels-to-remove-when-stale":   "needs-review",
	"close-pr-label":                "closed-stale",
	"labels-to-remove-when-unstale": "waiting-for-author",
	"labels-to-add-when-unstale":    "active",
}

// sfReference runs inputs without faults over a fresh repository built by
// build and returns its end state and the writes the run made.
func sfReference(t *testing.T, build func(*world), inputs map[string]string) (map[int]sfState, []fakegithub.RequestInfo) {
	t.Helper()
	w := newWorld(t)
	build(w)
	w.fake.Reset()
	res := w.run(inputs)
	if !res.OK() || res.Stopped != nil {
		t.Fatalf("reference run: OK %v, stopped %v, failed %+v", res.OK(), res.Stopped, res.Failed())
	}
	return w.sfSnapshot(), w.fake.WriteRequests()
}

// ---- 3. never act on partial knowledge ----

// A PR whose part of GitHub's answer fails or is missing is left untouched
// and never decided; every other PR is handled. GitHub nulls the PR's node
// when its timeline fails (timelineItems is non-null) and names it by its
// index only, so it is counted unread; one left out of the page is
// counted from the listing's totalCount, which says more than the pages gave.
func TestSafetyFailingTimelineLeavesThePRAlone(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		fault  func(pr int) *fakegithub.Fault
		unread bool // counted unread (once per listing that met it: it has no number)
	}{
		{"timeline in error", func(pr int) *fakegithub.Fault { return fakegithub.PartialGraphQL(pr, true) }, true},
		{"pull request in error", func(pr int) *fakegithub.Fault { return fakegithub.PartialGraphQL(pr, false) }, true},
		{"left out of the page", fakegithub.MissingPRGraphQL, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			m := w.sfMixed()
			bad := m.closeDetail
			// Every GraphQL answer that holds #bad: its listing page, and
			// any read of it alone.
			w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: -1, Fault: tc.fault(bad)})
			before := w.sfSnapshot()
			res := w.run(sfInputs)

			if !strings.Contains(faultsOf(w), "graphql") {
				t.Fatal("the fault never fired")
			}
			if got := w.sfSnapshot()[bad]; got != before[bad] {
				t.Errorf("#%d with a failed answer was changed: %+v -> %+v", bad, before[bad], got)
			}
			for _, r := range w.fake.WriteRequests() {
				if sfPROf(r) == bad {
					t.Errorf("write to #%d whose answer failed: %s %s", bad, r.Method, r.Path)
				}
			}
			if has(res.Items, bad) {
				t.Errorf("#%d decided on a failed answer: %v", bad, outcomesOf(res)[bad])
			}
			if (res.Unread > 0) != tc.unread {
				t.Errorf("Unread = %d, want it counted: %v", res.Unread, tc.unread)
			}
			if res.OK() {
				t.Errorf("OK() = true with a PR left unread: the step must fail")
			}
			if res.Stopped != nil {
				t.Errorf("stopped %v: one PR's failed answer must not stop the run", res.Stopped)
			}
			sfCheckHandled(t, w, m, bad)
		})
	}
}

// sfCheckHandled checks that every PR of m but skip got what the rules call
// for: marked, closed, un-staled.
func sfCheckHandled(t *testing.T, w *world, m sfMixed, skip int) {
	t.Helper()
	for _, n := range m.mark {
		if !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Errorf("#%d not marked: %v", n, w.labels(n))
		}
	}
	for _, n := range m.close {
		if n != skip && w.state(n) != "closed" {
			t.Errorf("#%d not closed", n)
		}
	}
	for _, n := range m.unstale {
		if w.hasLabel(n, "stale") {
			t.Errorf("#%d not un-staled", n)
		}
	}
}

// A listing cut short by an error must not lead to any close: the run stops
// and reports a failure. Both listings are GraphQL pages of open PRs (the
// stale-labelled ones, then all); the second page fails on every try, with
// a server error or with an error GitHub gives no path for.
func TestSafetyFailingListingPageClosesNothing(t *testing.T) {
	t.Parallel()
	faults := map[string]func() *fakegithub.Fault{
		"500": func() *fakegithub.Fault { return fakegithub.ServerError(500) },
		"an error without a path": func() *fakegithub.Fault {
			return fakegithub.StatusFault(200, `{"data":null,"errors":[{"type":"INTERNAL","message":"An internal error occurred"}]}`)
		},
	}
	listings := []struct {
		name     string
		labelled bool
	}{{"labelled listing", true}, {"open listing", false}}
	for li, l := range listings {
		labelled := l.labelled
		for _, fname := range []string{"500", "an error without a path"} {
			fault := faults[fname]
			if testing.Short() && (li == 0 || fname == "500") {
				continue // -short: an error without a path on the open listing's second page (1 of the 4); CI runs all
			}
			t.Run(l.name+", page 2, "+fname, func(t *testing.T) {
				w := newWorld(t)
				var closing []int
				for i := 0; i < 130; i++ {
					closing = append(closing, w.markedPR(40+float64(i)/10))
				}
				for i := 0; i < 130; i++ {
					w.pr(100 + float64(i)/10)
				}
				var fired atomic.Bool
				w.sfFailWhere(func(r fakegithub.RequestInfo) bool {
					page, labels, after := sfPageOf(r)
					hit := page && labels == labelled && after
					if hit {
						fired.Store(true)
					}
					return hit
				}, fault)
				res := w.run(sfQuick)
				if !fired.Load() {
					t.Fatal("the fault never fired")
				}
				for _, n := range closing {
					if w.state(n) != "open" {
						t.Fatalf("#%d closed although a listing page failed", n)
					}
				}
				if res.OK() || !res.ListingFailed() {
					t.Errorf("OK %v Stopped %v: want a failed run stopped on the listing", res.OK(), res.Stopped)
				}
				if len(res.Closed()) != 0 {
					t.Errorf("Closed = %v", numbers(res.Closed()))
				}
			})
		}
	}
}

// sfPageOf tells a GraphQL request for a page of open pull requests: whether
// it filters by label, and whether it asks for a page after the first.
func sfPageOf(r fakegithub.RequestInfo) (page, labels, after bool) {
	if r.Route != "POST /graphql" {
		return false, false, false
	}
	var body struct {
		Query     string `json:"query"`
		Variables struct {
			Labels []string `json:"labels"`
			After  *string  `json:"after"`
		} `json:"variables"`
	}
	if json.Unmarshal([]byte(r.Body), &body) != nil || !strings.Contains(body.Query, "pullRequests(") {
		return false, false, false
	}
	return true, len(body.Variables.Labels) > 0, body.Variables.After != nil
}

// ---- 4. idempotent under crashes ----

// crashAndResume runs inputs killed after its k-th write (sfKillAfter),
// then the next run an hour later, whose result it returns.
func (w *world) crashAndResume(k int, inputs map[string]string) sweep.Result {
	w.sfKillAfter(k)
	w.run(inputs)
	w.fake.ClearFaults()
	w.clock.Advance(time.Hour)
	return w.run(inputs)
}

// checkNothingLeft: one more run finds nothing to write.
func (w *world) checkNothingLeft(t *testing.T, inputs map[string]string) {
	t.Helper()
	w.fake.Reset()
	w.run(inputs)
	if got := w.fake.Writes(); got != 0 {
		t.Errorf("a further run wrote %d times: %v", got, w.fake.WriteRequests())
	}
}

// pagesOf is how many open-listing pages n PRs fill.
func pagesOf(n int) int { return (n + ghapi.PullsPerPage - 1) / ghapi.PullsPerPage }

// sfKillAfter makes the k-th write take effect and then behaves as if the
// process died: that request's connection drops, and every later request
// is dropped before it reaches the repository.
func (w *world) sfKillAfter(k int) {
	var mu sync.Mutex
	writes, dead := 0, false
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if dead {
			return fakegithub.DropConnection()
		}
		if r.Write {
			writes++
			if writes == k {
				dead = true
				return fakegithub.DropAfterWrite()
			}
		}
		return nil
	})
}

func TestSafetyCrashAfterEveryWriteConverges(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	build := func(w *world) { w.sfMixed() }
	want, writes := sfReference(t, build, sfInputs)
	total := len(writes)
	if total < 10 {
		t.Fatalf("reference run made only %d writes", total)
	}
	kinds := map[string]bool{}
	for k := 1; k <= total; k++ {
		// -short kills after the first write of each kind (sfWriteKind):
		// a second write of a kind leaves the state the first left, on
		// another PR. Without -short (CI) every write is killed after.
		kind := sfWriteKind(writes[k-1])
		if testing.Short() && kinds[kind] {
			continue
		}
		kinds[kind] = true
		t.Run(fmt.Sprintf("kill after write %d of %d", k, total), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			m := w.sfMixed()
			w.sfKillAfter(k)
			w.run(sfInputs)
			if got := w.fake.Writes(); got < k {
				t.Fatalf("only %d writes reached the server before the kill", got)
			}
			w.fake.ClearFaults()
			w.clock.Advance(time.Hour)
			res := w.run(sfInputs)
			if !res.OK() {
				t.Errorf("run after the crash: failed %+v, stopped %v", res.Failed(), res.Stopped)
			}
			sfDiff(t, "after crash and rerun", w.sfSnapshot(), want)
			for _, n := range m.mark {
				if c := w.notices(n, "stale"); c != 1 {
					t.Errorf("#%d: %d stale notices, want 1", n, c)
				}
			}
			for _, n := range m.close {
				if c := w.notices(n, "close"); c != 1 {
					t.Errorf("#%d: %d closing comments, want 1", n, c)
				}
			}
			w.fake.Reset()
			w.clock.Advance(time.Minute)
			w.run(sfInputs)
			if n := w.fake.Writes(); n != 0 {
				t.Errorf("a third run still wrote %d times: %v", n, w.fake.WriteRequests())
			}
		})
	}
}

// sfWriteKind is what a write does, as the -short crash matrix tells
// writes apart: its route and, for a comment, which notice it posts (a
// stale notice or not), for anything else its body (the labels set or
// added, the state).
func sfWriteKind(w fakegithub.RequestInfo) string {
	if !strings.HasSuffix(w.Route, "/comments") {
		return w.Route + " " + w.Body
	}
	return fmt.Sprintf("%s stale notice %v", w.Route, strings.Contains(w.Body, "<!-- stalepr:stale "))
}

// ---- 5. concurrent runs ----

// sfGate holds each client's first write until every client has reached its
// first write, so that all runs plan from the same state.
type sfGate struct {
	wg sync.WaitGroup
}

type sfGated struct {
	g    *sfGate
	once sync.Once
	base http.RoundTripper
	// hold picks the request to hold; nil: the first write.
	hold func(*http.Request) bool
}

func (g *sfGated) RoundTrip(r *http.Request) (*http.Response, error) {
	// The first write: not the GraphQL question of who the token acts as,
	// which is a read.
	held := r.Method != http.MethodGet && !strings.HasSuffix(r.URL.Path, "/graphql")
	if g.hold != nil {
		held = g.hold(r)
	}
	if held {
		g.once.Do(func() {
			g.g.wg.Done()
			done := make(chan struct{})
			go func() { g.g.wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
			}
		})
	}
	return g.base.RoundTrip(r)
}

func TestSafetyConcurrentRunsPostOnce(t *testing.T) {
	t.Parallel()
	reps := 5 // each a fresh race; -short keeps one of each mode
	if testing.Short() {
		reps = 1
	}
	for _, mode := range []string{"planned together", "free race"} {
		for rep := 0; rep < reps; rep++ {
			t.Run(fmt.Sprintf("%s %d", mode, rep), func(t *testing.T) {
				w := newWorld(t)
				m := w.sfMixed()
				for i := 0; i < 10; i++ {
					m.mark = append(m.mark, w.pr(100+float64(i)))
				}
				results := sfRunTwoAtOnce(w, sfInputs, mode == "planned together", nil)
				if mode == "planned together" {
					checkBothPostedAndDeleted(t, w, m)
				}
				for i, r := range results {
					if !r.OK() {
						t.Errorf("run %d: failed %+v stopped %v", i, r.Failed(), r.Stopped)
					}
				}
				checkMixedDoneOnce(t, w, m)
			})
		}
	}
}

// sfRunTwoAtOnce runs the sweep twice at the same time with inputs; gated,
// both runs plan from the same state before either writes (each holds the
// request hold picks; nil: its first write).
func sfRunTwoAtOnce(w *world, inputs map[string]string, gated bool, hold func(*http.Request) bool) [2]sweep.Result {
	now := w.now()
	g := &sfGate{}
	g.wg.Add(2)
	var results [2]sweep.Result
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := sfOpts{now: now}
			if gated {
				o.base = &sfGated{g: g, base: w.fake.Transport(), hold: hold}
			}
			results[i] = w.sfRun(inputs, o)
		}()
	}
	wg.Wait()
	return results
}

// checkBothPostedAndDeleted checks that both runs, planned from the same
// state, posted every notice, and the duplicates were deleted.
func checkBothPostedAndDeleted(t *testing.T, w *world, m sfMixed) {
	t.Helper()
	// The closes are not counted: each run reads a PR afresh before its
	// close, and the one that reads it after the other's closing comment
	// leaves it alone (changed since it was listed).
	checkPostedTwiceDeletedOnce(t, w, len(m.mark))
}

// checkPostedTwiceDeletedOnce checks that two runs planned from the same
// state each posted need notices and the copies were deleted: the runs
// overlapped as the test planned them.
func checkPostedTwiceDeletedOnce(t *testing.T, w *world, need int) {
	t.Helper()
	posts, deletes := 0, 0
	for _, r := range w.fake.WriteRequests() {
		switch r.Route {
		case "POST " + sfPRCommentsRoute:
			posts++
		case "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}":
			deletes++
		}
	}
	if posts < 2*need || deletes < need {
		t.Errorf("%d posts and %d deletes for %d notices: the runs did not overlap as planned", posts, deletes, need)
	}
}

// checkMixedDoneOnce checks sfMixed's PRs after the runs: each to mark
// marked with one notice, each to close closed with one closing comment,
// each to un-stale no longer stale.
func checkMixedDoneOnce(t *testing.T, w *world, m sfMixed) {
	t.Helper()
	for _, n := range m.mark {
		if c := w.notices(n, "stale"); c != 1 || !w.hasLabel(n, "stale") {
			t.Errorf("#%d: %d stale notices, labels %v; want one notice", n, c, w.labels(n))
		}
	}
	for _, n := range m.close {
		if c := w.notices(n, "close"); c != 1 || w.state(n) != "closed" {
			t.Errorf("#%d: state %s, %d closing comments; want closed with one", n, w.state(n), c)
		}
	}
	for _, n := range m.unstale {
		if w.hasLabel(n, "stale") {
			t.Errorf("#%d still stale", n)
		}
	}
}

// ---- 2. rate limits ----

func TestSafetyPrimaryRateLimitStopsCleanly(t *testing.T) {
	t.Parallel()
	type where struct {
		name string
		pred func(fakegithub.RequestInfo) bool
	}
	var writes int
	places := []where{
		{"third write", func(r fakegithub.RequestInfo) bool {
			if r.Write {
				writes++
			}
			return r.Write && writes == 3
		}},
		{"a history read", sfIsHistory},
		{"the open listing", func(r fakegithub.RequestInfo) bool {
			page, labels, _ := sfPageOf(r)
			return page && !labels
		}},
	}
	type limit struct {
		name  string
		fault func(reset time.Time) *fakegithub.Fault
	}
	rest := []limit{
		{"403", func(reset time.Time) *fakegithub.Fault {
			return fakegithub.PrimaryRateLimit(http.StatusForbidden, reset)
		}},
		{"429", func(reset time.Time) *fakegithub.Fault {
			return fakegithub.PrimaryRateLimit(http.StatusTooManyRequests, reset)
		}},
	}
	// GraphQL's points spent: the older HTTP 200 RATE_LIMITED answer, the
	// newer 403 RATE_LIMIT one.
	graphql := []limit{
		{"RATE_LIMITED", func(time.Time) *fakegithub.Fault { return fakegithub.RateLimitedGraphQL(false) }},
		{"403 RATE_LIMIT", func(time.Time) *fakegithub.Fault { return fakegithub.RateLimitedGraphQL(true) }},
	}
	for _, pl := range places {
		limits := graphql
		if pl.name == "third write" {
			limits = rest
		}
		for li, lim := range limits {
			if testing.Short() && (li > 0 || pl.name != "third write") {
				continue // -short: REST's 403 at a write (1 of the 6; GraphQL's RATE_LIMITED at a history read is TestSafetyRateLimitDuringDetailReportsLeft's); CI runs all
			}
			t.Run(fmt.Sprintf("%s at %s", lim.name, pl.name), func(t *testing.T) {
				writes = 0
				w := newWorld(t)
				m := w.sfMixed()
				sfLongHistory(w)
				reset := w.now().Add(40 * time.Minute)
				var mu sync.Mutex
				fired := false
				w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
					mu.Lock()
					defer mu.Unlock()
					if !fired && pl.pred(r) {
						fired = true
						return lim.fault(reset)
					}
					return nil
				})
				res := w.run(sfInputs)
				if !fired {
					t.Fatal("the limit never fired")
				}
				sfCheckCleanStop(t, w, res, m, reset)
			})
		}
	}
}

// sfCheckCleanStop checks a run stopped by a primary rate limit: no request
// after it, a stop that says so, nothing failed, the work not reached
// counted; and that the next run, after the reset, finishes the work.
func sfCheckCleanStop(t *testing.T, w *world, res sweep.Result, m sfMixed, reset time.Time) {
	t.Helper()
	reqs := w.fake.Requests()
	if last := reqs[len(reqs)-1]; last.Fault == "" {
		for i, r := range reqs {
			if r.Fault != "" {
				t.Errorf("%d requests after the rate limit, first %s %s", len(reqs)-1-i, reqs[i+1].Method, reqs[i+1].Path)
			}
		}
	}
	if !ghapi.IsRateLimited(res.Stopped) {
		t.Errorf("Stopped = %v, want the rate limit", res.Stopped)
	}
	if !res.OK() {
		t.Errorf("a rate limit failed the run: %+v", res.Failed())
	}
	if res.Left == 0 {
		t.Errorf("Left = 0 with work remaining (marked %v closed %v unstaled %v)",
			numbers(res.Marked()), numbers(res.Closed()), numbers(res.Unstaled()))
	}
	w.fake.ClearFaults()
	w.clock.Set(reset.Add(time.Minute))
	if r2 := w.run(sfInputs); !r2.OK() || r2.Stopped != nil {
		t.Fatalf("run after the reset: %+v stopped %v", r2.Failed(), r2.Stopped)
	}
	for _, n := range m.mark {
		if w.notices(n, "stale") != 1 {
			t.Errorf("#%d: %d notices after the second run", n, w.notices(n, "stale"))
		}
	}
	for _, n := range m.close {
		if w.state(n) != "closed" || w.notices(n, "close") != 1 {
			t.Errorf("#%d: %s with %d closing comments", n, w.state(n), w.notices(n, "close"))
		}
	}
}

// sfIsHistory tells a GraphQL read of one PR's older history.
func sfIsHistory(r fakegithub.RequestInfo) bool {
	return r.Route == "POST /graphql" && strings.Contains(r.Body, "pullRequest(") && !strings.Contains(r.Body, "f0: pullRequest(")
}

// sfLongHistory adds a stale PR whose history is longer than a listing page
// carries (its mark and then 120 bot comments): deciding it needs a read of
// its own. It stays stale.
func sfLongHistory(w *world) int {
	n := w.markedPR(20)
	for i := range 120 {
		w.fake.Comment(n, ci, daysAgo(19).Add(time.Duration(i)*time.Minute), "build passed")
	}
	return n
}

// When the only work left needs reading first, a rate limit in the middle of
// those reads still reports the PRs not reached, as running out of budget
// there does.
func TestSafetyRateLimitDuringDetailReportsLeft(t *testing.T) {
	t.Parallel()
	for _, http403 := range []bool{false, true} {
		t.Run(fmt.Sprintf("403 shape %v", http403), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			// Due to close, but only their whole histories (longer than a
			// page carries) can tell: a read each.
			for range 2 {
				n := w.markedPR(35)
				for i := range 120 {
					w.fake.Comment(n, ci, daysAgo(2).Add(time.Duration(i)*time.Minute), "build passed")
				}
			}
			var fired atomic.Bool
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if sfIsHistory(r) && !fired.Swap(true) {
					return fakegithub.RateLimitedGraphQL(http403)
				}
				return nil
			})
			res := w.run(sfQuick)
			if !fired.Load() {
				t.Fatal("no history read")
			}
			if !ghapi.IsRateLimited(res.Stopped) || !res.OK() {
				t.Fatalf("Stopped %v OK %v", res.Stopped, res.OK())
			}
			if res.Left != 2 {
				t.Errorf("Left = %d although two stale PRs were not decided (the budget path counts them)", res.Left)
			}
			if len(res.Closed()) != 0 || w.fake.Writes() != 0 {
				t.Errorf("closed %v, %d writes: nothing decided, nothing written", numbers(res.Closed()), w.fake.Writes())
			}
		})
	}
}

func TestSafetySecondaryRateLimitWaitsAndContinues(t *testing.T) {
	t.Parallel()
	const maxWait = 2 * time.Minute // ghapi's default cap
	want, _ := sfReference(t, func(w *world) { w.sfMixed() }, sfInputs)
	cases := []struct {
		name    string
		route   string
		fault   *fakegithub.Fault
		atLeast time.Duration
	}{
		{"403 retry-after 90 on the listing", "GET " + sfListRoute, fakegithub.SecondaryRateLimit(403, 90), 90 * time.Second},
		{"429 retry-after 30 on a comment", "POST " + sfPRCommentsRoute, fakegithub.SecondaryRateLimit(429, 30), 30 * time.Second},
		{"403 message only on a label write", "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", fakegithub.SecondaryRateLimit(403, 0), time.Minute},
		{"429 message only on a GraphQL page", "POST /graphql", fakegithub.SecondaryRateLimit(429, 0), time.Minute},
		{"403 retry-after 45 on a GraphQL page", "POST /graphql", fakegithub.SecondaryRateLimit(403, 45), 45 * time.Second},
		{"bare 429 on a close", "PATCH /repos/{owner}/{repo}/issues/{issue_number}", fakegithub.StatusFault(429, `{"message":"Too Many Requests"}`), time.Minute},
	}
	for i, tc := range cases {
		if testing.Short() && i != 0 && i != 3 && i != 5 {
			continue // -short: 403 with retry-after on REST, 429 message only on GraphQL, a bare 429 (3 of the 6); CI runs all
		}
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.sfMixed()
			method, route, _ := strings.Cut(tc.route, " ")
			w.fake.InjectFault(fakegithub.FaultRule{Method: method, Route: route, Fault: tc.fault})
			rc := w.clock
			res := w.sfRun(sfInputs, sfOpts{clock: rc})
			if !slices.ContainsFunc(w.fake.Requests(), func(r fakegithub.RequestInfo) bool { return r.Fault != "" }) {
				t.Fatal("the limit never fired")
			}
			waits := rc.Waits()
			longest := slices.Max(append(waits, 0))
			if longest < tc.atLeast {
				t.Errorf("longest wait %v, want >= %v (waits %v)", longest, tc.atLeast, waits)
			}
			if longest > maxWait {
				t.Errorf("waited %v, more than the cap %v", longest, maxWait)
			}
			if !res.OK() || res.Stopped != nil {
				t.Errorf("OK %v stopped %v failed %+v: a single secondary limit should only delay the run", res.OK(), res.Stopped, res.Failed())
			}
			sfDiff(t, "after a secondary limit", w.sfSnapshot(), want)
		})
	}
}

// A retry-after longer than the run may wait: the run must not send a
// request before retry-after has passed (GitHub's rule); it may stop instead.
func TestSafetySecondaryRetryAfterBeyondTheCap(t *testing.T) {
	t.Parallel()
	const maxWait = 2 * time.Minute
	w := newWorld(t)
	w.sfMixed()
	var mu sync.Mutex
	var limitedAt time.Time
	var early []string
	fired := false
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		now := w.clock.Now()
		if fired && now.Before(limitedAt.Add(time.Hour)) {
			early = append(early, fmt.Sprintf("%s %s at +%v", r.Method, r.Path, now.Sub(limitedAt)))
		}
		if !fired && r.Write {
			fired, limitedAt = true, now
			return fakegithub.SecondaryRateLimit(403, 3600)
		}
		return nil
	})
	rc := w.clock
	res := w.sfRun(sfInputs, sfOpts{clock: rc})
	if longest := slices.Max(append(rc.Waits(), 0)); longest > maxWait {
		t.Errorf("waited %v in one go, more than the cap %v", longest, maxWait)
	}
	if len(early) > 0 {
		t.Errorf("retry-after: 3600 was not honoured: %d requests before it elapsed, first %s", len(early), early[0])
	}
	if !res.OK() {
		t.Errorf("a secondary limit failed the run: %+v", res.Failed())
	}
}

func TestSafetyRepeatedSecondaryLimitsStopTheRun(t *testing.T) {
	t.Parallel()
	for _, status := range []int{403, 429} {
		for _, from := range []string{"first request", "second write"} {
			t.Run(fmt.Sprintf("%d from the %s", status, from), func(t *testing.T) {
				w := newWorld(t)
				w.sfMixed()
				limited := sfLimitFrom(w, status, from == "first request")
				rc := w.clock
				res := w.sfRun(sfInputs, sfOpts{clock: rc})
				if !errors.Is(res.Stopped, ghapi.ErrSecondary) {
					t.Errorf("Stopped = %v, want the secondary limit", res.Stopped)
				}
				if !res.OK() {
					t.Errorf("repeated secondary limits failed the run: %+v", res.Failed())
				}
				if from != "first request" && res.Left == 0 {
					t.Error("Left = 0 with work remaining")
				}
				if reqs := w.fake.Requests(); reqs[len(reqs)-1].Fault == "" {
					t.Errorf("requests after the run stopped on the secondary limit: last %s %s", reqs[len(reqs)-1].Method, reqs[len(reqs)-1].Path)
				}
				if *limited > 6 {
					t.Errorf("%d requests sent against a secondary limit (want 6: five waits at a slowing pace, then stop)", *limited)
				}
				checkSecondaryWaits(t, rc.Waits(), *limited)
			})
		}
	}
}

// sfLimitFrom answers every request with a secondary limit of the status
// (retry-after 5s), from the first request or from the second write on;
// the count it returns is of the requests limited, read after the run.
func sfLimitFrom(w *world, status int, fromFirst bool) *int {
	var mu sync.Mutex
	writes, limited := 0, 0
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if r.Write {
			writes++
		}
		if fromFirst || writes >= 2 {
			limited++
			return fakegithub.SecondaryRateLimit(status, 5)
		}
		return nil
	})
	return &limited
}

// checkSecondaryWaits checks that each refusal is waited out (retry-after
// 5s); shorter sleeps are the write pace, slowed after each refusal.
func checkSecondaryWaits(t *testing.T, waits []time.Duration, limited int) {
	t.Helper()
	var total time.Duration
	long := 0
	for _, d := range waits {
		if d >= 5*time.Second {
			long++
		}
		total += d
	}
	if long < limited-1 {
		t.Errorf("%d waits of retry-after's 5s for %d refusals", long, limited)
	}
	if total > 6*time.Minute {
		t.Errorf("waited %v in total", total)
	}
}

// ---- 1. transient failures ----

// sfStaleHeavy is sfMixed plus enough unsure stale PRs for the sweep to
// read the window's comments, so that every read route is exercised.
func (w *world) sfStaleHeavy() sfMixed {
	m := w.sfMixed()
	for i := 0; i < 3; i++ {
		n := w.markedPR(20 + float64(i))
		w.fake.Comment(n, bob, daysAgo(1+float64(i)/10), "ping")
		m.unstale = append(m.unstale, n)
	}
	return m
}

func TestSafetyTransientReadFailuresAreRetried(t *testing.T) {
	t.Parallel()
	build := func(w *world) { w.sfStaleHeavy() }
	want, _ := sfReference(t, build, sfInputs)
	faults := map[string]func() *fakegithub.Fault{
		"500":       func() *fakegithub.Fault { return fakegithub.ServerError(500) },
		"502":       func() *fakegithub.Fault { return fakegithub.ServerError(502) },
		"503":       func() *fakegithub.Fault { return fakegithub.ServerError(503) },
		"drop":      fakegithub.DropConnection,
		"truncated": fakegithub.TruncatedBody,
	}
	// The REST issue listing (closed PRs, close-pr-label), the GraphQL
	// pages and histories, the repository's comments (the read-back).
	routes := []string{"GET " + sfListRoute, "POST /graphql", "GET " + sfRepoCommentsRoute}
	for i, fname := range []string{"500", "502", "503", "drop", "truncated"} {
		for j, route := range routes {
			if testing.Short() && !(i == 0 && j == 1 || i == 4 && j == 0) {
				continue // -short: a 500 on a GraphQL page, a body cut short on the REST listing (2 of the 15 pairs); CI runs all
			}
			t.Run(fname+" "+route, func(t *testing.T) {
				w := newWorld(t)
				build(w)
				// Two failures in a row on the first two reads of the route,
				// and again on its fourth.
				w.fake.InjectFault(fakegithub.FaultRule{Route: route, Nth: 1, Times: 2, Fault: faults[fname]()})
				w.fake.InjectFault(fakegithub.FaultRule{Route: route, Nth: 4, Times: 1, Fault: faults[fname]()})
				res := w.run(sfInputs)
				hit := 0
				for _, r := range w.fake.Requests() {
					if r.Fault != "" {
						hit++
					}
				}
				if hit < 2 {
					t.Fatalf("only %d faults fired", hit)
				}
				if !res.OK() || res.Stopped != nil {
					t.Errorf("OK %v stopped %v failed %+v: transient read failures must be retried", res.OK(), res.Stopped, res.Failed())
				}
				sfDiff(t, "after transient read failures", w.sfSnapshot(), want)
			})
		}
	}
}

// GitHub cuts a query it cannot finish in time: an HTTP 200 "Something went
// wrong ... timeout" with no data, or a 502 (JSON or its front end's HTML
// page). The page is asked again at half the size (74, 37, 18: one point a
// page), the rest of the run keeps the smaller size, and the run ends as an
// uncut one.
func TestSafetyGraphQLTimeoutHalvesThePage(t *testing.T) {
	t.Parallel()
	build := func(w *world) { w.sfStaleHeavy() }
	want, _ := sfReference(t, build, sfInputs)
	cases := []struct {
		name string
		rule fakegithub.FaultRule
	}{
		{"timeout above 20 PRs", fakegithub.FaultRule{Route: "POST /graphql", Times: -1, Fault: fakegithub.TimeoutGraphQL(20)}},
		{"502 twice", fakegithub.FaultRule{Route: "POST /graphql", Times: 2, Fault: fakegithub.BadGatewayGraphQL(false)}},
		{"502 HTML page twice", fakegithub.FaultRule{Route: "POST /graphql", Times: 2, Fault: fakegithub.BadGatewayGraphQL(true)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			build(w)
			w.fake.InjectFault(tc.rule)
			res := w.run(sfInputs)
			var firsts []int
			for _, r := range w.fake.Requests() {
				if n, ok := sfPageSize(r); ok {
					firsts = append(firsts, n)
				}
			}
			if len(firsts) < 4 || fmt.Sprint(firsts[:3]) != "[74 37 18]" {
				t.Fatalf("page sizes asked %v, want 74, 37, 18, then the run's other pages", firsts)
			}
			for _, n := range firsts[3:] {
				if n > 18 {
					t.Errorf("page sizes asked %v: a later page larger than the one GitHub answered", firsts)
				}
			}
			if !res.OK() || res.Stopped != nil {
				t.Errorf("OK %v stopped %v failed %+v: a page cut for time is asked again smaller", res.OK(), res.Stopped, res.Failed())
			}
			sfDiff(t, "after pages cut for time", w.sfSnapshot(), want)
		})
	}
}

// sfPageSize is the number of PRs a GraphQL listing page asks for.
func sfPageSize(r fakegithub.RequestInfo) (int, bool) {
	if page, _, _ := sfPageOf(r); !page {
		return 0, false
	}
	var body struct {
		Variables struct {
			First int `json:"first"`
		} `json:"variables"`
	}
	if json.Unmarshal([]byte(r.Body), &body) != nil {
		return 0, false
	}
	return body.Variables.First, true
}

// A write whose answer is lost: applied once, verified, never doubled.
func TestSafetyLostWriteAnswers(t *testing.T) {
	t.Parallel()
	build := func(w *world) { w.sfMixed() }
	want, _ := sfReference(t, build, sfInputs)
	faults := map[string]func() *fakegithub.Fault{
		"fail after write": fakegithub.FailAfterWrite,
		"drop after write": fakegithub.DropAfterWrite,
		"truncated":        fakegithub.TruncatedBody,
		"502 before":       func() *fakegithub.Fault { return fakegithub.ServerError(502) },
		"drop before":      fakegithub.DropConnection,
	}
	writes := []string{
		"POST " + sfPRCommentsRoute,
		"POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
		"PUT /repos/{owner}/{repo}/issues/{issue_number}/labels",
		"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
		"PATCH /repos/{owner}/{repo}/issues/{issue_number}",
	}
	for i, fname := range []string{"fail after write", "drop after write", "truncated", "502 before", "drop before"} {
		for j, wr := range writes {
			if testing.Short() && !(i == 0 && j == 0 || i == 4 && j == 4) {
				continue // -short: a comment whose answer is lost after the write, a close whose connection drops before it (2 of the 25 pairs); CI runs all
			}
			t.Run(fname+" "+wr, func(t *testing.T) {
				w := newWorld(t)
				m := w.sfMixed()
				method, route, _ := strings.Cut(wr, " ")
				// The first and the third such write lose their answer.
				w.fake.InjectFault(fakegithub.FaultRule{Method: method, Route: route, Nth: 1, Fault: faults[fname]()})
				w.fake.InjectFault(fakegithub.FaultRule{Method: method, Route: route, Nth: 3, Fault: faults[fname]()})
				res := w.run(sfInputs)
				fired := slices.ContainsFunc(w.fake.Requests(), func(r fakegithub.RequestInfo) bool { return r.Fault != "" })
				if !fired {
					t.Fatal("no fault fired")
				}
				comment := method == "POST" && strings.HasSuffix(route, "/comments")
				if comment && strings.HasSuffix(fname, "before") {
					// Not made, and no answer says so: the comment is not
					// sent again in this run (GitHub could still make it
					// late), its PR fails, and the next run finishes.
					checkOutcomeUnknown(t, res)
					w.clock.Advance(time.Hour)
					res = w.run(sfInputs)
				}
				if !res.OK() {
					t.Errorf("failed %+v", res.Failed())
				}
				checkNoticesOnce(t, w, m)
				if comment {
					if w.fake.CountBy()["GET "+sfPRCommentsRoute] == 0 {
						t.Error("a comment with an unknown outcome was not verified")
					}
				}
				sfDiff(t, "after lost write answers", w.sfSnapshot(), want)
			})
		}
	}
}

// checkOutcomeUnknown checks that some PR failed, and every one for its
// comment's outcome being unknown.
func checkOutcomeUnknown(t *testing.T, res sweep.Result) {
	t.Helper()
	for _, f := range res.Failed() {
		if !strings.Contains(f.Err, "outcome unknown") {
			t.Errorf("#%d failed with %q, want its outcome unknown", f.Number, f.Err)
		}
	}
	if len(res.Failed()) == 0 {
		t.Error("no PR failed, but a comment's outcome was unknown")
	}
}

// checkNoticesOnce checks that each PR marked or closed has one stale
// notice, and each closed one closing comment.
func checkNoticesOnce(t *testing.T, w *world, m sfMixed) {
	t.Helper()
	for _, n := range append(m.mark, m.close...) {
		if c := w.notices(n, "stale"); c != 1 {
			t.Errorf("#%d: %d stale notices", n, c)
		}
	}
	for _, n := range m.close {
		if c := w.notices(n, "close"); c != 1 {
			t.Errorf("#%d: %d closing comments", n, c)
		}
	}
}

// ---- 6. pagination under change ----

func TestSafetyPaginationUnderOwnWrites(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w := newWorld(t)
	var mark, closing, unstale []int
	for i := 0; i < 260; i++ {
		// Interleave ages so our writes move PRs across every page.
		mark = append(mark, w.pr(100+float64(i%37)+float64(i)/1000))
	}
	for i := 0; i < 120; i++ {
		closing = append(closing, w.markedPR(40+float64(i)/100))
	}
	for i := 0; i < 30; i++ {
		n := w.markedPR(20 + float64(i)/10)
		w.fake.Comment(n, bob, daysAgo(1), "still here")
		unstale = append(unstale, n)
	}
	for i := 0; i < 150; i++ {
		w.pr(float64(i) / 5) // active: after the cutoff
	}
	res := w.run(sfWith(sfQuick, "operations-per-run", "3000"))
	if !res.OK() || res.Stopped != nil {
		t.Fatalf("OK %v stopped %v left %d", res.OK(), res.Stopped, res.Left)
	}
	for _, n := range mark {
		if !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Errorf("#%d skipped: labels %v, %d notices", n, w.labels(n), w.notices(n, "stale"))
		}
	}
	for _, n := range closing {
		if w.state(n) != "closed" {
			t.Errorf("#%d not closed", n)
		}
	}
	for _, n := range unstale {
		if w.hasLabel(n, "stale") {
			t.Errorf("#%d not un-staled", n)
		}
	}
	if len(res.Marked()) != len(mark) || len(res.Closed()) != len(closing) || len(res.Unstaled()) != len(unstale) {
		t.Errorf("marked %d closed %d unstaled %d, want %d %d %d", len(res.Marked()), len(res.Closed()), len(res.Unstaled()),
			len(mark), len(closing), len(unstale))
	}
}

// People's writes during the listing move PRs between pages too. A PR that
// slipped to an earlier page is missed by offset pagination (as on GitHub);
// it must then be handled by the next run, never left behind for good.
func TestSafetyPaginationUnderOthersWrites(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w := newWorld(t)
	var mark []int
	for i := 0; i < 250; i++ {
		mark = append(mark, w.pr(300-float64(i)/10))
	}
	var mu sync.Mutex
	done := false
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if !done && r.Method == "GET" && strings.Contains(r.Path, "page=2") && !strings.Contains(r.Path, "labels=") {
			done = true
			// A bot touches ten PRs of page 1: they move to the end; ten PRs
			// of page 2 slip onto page 1.
			for _, n := range mark[:10] {
				w.fake.Comment(n, ci, w.clock.Now(), "rebased")
			}
		}
		return nil
	})
	w.run(sfWith(sfQuick, "operations-per-run", "3000"))
	w.fake.SetFaultHook(nil)
	w.clock.Advance(24 * time.Hour)
	w.run(sfWith(sfQuick, "operations-per-run", "3000"))
	for _, n := range mark[10:] {
		if !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Errorf("#%d never marked: labels %v", n, w.labels(n))
		}
	}
}

// ---- 7. hostile text ----

func TestSafetyHostileText(t *testing.T) {
	t.Parallel()
	for i, staleLabel := range []string{"lifecycle/stale", "stale #1?", "stale label", "100%", "a/b/c", "état/périmé"} {
		if testing.Short() && i%3 != 0 {
			continue // -short: a path separator with a # and, a non-ASCII one (2 of the 6); CI runs all
		}
		t.Run(staleLabel, func(t *testing.T) {
			w := newWorld(t)
			inputs := sfWith(sfQuick,
				"stale-pr-label", staleLabel,
				"labels-to-remove-when-unstale", "needs info?,area/x #1,wait for:author",
				"close-pr-label", "closed: stale|bot",
				"stale-pr-message", "Hi {{author}}, labels {{labels}} ::error::nope\n_GitHubActionsFileCommandDelimeter_")
			hw := newHostileWorld(w, staleLabel)

			res := w.run(inputs)
			if !res.OK() || res.Stopped != nil {
				t.Fatalf("OK %v stopped %v failed %+v", res.OK(), res.Stopped, res.Failed())
			}
			hw.check(t, res)
			// Second run: nothing left to do.
			w.fake.Reset()
			w.clock.Advance(time.Minute)
			w.run(inputs)
			if n := w.fake.Writes(); n != 0 {
				t.Errorf("second run wrote %d times: %v", n, w.fake.WriteRequests())
			}
		})
	}
}

// hostileTexts are titles, logins and labels that would be commands,
// markup or delimiters if printed as they are.
var hostileTexts = []string{"::error::x", "::add-mask::x", "line\nbreak", "a | b | c", "<img src=x onerror=alert(1)>",
	"_GitHubActionsFileCommandDelimeter_", "ghadelimiter_1234", "%0A::warning::y"}

// hostileWorld is TestSafetyHostileText's PRs: mark, one per hostile text,
// to be marked; the others marked before, each with a story.
type hostileWorld struct {
	w                               *world
	staleLabel                      string
	mark                            []int
	onlyStale, odd, closing, merged int
}

func newHostileWorld(w *world, staleLabel string) *hostileWorld {
	hw := &hostileWorld{w: w, staleLabel: staleLabel}
	for i, h := range hostileTexts {
		n := w.pr(100+float64(i), func(is *fakegithub.Issue) {
			is.Title = h
			is.User = fakegithub.Person("u" + strconv.Itoa(i) + h)
			is.Labels = []string{h}
		})
		hw.mark = append(hw.mark, n)
	}
	mk := func(d float64, labels ...string) int {
		n := w.pr(d+90, func(is *fakegithub.Issue) { is.Title = hostileTexts[int(d)%len(hostileTexts)]; is.Labels = labels })
		at := daysAgo(d)
		w.fake.Label(n, action, at, staleLabel)
		w.fake.Comment(n, action, at.Add(time.Second), fakegithub.StaleNoticeBody(staleLabel, at, ""))
		return n
	}
	hw.onlyStale = mk(10)
	w.fake.Comment(hw.onlyStale, bob, daysAgo(1), "::error::still here")
	hw.odd = mk(11, "needs info?", "area/x #1", "wait for:author", "keep|me")
	w.fake.Comment(hw.odd, bob, daysAgo(1), "<b>back</b>")
	hw.closing = mk(40, "x/y#z?")
	hw.merged = w.fake.AddPR(fakegithub.Issue{Title: "::add-mask::merged", User: alice, State: "closed", Labels: []string{staleLabel},
		CreatedAt: daysAgo(200), UpdatedAt: daysAgo(2), ClosedAt: daysAgo(2), MergedAt: daysAgo(2)})
	return hw
}

// check checks the first run: every hostile PR marked once with its title
// reported as is, the answered ones un-staled with exactly the labels
// asked removed, the old one closed, the merged one left alone.
func (hw *hostileWorld) check(t *testing.T, res sweep.Result) {
	t.Helper()
	w, staleLabel := hw.w, hw.staleLabel
	for _, n := range hw.mark {
		if !w.hasLabel(n, staleLabel) || w.notices(n, "stale") != 1 {
			t.Errorf("#%d not marked: %q", n, w.labels(n))
		}
	}
	if w.hasLabel(hw.onlyStale, staleLabel) {
		t.Errorf("#%d: %q not removed", hw.onlyStale, staleLabel)
	}
	if got := w.labels(hw.odd); len(got) != 1 || got[0] != "keep|me" {
		t.Errorf("#%d labels %q, want only keep|me", hw.odd, got)
	}
	closing := hw.closing
	if w.state(closing) != "closed" || !w.hasLabel(closing, "closed: stale|bot") || !w.hasLabel(closing, "x/y#z?") || w.hasLabel(closing, staleLabel) {
		t.Errorf("#%d: %s %q", closing, w.state(closing), w.labels(closing))
	}
	if w.hasLabel(hw.merged, staleLabel) {
		t.Errorf("merged #%d keeps %q", hw.merged, staleLabel)
	}
	for _, it := range res.Marked() {
		if i := slices.Index(hw.mark, it.Number); i >= 0 && it.Title != hostileTexts[i] {
			t.Errorf("#%d title %q, want it as is (the report sanitises)", it.Number, it.Title)
		}
	}
}

// ---- 8. branch deletion ----

func TestSafetyDeleteBranch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddBranch("feature", "fix/issue#12?", "already-gone-race")
	same := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "fix/issue#12?" })
	// A fork whose branch has the name of one of ours, from a fork that
	// even has our repository's name.
	fork := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "feature"; is.HeadRepo = "alice/repo" })
	nullRepo := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "feature"; is.HeadRepoDeleted = true })
	dflt := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "main" })
	gone := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "never-existed" })
	w.fake.DeleteBranch("never-existed") // deleted by a person long ago: its read answers 404, no delete sent
	race := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "already-gone-race" })
	// Someone deletes the branch between our read and our delete: 422.
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Method == "DELETE" && strings.Contains(r.Path, "already-gone-race") {
			return fakegithub.StatusFault(422, `{"message":"Reference does not exist","documentation_url":"https://docs.github.com/rest/git/refs#delete-a-reference","status":"422"}`)
		}
		return nil
	})
	res := w.run(sfWith(sfQuick, "delete-branch", "true"))
	for _, n := range []int{same, fork, nullRepo, dflt, gone, race} {
		if w.state(n) != "closed" {
			t.Errorf("#%d not closed", n)
		}
	}
	if !res.OK() {
		t.Errorf("failed %+v (a 422 on an already deleted branch is not an error)", res.Failed())
	}
	if w.fake.HasBranch("fix/issue#12?") {
		t.Error("the same-repository branch fix/issue#12? was not deleted")
	}
	if !w.fake.HasBranch("feature") || !w.fake.HasBranch("main") {
		t.Errorf("a fork's namesake or the default branch was deleted: %v", w.fake.Branches())
	}
	var deletes, gets []string
	saw422 := 0
	for _, r := range w.fake.Requests() {
		if r.Method == "GET" && strings.Contains(r.Path, "/git/ref/") {
			gets = append(gets, fmt.Sprintf("%s -> %d", r.Path, r.Status))
		}
	}
	for _, r := range w.fake.WriteRequests() {
		if r.Method == "DELETE" && strings.Contains(r.Path, "/git/refs/") {
			deletes = append(deletes, fmt.Sprintf("%s -> %d", r.Path, r.Status))
			if r.Status == 422 {
				saw422++
			}
			if strings.Contains(r.Path, "/heads/feature") || strings.HasSuffix(r.Path, "/heads/main") {
				t.Errorf("delete request for a branch that is not the PR's: %s", r.Path)
			}
		}
	}
	if saw422 != 1 {
		t.Errorf("want one 422 answer (deleted meanwhile): %v", deletes)
	}
	if len(deletes) != 2 {
		t.Errorf("delete requests %v, want exactly the same-repository ones that exist (2)", deletes)
	}
	// The branch is read before its deletion: the one that never existed
	// answers 404 and is not deleted; the escaped name is read as itself.
	want := []string{
		"/api/v3/repos/octo/repo/git/ref/heads/fix/issue%2312%3F -> 200",
		"/api/v3/repos/octo/repo/git/ref/heads/never-existed -> 404",
		"/api/v3/repos/octo/repo/git/ref/heads/already-gone-race -> 200",
	}
	slices.Sort(gets)
	slices.Sort(want)
	if !slices.Equal(gets, want) {
		t.Errorf("branch reads %v, want %v", gets, want)
	}
}

// ---- 9. soak ----

var sfMarkedRE = regexp.MustCompile(`<!-- stalepr:stale marked=([^ ]+)(?: head=[0-9a-f]+)? -->`)

// sfLastPerson is the last thing a person did on a PR at or before until,
// as the rules count it: comments and events by people, and pushed commits.
func sfLastPerson(evs []fakegithub.Event, cms []fakegithub.Comment, me string, until time.Time) time.Time {
	var last time.Time
	see := func(at time.Time) {
		if !at.After(until) && at.After(last) {
			last = at
		}
	}
	for _, c := range cms {
		if c.User.Type == "User" && !strings.EqualFold(c.User.Login, me) {
			see(c.CreatedAt)
		}
	}
	for _, e := range evs {
		switch {
		case e.Type == fakegithub.EventCommitted:
			see(e.At)
		case e.Type == fakegithub.EventLabeled && strings.EqualFold(e.Label, "stale"):
		case e.Actor.Type == "User" && !strings.EqualFold(e.Actor.Login, me):
			see(e.At)
		}
	}
	return last
}

// sfExpected recomputes, from the fake's state alone, what the rules call
// for on each open PR (the soak's inputs: 90/30 days, pinned and drafts
// exempt, activity from anyone).
func sfExpected(w *world, now time.Time) map[int]string {
	me := w.fake.Identity().Login
	far := now.Add(100 * 365 * 24 * time.Hour)
	out := map[int]string{}
	for _, is := range w.fake.Issues() {
		if !is.IsPR || is.State != "open" || is.Draft || is.HasLabel("pinned") {
			continue
		}
		n := is.Number
		if !is.HasLabel("stale") {
			if is.UpdatedAt.Before(now.Add(-90 * 24 * time.Hour)) {
				out[n] = "mark"
			}
			continue
		}
		evs, cms := w.fake.Events(n), w.fake.Comments(n)
		var mark time.Time
		for _, e := range evs {
			if strings.EqualFold(e.Label, "stale") {
				switch e.Type {
				case fakegithub.EventLabeled:
					mark = e.At
				case fakegithub.EventUnlabeled:
					mark = time.Time{}
				}
			}
		}
		notice := false
		for _, c := range cms {
			if m := sfMarkedRE.FindStringSubmatch(c.Body); m != nil && !c.CreatedAt.Before(mark) {
				notice = true
			}
		}
		switch {
		case mark.IsZero():
			out[n] = "unknown mark"
		case sfLastPerson(evs, cms, me, far).After(mark):
			out[n] = "unstale"
		case !now.Before(mark.Add(30 * 24 * time.Hour)):
			out[n] = "close"
		case !notice:
			out[n] = "notify"
		}
	}
	return out
}

func TestSafetySoak(t *testing.T) {
	testenv.Slow(t) // 50 runs over 2,000 PRs
	start := time.Now()
	w := newWorld(t)
	w.fake.AddSynthetic(2000, 7)
	me := w.fake.Identity().Login
	inputs := sfWith(sfQuick, "operations-per-run", "400", "exempt-pr-labels", "pinned", "exempt-draft-pr", "true")
	faults := soakFaults(w)

	people := rand.New(rand.NewPCG(43, 2))
	stops := map[string]int{}
	var marked, closed, unstaled int
	for day := 0; day < 50; day++ {
		res := w.run(inputs)
		stops[fmt.Sprint(res.Stopped)]++
		marked, closed, unstaled = marked+len(res.Marked()), closed+len(res.Closed()), unstaled+len(res.Unstaled())
		checkSoakDay(t, day, res)
		w.clock.Advance(24 * time.Hour)
		soakPeopleAnswer(w, people)
	}
	reqs, secondaries := faults.counts()
	t.Logf("soak: %d marked, %d closed, %d unstaled; stops %v; %d requests, %d secondary limits; %v",
		marked, closed, unstaled, stops, reqs, secondaries, time.Since(start).Round(time.Millisecond))
	if closed == 0 || marked == 0 || unstaled == 0 {
		t.Errorf("the soak exercised too little: %d marked, %d closed, %d unstaled", marked, closed, unstaled)
	}

	for _, is := range w.fake.Issues() {
		checkSoakNotices(t, w, is.Number, me)
		checkSoakCloses(t, w, is, me)
	}
	checkSoakFinalRun(t, w, inputs)
}

// soakFaultCount counts the soak's requests and the secondary limits its
// fault hook answered.
type soakFaultCount struct {
	mu                sync.Mutex
	reqs, secondaries int
}

func (c *soakFaultCount) counts() (reqs, secondaries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reqs, c.secondaries
}

// soakFaults has every seventh request fail (a 5xx, or a write whose answer
// is lost) and about one in 150 meet a secondary rate limit.
func soakFaults(w *world) *soakFaultCount {
	c := &soakFaultCount{}
	faultRNG := rand.New(rand.NewPCG(42, 1))
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.reqs++
		reqs := c.reqs
		if reqs%7 == 0 {
			if r.Write && (reqs/7)%2 == 1 {
				return fakegithub.FailAfterWrite()
			}
			return fakegithub.ServerError([]int{500, 502, 503}[(reqs/7)%3])
		}
		if faultRNG.IntN(150) == 0 {
			c.secondaries++
			return fakegithub.SecondaryRateLimit([]int{403, 429}[faultRNG.IntN(2)], faultRNG.IntN(90))
		}
		return nil
	})
	return c
}

// checkSoakDay checks one day's run: it listed, and no PR failed but for a
// comment whose outcome is unknown.
func checkSoakDay(t *testing.T, day int, res sweep.Result) {
	t.Helper()
	// A comment whose answer was a 5xx or lost is not sent again in
	// the same run (GitHub may still make it): that PR fails for the
	// run by design, and the next run finishes it. Any other failure
	// is a bug.
	for _, f := range res.Failed() {
		if !strings.Contains(f.Err, "outcome unknown") {
			t.Errorf("day %d: #%d failed: %s", day, f.Number, f.Err)
		}
	}
	if res.ListingFailed() {
		t.Errorf("day %d: run stopped: %v", day, res.Stopped)
	}
}

// soakPeopleAnswer has people answer about one stale PR in eight.
func soakPeopleAnswer(w *world, people *rand.Rand) {
	for _, is := range w.fake.Issues() {
		if is.IsPR && is.State == "open" && is.HasLabel("stale") && people.IntN(8) == 0 {
			at := w.now().Add(-time.Duration(1+people.IntN(20)) * time.Hour)
			w.fake.Comment(is.Number, fakegithub.Person("dev"+strconv.Itoa(1+people.IntN(200))), at, "Still working on it.")
		}
	}
}

// checkSoakNotices checks PR n: no duplicate notice for any mark, no more
// closing comments than closes.
func checkSoakNotices(t *testing.T, w *world, n int, me string) {
	t.Helper()
	seen := map[string]int{}
	closes := 0
	for _, c := range w.fake.Comments(n) {
		if m := sfMarkedRE.FindStringSubmatch(c.Body); m != nil {
			if seen[m[1]]++; seen[m[1]] == 2 {
				t.Errorf("#%d: two stale notices for the mark of %s", n, m[1])
			}
		}
		if strings.Contains(c.Body, "<!-- stalepr:close") {
			closes++
		}
	}
	ourCloses := 0
	for _, e := range w.fake.Events(n) {
		if e.Type == fakegithub.EventClosed && e.Actor.Login == me {
			ourCloses++
		}
	}
	if closes > ourCloses {
		t.Errorf("#%d: %d closing comments for %d closes", n, closes, ourCloses)
	}
}

// checkSoakCloses checks that no close of PR is was wrong: at each close,
// marked 30 days before and no person since the mark; never an exempt PR.
func checkSoakCloses(t *testing.T, w *world, is fakegithub.Issue, me string) {
	t.Helper()
	n := is.Number
	evs, cms := w.fake.Events(n), w.fake.Comments(n)
	for _, e := range evs {
		if e.Type != fakegithub.EventClosed || e.Actor.Login != me {
			continue
		}
		if is.Draft || is.HasLabel("pinned") {
			t.Errorf("#%d: exempt PR closed at %s", n, e.At)
		}
		mark := sfMarkBefore(evs, e.At)
		if mark.IsZero() || e.At.Sub(mark) < 30*24*time.Hour {
			t.Errorf("#%d closed at %s, marked %s: not 30 days", n, e.At, mark)
		}
		if p := sfLastPerson(evs, cms, me, e.At); p.After(mark) || e.At.Sub(p) < 30*24*time.Hour {
			t.Errorf("#%d closed at %s although a person acted at %s (marked %s)", n, e.At, p, mark)
		}
	}
}

// sfMarkBefore is the time of the last stale label put on by at, or zero.
func sfMarkBefore(evs []fakegithub.Event, at time.Time) time.Time {
	var mark time.Time
	for _, l := range evs {
		if l.Type == fakegithub.EventLabeled && strings.EqualFold(l.Label, "stale") && !l.At.After(at) {
			mark = l.At
		}
	}
	return mark
}

// checkSoakFinalRun checks that a fault-free run with room for everything
// writes only what the rules require, and leaves nothing to do.
func checkSoakFinalRun(t *testing.T, w *world, inputs map[string]string) {
	t.Helper()
	w.fake.ClearFaults()
	want := sfExpected(w, w.now())
	w.fake.Reset()
	res := w.run(sfWith(inputs, "operations-per-run", "5000"))
	if !res.OK() || res.Stopped != nil {
		t.Fatalf("final run: stopped %v failed %+v", res.Stopped, res.Failed())
	}
	for _, r := range w.fake.WriteRequests() {
		if n := sfPROf(r); want[n] == "" {
			t.Errorf("final run: unrequired write %s %s", r.Method, r.Path)
		}
	}
	if left := sfExpected(w, w.now()); len(left) != 0 {
		t.Errorf("after the final run, PRs still call for action: %v", left)
	}
	w.fake.Reset()
	w.run(inputs)
	if n := w.fake.Writes(); n != 0 {
		t.Errorf("a second fault-free run wrote %d times", n)
	}
}

// With delete-branch, a crash between the close and the branch deletion
// must not leave the branch behind for good: the next run finishes it.
func TestSafetyCrashBeforeBranchDeletionConverges(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	inputs := sfWith(sfInputs, "delete-branch", "true")
	build := func(w *world) {
		w.sfMixed()
		w.fake.AddBranch("feature-a", "feature-b")
		w.markedPR(50, func(is *fakegithub.Issue) { is.HeadRef = "feature-a" })
		w.markedPR(60, func(is *fakegithub.Issue) { is.HeadRef = "feature-b" })
	}
	want, writes := sfReference(t, build, inputs)
	total := len(writes)
	featureDelete := func(w fakegithub.RequestInfo) bool {
		return w.Route == sfDeleteRefRoute && strings.Contains(w.Path, "/heads/feature-")
	}
	for k := 1; k <= total; k++ {
		// -short keeps the kills this test is about: after closing a PR
		// whose branch it checks (feature-a, feature-b) and after deleting
		// that branch. A kill after any other write is
		// TestSafetyCrashAfterEveryWriteConverges's; without -short (CI)
		// this test kills after every write here too.
		w := writes[k-1]
		closesFeature := w.Route == sfPatchIssueRoute && strings.Contains(w.Body, `"closed"`) && k < total && featureDelete(writes[k])
		if testing.Short() && !featureDelete(w) && !closesFeature {
			continue
		}
		t.Run(fmt.Sprintf("kill after write %d of %d", k, total), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			build(w)
			w.sfKillAfter(k)
			w.run(inputs)
			w.fake.ClearFaults()
			w.clock.Advance(time.Hour)
			w.run(inputs)
			sfDiff(t, "after crash and rerun", w.sfSnapshot(), want)
			for _, b := range []string{"feature-a", "feature-b"} {
				if w.fake.HasBranch(b) {
					t.Errorf("branch %s of a PR closed by stalepr is still there", b)
				}
			}
		})
	}
}
