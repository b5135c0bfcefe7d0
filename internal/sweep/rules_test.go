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

// Rule 1: only open pull requests; issues are never touched.
func TestRule1IssuesAreNeverTouched(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	issue := w.fake.AddIssue(fakegithub.Issue{Title: "old issue", User: alice, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(400)})
	closedPR := w.pr(400, func(is *fakegithub.Issue) { is.State = "closed"; is.ClosedAt = daysAgo(400) })
	pr := w.pr(400)
	res := w.run(nil)
	if len(w.labels(issue)) != 0 || len(w.fake.Comments(issue)) != 0 {
		t.Errorf("issue #%d was touched: labels %v", issue, w.labels(issue))
	}
	if len(w.fake.Comments(closedPR)) != 0 || w.state(closedPR) != "closed" {
		t.Errorf("closed PR #%d was touched", closedPR)
	}
	if !w.hasLabel(pr, "stale") || !has(res.Marked(), pr) {
		t.Errorf("open PR #%d not marked: %v", pr, w.labels(pr))
	}
}

// Rule 2: stale after days-before-stale days; the notice is posted once.
func TestRule2MarksAfterDaysBeforeStale(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	old := w.pr(91)
	recent := w.pr(89)
	res := w.run(nil)
	if !w.hasLabel(old, "stale") || w.notices(old, "stale") != 1 {
		t.Fatalf("#%d: labels %v, %d notices; want stale and one notice", old, w.labels(old), w.notices(old, "stale"))
	}
	if w.hasLabel(recent, "stale") || len(w.fake.Comments(recent)) != 0 {
		t.Fatalf("#%d inactive 89 days was touched", recent)
	}
	body := w.fake.Comments(old)[0].Body
	for _, want := range []string{"91 days", "closed on 2026-12-29", "base branch", "comment"} {
		if !strings.Contains(body, want) {
			t.Errorf("notice lacks %q:\n%s", want, body)
		}
	}
	if got := numbers(res.Marked()); len(got) != 1 || got[0] != old {
		t.Errorf("Marked = %v, want [%d]", got, old)
	}
}

func TestRule2Overrides(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		inputs map[string]string
		days   float64
		marked bool
	}{
		{"days-before-pr-stale overrides", map[string]string{"days-before-stale": "10", "days-before-pr-stale": "200"}, 100, false},
		{"custom days", map[string]string{"days-before-stale": "10"}, 11, true},
		{"-1 never marks", map[string]string{"days-before-stale": "-1"}, 1000, false},
		{"custom label, case-insensitive match later", map[string]string{"stale-pr-label": "Lifecycle/Stale"}, 100, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			n := w.pr(tc.days)
			w.run(tc.inputs)
			label := "stale"
			if l, ok := tc.inputs["stale-pr-label"]; ok {
				label = l
			}
			if got := w.hasLabel(n, label); got != tc.marked {
				t.Fatalf("marked = %v, want %v (labels %v)", got, tc.marked, w.labels(n))
			}
		})
	}
}

func TestRule2IgnoreUpdatesJudgesFromCreation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(1, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(200) })
	w.run(map[string]string{"ignore-pr-updates": "true"})
	if !w.hasLabel(n, "stale") {
		t.Fatalf("created 200 days ago, updated yesterday, ignore-pr-updates: want marked, labels %v", w.labels(n))
	}
}

// Rule 3: a person's activity after the mark un-stales; bots and our own
// notice never do.
func TestRule3KeptAlive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		act     func(w *world, n int)
		unstale bool
	}{
		{"person comments", func(w *world, n int) { w.fake.Comment(n, bob, daysAgo(2), "still working on it") }, true},
		{"person reviews", func(w *world, n int) { w.fake.Review(n, maint, daysAgo(2), "COMMENTED", "looks close") }, true},
		{"review comment", func(w *world, n int) { w.fake.LineComment(n, maint, daysAgo(2), "main.go", "nit") }, true},
		{"pushed commit", func(w *world, n int) { w.fake.Push(n, "alice", daysAgo(2), "fix") }, true},
		{"force push", func(w *world, n int) { w.fake.ForcePush(n, alice, daysAgo(2)) }, true},
		{"bot comments", func(w *world, n int) { w.fake.Comment(n, ci, daysAgo(2), "coverage 80%") }, false},
		{"bot relabels", func(w *world, n int) { w.fake.Label(n, ci, daysAgo(2), "size/XL") }, false},
		{"our own identity comments", func(w *world, n int) { w.fake.Comment(n, action, daysAgo(2), "ping") }, false},
		{"nothing", func(w *world, n int) {}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			n := w.markedPR(10)
			tc.act(w, n)
			res := w.run(nil)
			if got := !w.hasLabel(n, "stale"); got != tc.unstale {
				t.Fatalf("un-staled = %v, want %v (labels %v)", got, tc.unstale, w.labels(n))
			}
			if has(res.Unstaled(), n) != tc.unstale || w.state(n) != "open" {
				t.Fatalf("result Unstaled %v, state %s", numbers(res.Unstaled()), w.state(n))
			}
		})
	}
}

func TestRule3UnstaleLabelsAreSwapped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(10, func(is *fakegithub.Issue) { is.Labels = []string{"waiting-for-author"} })
	w.fake.Comment(n, bob, daysAgo(1), "back on it")
	w.run(map[string]string{"labels-to-add-when-unstale": "needs-review", "labels-to-remove-when-unstale": "Waiting-For-Author"})
	got := strings.Join(w.labels(n), ",")
	if w.hasLabel(n, "stale") || w.hasLabel(n, "waiting-for-author") || !w.hasLabel(n, "needs-review") {
		t.Fatalf("labels %s, want only needs-review", got)
	}
}

func TestRule3MaintainerRemovingTheLabelUnstales(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(10)
	w.fake.Unlabel(n, maint, daysAgo(1), "stale")
	w.run(nil)
	if w.hasLabel(n, "stale") || w.state(n) != "open" || w.notices(n, "stale") != 1 {
		t.Fatalf("after a maintainer removed the label: labels %v, state %s, notices %d; want untouched",
			w.labels(n), w.state(n), w.notices(n, "stale"))
	}
}

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

// Rule 4: closed days-before-close after the mark without a person's activity.
func TestRule4Closes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	due := w.markedPR(31)
	notYet := w.markedPR(29)
	botOnly := w.markedPR(31)
	w.fake.Comment(botOnly, ci, daysAgo(3), "build passed")
	res := w.run(map[string]string{"close-pr-label": "closed-stale"})
	for _, n := range []int{due, botOnly} {
		if w.state(n) != "closed" || w.notices(n, "close") != 1 {
			t.Errorf("#%d: state %s, %d close comments; want closed with one", n, w.state(n), w.notices(n, "close"))
		}
		if w.hasLabel(n, "stale") || !w.hasLabel(n, "closed-stale") {
			t.Errorf("#%d labels %v, want closed-stale instead of stale", n, w.labels(n))
		}
	}
	if w.state(notYet) != "open" || !w.hasLabel(notYet, "stale") {
		t.Errorf("#%d marked 29 days ago: state %s", notYet, w.state(notYet))
	}
	if len(res.Closed()) != 2 || !has(res.Stale(), notYet) {
		t.Errorf("Closed %v, Stale %v", numbers(res.Closed()), numbers(res.Stale()))
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

func TestRule4NeverCloseWithMinusOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(300)
	w.run(map[string]string{"days-before-pr-close": "-1"})
	if w.state(n) != "open" || !w.hasLabel(n, "stale") {
		t.Fatalf("state %s labels %v", w.state(n), w.labels(n))
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

func TestRule5ReopenedWithTheLabelStillOnIsUnstaled(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(45)
	w.fake.Close(n, action, daysAgo(14), "")
	w.fake.Reopen(n, alice, daysAgo(1))
	w.run(nil)
	if w.state(n) != "open" || w.hasLabel(n, "stale") {
		t.Fatalf("state %s labels %v, want open and un-staled", w.state(n), w.labels(n))
	}
}

// Rule 6: exemptions and filters, case-insensitive.
func TestRule6Exemptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		inputs map[string]string
		pr     func(*fakegithub.Issue)
		marked bool
	}{
		{"exempt label", map[string]string{"exempt-pr-labels": "Pinned,security"}, func(is *fakegithub.Issue) { is.Labels = []string{"pinned"} }, false},
		{"exempt milestone", map[string]string{"exempt-pr-milestones": "V2"}, func(is *fakegithub.Issue) { is.Milestone = "v2" }, false},
		{"other milestone", map[string]string{"exempt-milestones": "v2"}, func(is *fakegithub.Issue) { is.Milestone = "v3" }, true},
		{"all milestones", map[string]string{"exempt-all-pr-milestones": "true"}, func(is *fakegithub.Issue) { is.Milestone = "v3" }, false},
		{"exempt assignee", map[string]string{"exempt-pr-assignees": "Bob"}, func(is *fakegithub.Issue) { is.Assignees = []string{"bob"} }, false},
		{"all assignees", map[string]string{"exempt-all-assignees": "true"}, func(is *fakegithub.Issue) { is.Assignees = []string{"carol"} }, false},
		{"draft exempt", map[string]string{"exempt-draft-pr": "true"}, func(is *fakegithub.Issue) { is.Draft = true }, false},
		{"draft not exempt by default", nil, func(is *fakegithub.Issue) { is.Draft = true }, true},
		{"only-labels: all needed", map[string]string{"only-pr-labels": "a,b"}, func(is *fakegithub.Issue) { is.Labels = []string{"A"} }, false},
		{"only-labels: all there", map[string]string{"only-labels": "a,b"}, func(is *fakegithub.Issue) { is.Labels = []string{"A", "b"} }, true},
		{"any-of-labels: none", map[string]string{"any-of-pr-labels": "x,y"}, func(is *fakegithub.Issue) { is.Labels = []string{"z"} }, false},
		{"any-of-labels: one", map[string]string{"any-of-labels": "x,y"}, func(is *fakegithub.Issue) { is.Labels = []string{"Y"} }, true},
		{"include-only-assigned, unassigned", map[string]string{"include-only-assigned": "true"}, nil, false},
		{"include-only-assigned, assigned", map[string]string{"include-only-assigned": "true"}, func(is *fakegithub.Issue) { is.Assignees = []string{"carol"} }, true},
		{"created before start-date", map[string]string{"start-date": "2026-10-01"}, nil, false},
		{"created after start-date", map[string]string{"start-date": "2020-01-01T00:00:00Z"}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			var mods []func(*fakegithub.Issue)
			if tc.pr != nil {
				mods = append(mods, tc.pr)
			}
			n := w.pr(120, mods...)
			w.run(tc.inputs)
			if got := w.hasLabel(n, "stale"); got != tc.marked {
				t.Fatalf("marked = %v, want %v", got, tc.marked)
			}
		})
	}
}

func TestRule6ExemptStalePRIsNotClosed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.Labels = []string{"Pinned"} })
	w.run(map[string]string{"exempt-pr-labels": "pinned"})
	if w.state(n) != "open" {
		t.Fatalf("exempt PR was closed")
	}
}

func TestRule6LabelsToRemoveWhenStale(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(120, func(is *fakegithub.Issue) { is.Labels = []string{"needs-review", "keep"} })
	w.run(map[string]string{"labels-to-remove-when-stale": "Needs-Review"})
	if w.hasLabel(n, "needs-review") || !w.hasLabel(n, "keep") || !w.hasLabel(n, "stale") {
		t.Fatalf("labels %v, want keep and stale", w.labels(n))
	}
}

// Rule 7: delete-branch only for same-repository, non-default branches.
func TestRule7DeleteBranch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddBranch("feature", "shared-name")
	same := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "feature" })
	fork := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "shared-name"; is.HeadRepo = "someone/fork" })
	gone := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "shared-name"; is.HeadRepoDeleted = true })
	dflt := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "main" })
	already := w.markedPR(31, func(is *fakegithub.Issue) { is.HeadRef = "deleted-before" })
	res := w.run(map[string]string{"delete-branch": "true"})
	for _, n := range []int{same, fork, gone, dflt, already} {
		if w.state(n) != "closed" {
			t.Fatalf("#%d not closed", n)
		}
	}
	if w.fake.HasBranch("feature") {
		t.Error("same-repository branch not deleted")
	}
	if !w.fake.HasBranch("shared-name") || !w.fake.HasBranch("main") {
		t.Errorf("a fork's or the default branch was deleted: %v", w.fake.Branches())
	}
	if len(res.Failed()) != 0 {
		t.Errorf("failed: %+v (an already-deleted branch is not an error)", res.Failed())
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

func TestRule4ZeroDaysBeforeCloseClosesInTheSameRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(120)
	res := w.run(map[string]string{"days-before-close": "0", "close-pr-label": "closed-stale"})
	if w.state(n) != "closed" || w.notices(n, "close") != 1 || w.hasLabel(n, "stale") || !w.hasLabel(n, "closed-stale") {
		t.Fatalf("state %s, %d close comments, labels %v: want closed at once with closed-stale", w.state(n), w.notices(n, "close"), w.labels(n))
	}
	if !has(res.Closed(), n) {
		t.Fatalf("Closed = %v", numbers(res.Closed()))
	}
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
