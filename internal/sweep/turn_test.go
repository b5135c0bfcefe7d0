package sweep_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
)

// Whose turn it is, end to end through the HTTP path: README "Whose turn it is".

var (
	mia   = fakegithub.Person("mia") // a maintainer, as is maint
	carol = fakegithub.Person("carol")
)

func turnWorld(t *testing.T) *world {
	w := newWorld(t)
	w.fake.AddMember(maint.Login, mia.Login)
	// The escalation reviewer: GitHub asks the review of collaborators only.
	w.fake.SetPermission("lead", "maintain")
	return w
}

// openPR adds a PR by author opened d days ago, with no activity since.
func (w *world) openPR(d float64, author fakegithub.User, mod ...func(*fakegithub.Issue)) int {
	is := fakegithub.Issue{Title: fmt.Sprintf("PR opened %v days ago", d), User: author, CreatedAt: daysAgo(d), UpdatedAt: daysAgo(d)}
	for _, m := range mod {
		m(&is)
	}
	return w.fake.AddPR(is)
}

var authorTurnInputs = map[string]string{"stale-clock": "author-turn", "days-before-stale": "10", "days-before-close": "5"}

// TestTurnAuthorTurnUnstaleAndClose: the author's action un-stales; a third
// person's comment does not postpone the close; the reviewers' turn is
// never closed.
func TestTurnAuthorTurnUnstaleAndClose(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	pushed := w.openPR(60, alice)
	f.Review(pushed, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename")
	pinged := w.openPR(60, alice)
	f.Review(pinged, maint, daysAgo(20), "CHANGES_REQUESTED", "please rename")
	waiting := w.openPR(60, alice)
	first := w.run(authorTurnInputs)
	if !w.hasLabel(pushed, "stale") || !w.hasLabel(pinged, "stale") || w.hasLabel(waiting, "stale") {
		t.Fatalf("first run: labels %v %v %v", w.labels(pushed), w.labels(pinged), w.labels(waiting))
	}
	for _, it := range first.Marked() {
		if !it.OnAuthorsTurn || it.InactiveDays != 20 {
			t.Errorf("#%d marked after %d days, on the author's turn %v: want the 20 days since the change request, counted as the author's turn", it.Number, it.InactiveDays, it.OnAuthorsTurn)
		}
	}
	w.clock.Advance(2 * lifecycle.Day)
	f.Push(pushed, "alice", w.now(), "renamed")
	f.Comment(pinged, carol, w.now(), "+1")
	res := w.run(authorTurnInputs)
	if w.hasLabel(pushed, "stale") || !has(res.Unstaled(), pushed) {
		t.Errorf("#%d: the author pushed, still %v", pushed, w.labels(pushed))
	}
	if !w.hasLabel(pinged, "stale") {
		t.Errorf("#%d: a third person's +1 un-staled it", pinged)
	}
	w.clock.Advance(4 * lifecycle.Day)
	w.run(authorTurnInputs)
	if w.state(pinged) != "closed" {
		t.Errorf("#%d: %s six days after the mark; a third person's +1 must not postpone the close", pinged, w.state(pinged))
	}
	w.clock.Advance(400 * lifecycle.Day)
	w.run(authorTurnInputs)
	if w.state(waiting) != "open" || w.hasLabel(waiting, "stale") || w.state(pushed) != "open" || w.hasLabel(pushed, "stale") {
		t.Errorf("a PR on the reviewers' turn was marked or closed: #%d %s %v, #%d %s %v",
			waiting, w.state(waiting), w.labels(waiting), pushed, w.state(pushed), w.labels(pushed))
	}
}

var nudgeInputs = map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "7", "review-nudge-label": "waiting-on-review"}

// TestTurnNudgeOncePerTurn: one nudge per reviewers' turn across runs; it
// mentions the pending requested reviewers only; its label goes when the
// turn passes; a new reviewers' turn gets a new nudge.
func TestTurnNudgeOncePerTurn(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.openPR(10, alice)
	f.RequestReview(n, alice, daysAgo(10), "rey")
	young := w.openPR(3, alice)
	onAuthor := w.openPR(30, alice)
	f.Comment(onAuthor, maint, daysAgo(20), "please add a test")
	res := w.run(nudgeInputs)
	if w.notices(n, "nudge") != 1 || !w.hasLabel(n, "waiting-on-review") || !has(res.Nudged(), n) {
		t.Fatalf("#%d: %d nudges, labels %v; want one nudge and its label", n, w.notices(n, "nudge"), w.labels(n))
	}
	body := f.Comments(n)[0].Body
	if !strings.Contains(body, "@rey") || strings.Count(body, "@") != 1 || !strings.Contains(body, "10 days") {
		t.Errorf("nudge must mention @rey only and say 10 days:\n%s", body)
	}
	if w.notices(young, "nudge")+w.notices(onAuthor, "nudge") != 0 || w.hasLabel(n, "stale") {
		t.Errorf("nudged a PR under a week on the reviewers' turn or on the author's turn, or marked one stale")
	}
	for range 3 {
		w.clock.Advance(lifecycle.Day)
		w.run(nudgeInputs)
	}
	if c := w.notices(n, "nudge"); c != 1 {
		t.Fatalf("%d nudges after three more runs in the same turn, want 1", c)
	}
	f.Review(n, maint, w.now(), "CHANGES_REQUESTED", "one thing")
	w.clock.Advance(lifecycle.Day)
	w.run(nudgeInputs)
	if w.hasLabel(n, "waiting-on-review") {
		t.Errorf("the turn passed to the author, the nudge label stayed")
	}
	f.Push(n, "alice", w.now(), "fixed")
	w.clock.Advance(8 * lifecycle.Day)
	w.run(nudgeInputs)
	if c := w.notices(n, "nudge"); c != 2 || !w.hasLabel(n, "waiting-on-review") {
		t.Errorf("a new reviewers' turn, 8 days on: %d nudges, labels %v; want a second nudge", c, w.labels(n))
	}
	if w.state(n) != "open" || w.hasLabel(n, "stale") {
		t.Errorf("the nudge closed or staled #%d", n)
	}
}

// TestTurnNudgeEachTurnWithinTheHour: with days-before-review-nudge 0, a
// reviewers' turn that comes back minutes after the last one nudged gets
// its own nudge, kept: the duplicate clean-up once took it for a
// concurrent run's copy of the earlier nudge (posted within the hour),
// deleted it, and every run posted it again until the hour was over.
func TestTurnNudgeEachTurnWithinTheHour(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	f := w.fake
	n := w.openPR(3, alice)
	f.RequestReview(n, alice, daysAgo(3), mia.Login)
	inputs := map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "0"}
	w.run(inputs)
	w.clock.Advance(10 * time.Minute)
	f.Review(n, mia, w.now(), "CHANGES_REQUESTED", "one thing")
	w.clock.Advance(10 * time.Minute)
	f.Push(n, "alice", w.now(), "fixed")
	for range 3 {
		w.clock.Advance(10 * time.Minute)
		w.run(inputs)
	}
	posts := 0
	for _, r := range f.WriteRequests() {
		if strings.HasSuffix(r.Route, "/comments") && r.Method == http.MethodPost {
			posts++
		}
	}
	if c := w.notices(n, "nudge"); c != 2 || posts != 2 {
		t.Errorf("#%d: %d nudges kept, %d posted; want one per reviewers' turn, each posted once", n, c, posts)
	}
}

// TestTurnNudgeCrashBetweenWrites: a run stopped after the nudge and
// before its label leaves one nudge; the next run adds the label only.
func TestTurnNudgeCrashBetweenWrites(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 2; k++ {
		t.Run(fmt.Sprintf("kill after write %d", k), func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			n := w.openPR(10, alice)
			w.crashAndResume(k, nudgeInputs)
			if c := w.notices(n, "nudge"); c != 1 || !w.hasLabel(n, "waiting-on-review") {
				t.Errorf("%d nudges, labels %v; want one nudge and its label", c, w.labels(n))
			}
			w.checkNothingLeft(t, nudgeInputs)
		})
	}
}

// TestTurnNudgeConcurrentRuns: two runs planned from the same state both
// nudge; the read-back leaves one.
func TestTurnNudgeConcurrentRuns(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	var prs []int
	for i := range 4 {
		prs = append(prs, w.openPR(10+float64(i), alice))
	}
	results := sfRunTwoAtOnce(w, nudgeInputs, true, nil)
	checkPostedTwiceDeletedOnce(t, w, len(prs))
	for i, r := range results {
		if !r.OK() {
			t.Errorf("run %d: failed %+v stopped %v", i, r.Failed(), r.Stopped)
		}
	}
	for _, n := range prs {
		if c := w.notices(n, "nudge"); c != 1 {
			t.Errorf("#%d: %d nudges after two runs at once, want 1", n, c)
		}
	}
}

// TestTurnCost: the turn costs nothing beyond the open listing, read to
// its end: each page carries its PRs' histories (ghapi.PullsPerPage PRs, 1
// point), whatever a PR's age or updated_at. The README's "Whose turn it
// is" and Cost state this.
func TestTurnCost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		inputs map[string]string
	}{
		{"author-turn", authorTurnInputs},
		{"nudge", map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			const old, young = 130, 120
			for i := range old {
				n := w.openPR(60, alice)
				if i%2 == 0 {
					w.fake.Comment(n, ci, daysAgo(1), "build passed") // recent updated_at: still needs its turn
				}
			}
			for range young {
				w.openPR(5, alice)
			}
			res := w.run(tc.inputs)
			pages := pagesOf(old + young)
			if got := w.openPages(); got != pages || w.historyReads() != 0 {
				t.Errorf("%d pages of the open listing (%d history reads), want %d and nothing more", got, w.historyReads(), pages)
			}
			// And the one page of the PRs closed in the last day.
			if res.Points != pages+1 || res.Queries != pages+1 {
				t.Errorf("%d queries costing %d points, want %d pages of 1 point", res.Queries, res.Points, pages+1)
			}
			if rest, readBack := res.Requests-res.Queries-res.Writes, (res.Writes+99)/100; rest > 1+readBack {
				t.Errorf("%d REST reads, want at most the hygiene listing and the read-back of the nudges: %v", rest, w.fake.CountBy())
			}
			t.Logf("%d open PRs, %d old enough: %d requests (%d writes, %d queries, %d points)", old+young, old, res.Requests, res.Writes, res.Queries, res.Points)
		})
	}
}

// TestTurnNudgeDryRun: a dry run reports the nudge and sends no write.
func TestTurnNudgeDryRun(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	inputs := map[string]string{"debug-only": "true"}
	for k, v := range nudgeInputs {
		inputs[k] = v
	}
	res := w.run(inputs)
	if got := w.fake.Writes(); got != 0 || !has(res.Nudged(), n) {
		t.Errorf("dry run: %d writes, nudged %v; want none, and #%d reported", got, numbers(res.Nudged()), n)
	}
}

// TestNudgesPaced: a backlog's nudges are spread over
// runs, review-nudges-per-run at a time, the longest on the reviewers'
// turn first; the counts say how many wait.
func TestNudgesPaced(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	var prs []int
	for i := 0; i < 7; i++ {
		prs = append(prs, w.openPR(float64(30+i), alice)) // the reviewers' turn since its opening
	}
	in := map[string]string{"days-before-stale": "-1", "days-before-review-nudge": "7", "review-nudges-per-run": "3", "write-interval": "0s"}
	for run, want := range [][]int{{prs[6], prs[5], prs[4]}, {prs[3], prs[2], prs[1]}, {prs[0]}} {
		res := w.run(in)
		got := numbers(res.Nudged())
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("run %d nudged %v, want %v (the longest waiting first)", run+1, got, want)
		}
		if paced := 7 - 3*(run+1); res.NudgesPaced != max(paced, 0) {
			t.Errorf("run %d: %d nudges paced, want %d", run+1, res.NudgesPaced, max(paced, 0))
		}
		if run == 0 && !strings.Contains(report.Counts(res), "4 review nudges due wait for the next runs") {
			t.Errorf("counts do not say what waits: %s", report.Counts(res))
		}
		w.clock.Set(w.now().Add(lifecycle.Day))
	}
}

// Rule 8: a PR closed after the listing (by a person, by a concurrent run)
// is left alone: no review nudge is posted into it either. A page of open
// PRs carries their histories, so the PR closed while the run lists (before
// the page that would list it) is neither listed nor nudged. One closed
// after its page was read is not read again before its nudge: a comment
// and a label added on a closed PR are noise, not harm, and a fresh read
// would cost a request per nudge.
func TestNudgeNotPostedOnAPRClosedSinceTheListing(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	other := w.openPR(10, alice) // nudged: the run did list and decide
	w.fake.RequestReview(other, alice, daysAgo(10), "rey")
	res := w.sfRun(nudgeInputs, sfOpts{base: &hookBase{match: isOpenPage, hook: func() {
		w.fake.Close(n, maint, w.now(), "not planned")
	}}})
	if c := w.notices(n, "nudge"); c != 0 || w.hasLabel(n, "waiting-on-review") || has(res.Nudged(), n) {
		t.Errorf("#%d closed since the listing: %d nudges, labels %v, nudged %v; want it left alone",
			n, c, w.labels(n), has(res.Nudged(), n))
	}
	if !has(res.Nudged(), other) || w.notices(other, "nudge") != 1 {
		t.Errorf("#%d, open, was not nudged: %d nudges (the run must nudge what it lists)", other, w.notices(other, "nudge"))
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
