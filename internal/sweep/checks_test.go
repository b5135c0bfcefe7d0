package sweep_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// TestTurnChecksFail: with author-turn-when-checks-fail, through the HTTP
// path, a completed, failing, required check on the head commit after the
// author's last push puts the PR on its author's turn (under author-turn, it
// is marked once that turn is old enough); a pending, optional, re-run-green
// check, or a failure on an older commit, does not; nor does any failure with
// the input off. The listing reads the rollup's state in its pages, and the
// failing PRs' checks with whether each is required in one query more, not
// one per PR.
func TestTurnChecksFail(t *testing.T) {
	t.Parallel()
	type checkCase struct {
		name   string
		setup  func(w *world) int
		marked bool
	}
	failed := fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)}
	cases := []checkCase{
		{"a failing required check after the last push: the author's turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.Push(n, "alice", daysAgo(30), "add the feature")
			w.fake.AddCheck(n, failed)
			return n
		}, true},
		{"a failing required commit status: the author's turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "ci/legacy", Conclusion: "ERROR", At: daysAgo(20)})
			return n
		}, true},
		{"pending: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "IN_PROGRESS"})
			return n
		}, false},
		{"an optional check's failure: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "lint", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)})
			return n
		}, false},
		{"failed, then re-run green: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, failed)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: daysAgo(19)})
			return n
		}, false},
		{"a failure on an older commit: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(40)})
			w.fake.Push(n, "alice", daysAgo(30), "fix the test")
			return n
		}, false},
	}
	inputs := maps.Clone(authorTurnInputs)
	inputs["author-turn-when-checks-fail"] = "true"
	run := func(inputs map[string]string) (*world, []int) {
		w := turnWorld(t)
		w.fake.SetRequiredChecks("test", "ci/legacy")
		prs := make([]int, len(cases))
		for i, c := range cases {
			prs[i] = c.setup(w)
		}
		if res := w.run(inputs); !res.OK() {
			t.Fatalf("run: failed %+v, stopped %v", res.Failed(), res.Stopped)
		}
		return w, prs
	}
	on, prs := run(inputs)
	for i, c := range cases {
		if got := on.hasLabel(prs[i], "stale"); got != c.marked {
			t.Errorf("%s: #%d marked = %v, want %v", c.name, prs[i], got, c.marked)
		}
	}
	if cs := on.fake.Comments(prs[0]); len(cs) == 0 || !strings.Contains(cs[0].Body, "with the required check test failing") {
		t.Errorf("the notice does not name the failing check: %+v", cs)
	}
	off, prs := run(authorTurnInputs)
	for i, c := range cases {
		if off.hasLabel(prs[i], "stale") {
			t.Errorf("input off, %s: #%d marked", c.name, prs[i])
		}
	}
	// Off, no query asks for checks: the queries are those of before the
	// input (GitHub Enterprise Server before PullRequest.statusCheckRollup
	// answers them too).
	for _, r := range off.fake.Requests() {
		if strings.Contains(r.Body, "statusCheckRollup") {
			t.Errorf("input off, %s asked for checks", r.Route)
		}
	}
	// One listing page either way, and one query more with the input on:
	// whether the page's three failing checks are required.
	gql := func(w *world) int {
		n := 0
		for _, r := range w.fake.Requests() {
			if r.Path == "/graphql" || strings.HasSuffix(r.Path, "/graphql") {
				n++
			}
		}
		return n
	}
	if got, want := gql(on), gql(off)+1; got != want {
		t.Errorf("GraphQL requests with the input on: %d, want %d (off: %d)", got, want, gql(off))
	}
	if got, want := on.fake.GraphQLPoints(), off.fake.GraphQLPoints()+1; got != want {
		t.Errorf("GraphQL points with the input on: %d, want %d (off: %d)", got, want, off.fake.GraphQLPoints())
	}
}

// checksWorld is openPRs with CI on every open PR's head: a required build
// that passed; on one PR in five a required test that failed (on one of
// those three a re-run passed since), on one in ten an optional lint that
// failed. The checks completed a day after the PR's last update.
func checksWorld(tb testing.TB, prs int) *world {
	w := openPRs(tb, prs)
	f := w.fake
	f.SetRequiredChecks("build", "test")
	k := 0
	for _, is := range f.Issues() {
		if !is.IsPR || is.State != "open" {
			continue
		}
		k++
		at := is.UpdatedAt.Add(lifecycle.Day)
		if at.After(t0) {
			at = t0
		}
		f.AddCheck(is.Number, fakegithub.Check{Name: "build", Status: "COMPLETED", Conclusion: "SUCCESS", At: at})
		if k%5 == 0 {
			f.AddCheck(is.Number, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: at})
			if k%15 == 0 {
				f.AddCheck(is.Number, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: at.Add(time.Hour)})
			}
		}
		if k%10 == 3 {
			f.AddCheck(is.Number, fakegithub.Check{Name: "lint", Status: "COMPLETED", Conclusion: "FAILURE", At: at})
		}
	}
	return w
}

// TestChecksCostAtScale: author-turn-when-checks-fail reads no request per
// PR: on 2,000 open PRs under author-turn, a quiet day's listing keeps its
// pages and points, plus one query (one point) per 100 PRs with a failing
// check, gathered across pages; REST reads are the same.
func TestChecksCostAtScale(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	on := maps.Clone(fairInputs)
	on["author-turn-when-checks-fail"] = "true"
	quiet := func(inputs map[string]string) (day0, day1 reads) {
		w := checksWorld(t, 2000)
		day0 = readsOf(w.run(inputs))
		w.clock.Advance(lifecycle.Day)
		res := w.run(inputs)
		if !res.OK() {
			t.Fatalf("quiet day: failed %+v, stopped %v", res.Failed(), res.Stopped)
		}
		return day0, readsOf(res)
	}
	off0, off1 := quiet(fairInputs)
	on0, on1 := quiet(on)
	t.Logf("off: first run %v; a quiet day %v", off0, off1)
	t.Logf("on:  first run %v; a quiet day %v", on0, on1)
	// Fewer than a quarter of the PRs have a failing check (7 in 30).
	most := (on1.prs/4 + sweep.ChecksPerRead - 1) / sweep.ChecksPerRead
	if on1.rest != off1.rest || on1.queries > off1.queries+most || on1.points > off1.points+most {
		t.Errorf("a quiet day with the input on: %v; want off's REST reads and at most %d queries and points more than %v", on1, most, off1)
	}
}

// TestEventKeepsTheChecksTurn: the event path's one read carries the
// checks, so an event on a PR a failing required check put on its author's
// turn (a third person's "+1") leaves the turn labels as the schedule set
// them, instead of swapping them for the reviewers' until the next run.
func TestEventKeepsTheChecksTurn(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	w.fake.SetRequiredChecks("test")
	n := w.openPR(10, alice)
	w.fake.Push(n, "alice", daysAgo(5), "add the feature")
	w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(4)})
	inputs := maps.Clone(turnLabelInputs)
	inputs["author-turn-when-checks-fail"] = "true"
	if res := w.run(inputs); !res.OK() || !w.hasLabel(n, "waiting-on-author") {
		t.Fatalf("the schedule: labels %v (ok %v); want waiting-on-author", w.labels(n), res.OK())
	}
	w.fake.Comment(n, carol, daysAgo(0.01), "+1, I need this too")
	res := w.eventRun(inputs, n, carol.Login)
	if !w.hasLabel(n, "waiting-on-author") || w.hasLabel(n, "waiting-on-review") || len(res.With(sweep.TurnLabeled)) != 0 {
		t.Errorf("after the event: labels %v, turn label writes %d; want waiting-on-author kept, no write", w.labels(n), len(res.With(sweep.TurnLabeled)))
	}
	// Off, the event's read asks for no checks.
	before := w.fake.Count()
	w.eventRun(turnLabelInputs, n, carol.Login)
	for _, r := range w.fake.Requests()[before:] {
		if strings.Contains(r.Body, "statusCheckRollup") {
			t.Errorf("input off, the event's %s asked for checks", r.Route)
		}
	}
}

// TestChecksUnreadCountForNobody: when GitHub fails the checks' read, the
// run goes on, says so, and a failing check puts nobody on the author's
// turn: the PR is not marked.
func TestChecksUnreadCountForNobody(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	w.fake.SetRequiredChecks("test")
	n := w.openPR(60, alice)
	w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)})
	// The listing's page is the first GraphQL request, the checks' read the second.
	w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Nth: 2, Times: 5, Fault: fakegithub.ServerError(502)})
	inputs := maps.Clone(authorTurnInputs)
	inputs["author-turn-when-checks-fail"] = "true"
	log := &nopLog{}
	res := w.runLog(inputs, log)
	if res.Stopped != nil || w.hasLabel(n, "stale") {
		t.Errorf("stopped %v, labels %v: want the run to go on and #%d unmarked", res.Stopped, w.labels(n), n)
	}
	if !slices.ContainsFunc(log.printed, func(s string) bool { return strings.Contains(s, "Could not read the checks of 1 pull requests") }) {
		t.Errorf("the log does not say the checks were not read:\n%s", strings.Join(log.printed, "\n"))
	}
}

// TestChecksSmallestBudgetActs: with author-turn-when-checks-fail the least
// operations-per-run counts the checks' read, and at it a PR a failing
// required check puts on its author's turn is marked.
func TestChecksSmallestBudgetActs(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	w.fake.SetRequiredChecks("test")
	n := w.openPR(60, alice)
	w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)})
	inputs := maps.Clone(authorTurnInputs)
	off := sweep.MinBudget(w.config(inputs))
	inputs["author-turn-when-checks-fail"] = "true"
	min := sweep.MinBudget(w.config(inputs))
	if min != off+1 {
		t.Errorf("MinBudget = %d with the input on, %d off; want one request more", min, off)
	}
	inputs["operations-per-run"] = fmt.Sprint(min)
	if res := w.run(inputs); !has(res.Marked(), n) {
		t.Errorf("budget %d: #%d not marked (%d requests, stopped %v)", min, n, res.Requests, res.Stopped)
	}
}

// TestNudgeWaitsFromTheGreenRerun: with author-turn-when-checks-fail, a
// required check that failed and was re-run green was the author's turn
// while it failed, so the reviewers' wait the nudge counts starts when it
// went green. The listing reads no passing rollup's checks: the PRs about
// to be nudged have theirs read in one query before the plan (none for a
// head without checks). Was: "waiting 30 days" on both, the 28 days of the
// failure counted as the reviewers'.
func TestNudgeWaitsFromTheGreenRerun(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	w.fake.SetRequiredChecks("test")
	rerun := func(greenDaysAgo float64) int {
		n := w.openPR(30, alice)
		w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(28)})
		w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: daysAgo(greenDaysAgo)})
		return n
	}
	recent, older, none := rerun(3), rerun(20), w.openPR(30, alice)
	inputs := maps.Clone(authorTurnInputs)
	inputs["author-turn-when-checks-fail"] = "true"
	inputs["days-before-review-nudge"] = "7"
	if res := w.run(inputs); !res.OK() {
		t.Fatalf("run: failed %+v, stopped %v", res.Failed(), res.Stopped)
	}
	nudge := func(n int) string {
		for _, c := range w.fake.Comments(n) {
			if strings.Contains(c.Body, "for a review") {
				return c.Body
			}
		}
		return ""
	}
	if got := nudge(recent); got != "" {
		t.Errorf("#%d, green 3 days ago, nudged: %q; want no nudge before 7 days of the reviewers' turn", recent, got)
	}
	for n, want := range map[int]string{older: "waiting 20 days", none: "waiting 30 days"} {
		if got := nudge(n); !strings.Contains(got, want) {
			t.Errorf("#%d nudge = %q, want %q", n, got, want)
		}
	}
	reads := 0
	for _, r := range w.fake.Requests() {
		if strings.Contains(r.Body, "isRequired") {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("%d reads of checks, want 1: the two PRs with a nudge due and checks, in one query", reads)
	}
}
