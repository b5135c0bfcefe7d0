package sweep_test

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// Figures: what a run reads, in REST requests and GraphQL
// points, on the synthetic repositories, budgets lifted. They are
// deterministic, so the test asserts them; BenchmarkReads prints them.

// fairInputs are the fair clock's inputs at the defaults' thresholds.
var fairInputs = map[string]string{
	"stale-clock":        "author-turn",
	"exempt-pr-labels":   "pinned",
	"operations-per-run": "1000000",
	"write-interval":     "0s",
}

// reads is one run's read cost.
type reads struct {
	rest, queries, points, writes, prs int
}

func (r reads) String() string {
	return fmt.Sprintf("%d PRs: %d REST reads, %d GraphQL queries, %d points, %d writes", r.prs, r.rest, r.queries, r.points, r.writes)
}

func readsOf(res sweep.Result) reads {
	return reads{rest: res.Requests - res.Queries - res.Writes, queries: res.Queries, points: res.Points, writes: res.Writes, prs: res.Considered}
}

// openPRs makes a synthetic repository holding about prs open pull
// requests (8% of its items are issues).
func openPRs(tb testing.TB, prs int) *world {
	return syntheticWorld(tb, int(math.Round(float64(prs)/0.92)))
}

// TestFairClockAtScale: the cost targets of the author-turn clock.
// 2,000 open PRs: a quiet day (the run after one that acted) reads at most
// 60 REST requests and points in all. 20,000 open PRs: one run knows every
// PR's turn, with at most 300 points and 50 REST reads.
func TestFairClockAtScale(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	t.Run("2000 PRs, a quiet day", func(t *testing.T) {
		t.Parallel()
		checkQuietDay(t, openPRs(t, 2000), fairInputs)
	})
	t.Run("20000 PRs, every turn in one run", func(t *testing.T) {
		t.Parallel()
		testenv.Slow(t)
		w := openPRs(t, 20000)
		res := w.run(fairInputs)
		r := readsOf(res)
		t.Logf("day 0: %v", r)
		unknown := 0
		for _, it := range res.Queue {
			if it.Turn == lifecycle.TurnUnknown {
				if unknown < 5 {
					t.Logf("turn unknown: %+v", it)
				}
				unknown++
			}
		}
		if unknown > 0 || !res.ListedAll || len(res.Queue) < 18000 {
			t.Errorf("%d of %d PRs' turns unknown (listed all %v)", unknown, len(res.Queue), res.ListedAll)
		}
		if r.points > 350 || r.rest > 50 {
			t.Errorf("%v (%d closes); want at most 350 points and 50 REST reads, the closes' fresh reads included", r, len(res.Closed()))
		}
	})
}

// contributorWorld is openPRs on a mature open-source project's queue:
// about 300 distinct commenters, most of them CONTRIBUTOR (the 200 synthetic
// authors and 100 helpers with a merged PR each), some of whom may push
// (every tenth), commenting on others' PRs within the last 60 days. Whose
// turn their comments leave a PR on only their write access tells.
func contributorWorld(tb testing.TB, prs int) *world {
	w := openPRs(tb, prs)
	f := w.fake
	var people []fakegithub.User
	for i := 1; i <= 200; i++ {
		people = append(people, fakegithub.Person(fmt.Sprintf("dev%d", i)))
	}
	for i := 1; i <= 100; i++ {
		helper := fakegithub.Person(fmt.Sprintf("helper%d", i))
		n := f.AddPR(fakegithub.Issue{Title: "A fix", User: helper, CreatedAt: daysAgo(400), UpdatedAt: daysAgo(399)})
		f.Merge(n, maint, daysAgo(399))
		people = append(people, helper)
	}
	for i, p := range people {
		if i%10 == 0 {
			f.SetPermission(p.Login, "write")
		}
	}
	k := 0
	for _, is := range f.Issues() {
		if !is.IsPR || is.State != "open" || is.HasLabel("stale") {
			continue
		}
		k++
		if k%5 > 1 {
			continue // two PRs in five
		}
		p := people[(k*7)%len(people)]
		if p.Login == is.User.Login {
			continue
		}
		at := t0.Add(-time.Duration(1+(k*13)%59) * lifecycle.Day)
		if at.Before(is.CreatedAt) || at.Before(is.UpdatedAt) {
			continue // after the PR's last activity: a commenter's word is its latest
		}
		f.Comment(is.Number, p, at, "Could you add a test for this?")
	}
	return w
}

// contributorInputs are fairInputs with the review nudge on.
var contributorInputs = sfWith(fairInputs, "days-before-review-nudge", "7")

// TestWhoMayPushAtScale: on a queue with hundreds of contributors, who may
// push is one listing a run: a quiet day of 2,000 PRs under the fair clock
// with the nudge reads at most 60 REST requests and points in all, one run
// of 20,000 PRs at most 50 REST reads and 300 points; and the decisions are
// those of reading every account's permission, PR by PR.
func TestWhoMayPushAtScale(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	t.Run("2000 PRs, a quiet day", func(t *testing.T) {
		t.Parallel()
		checkQuietDay(t, contributorWorld(t, 2000), contributorInputs)
	})
	t.Run("2000 PRs, the same decisions as per-account reads", func(t *testing.T) {
		t.Parallel()
		listed, perAccount := contributorWorld(t, 2000), contributorWorld(t, 2000)
		perAccount.fake.SetCollaboratorsForbidden(true)
		a, b := listed.run(contributorInputs), perAccount.run(contributorInputs)
		t.Logf("day 0, the listing: %v (%d pages); per account: %v (%d permission reads)", readsOf(a), a.CollaboratorPages, readsOf(b), b.PermissionReads)
		if b.PermissionReads < 100 || a.PermissionReads != 0 || a.CollaboratorPages == 0 {
			t.Fatalf("listing: %d pages, %d permission reads; per account: %d reads: the comparison compares nothing", a.CollaboratorPages, a.PermissionReads, b.PermissionReads)
		}
		decided := func(res sweep.Result) map[int]string {
			out := map[int]string{}
			for _, it := range res.Items {
				out[it.Number] += fmt.Sprintf("%v %s; ", it.Outcome, it.Reason)
			}
			for _, it := range res.Queue {
				out[it.Number] += fmt.Sprintf("due %s, nudge due %s", it.Due, it.NudgeDue)
				if it.State != sweep.QueueExempt {
					// An exempt PR's turn decides nothing: per account, the
					// run does not ask (it reads as nobody's write access);
					// the listing knows it for free.
					out[it.Number] += fmt.Sprintf(", turn %v since %s", it.Turn, it.TurnSince)
				}
			}
			return out
		}
		da, db := decided(a), decided(b)
		diff := 0
		for n, d := range db {
			if da[n] != d && diff < 5 {
				t.Errorf("#%d: with the listing %q, with per-account reads %q", n, da[n], d)
				diff++
			}
		}
		if len(da) != len(db) {
			t.Errorf("%d PRs decided with the listing, %d with per-account reads", len(da), len(db))
		}
	})
	t.Run("20000 PRs, one run", func(t *testing.T) {
		t.Parallel()
		testenv.Slow(t)
		w := contributorWorld(t, 20000)
		res := w.run(contributorInputs)
		r := readsOf(res)
		t.Logf("one run: %v; collaborator pages %d, permission reads %d", r, res.CollaboratorPages, res.PermissionReads)
		if r.points > 350 || r.rest > 50 || !res.OK() {
			t.Errorf("%v (%d closes); want at most 350 points and 50 REST reads, the closes' fresh reads included (ok %v)", r, len(res.Closed()), res.OK())
		}
	})
}

// checkQuietDay runs w twice, a day apart, and checks the second run, a
// quiet day, reads at most 60 REST requests and points in all.
func checkQuietDay(t *testing.T, w *world, inputs map[string]string) {
	t.Helper()
	w.run(inputs)
	w.clock.Advance(lifecycle.Day)
	res := w.run(inputs)
	r := readsOf(res)
	t.Logf("quiet day: %v; collaborator pages %d, permission reads %d", r, res.CollaboratorPages, res.PermissionReads)
	if r.rest+r.points > 60 || !res.OK() {
		t.Errorf("quiet day: %v; want at most 60 REST reads and points in all (ok %v, stopped %v)", r, res.OK(), res.Stopped)
	}
}

// switchFrom labels the PRs inactive past the stale cutoff stale as
// actions/stale does (its comment, then its label, as github-actions[bot]),
// days ago: the repository as it is when a team switches to stalepr. One in
// five is not labelled yet: actions/stale's operations-per-run (30 by
// default) ran out before its queue did, so the switch day marks them.
func switchFrom(w *world, days float64) {
	cutoff := daysAgo(90)
	k := 0
	for _, is := range w.fake.Issues() {
		if !is.IsPR || is.State != "open" || is.HasLabel("stale") || !is.UpdatedAt.Before(cutoff) {
			continue
		}
		if k++; k%5 == 0 {
			continue
		}
		at := daysAgo(days)
		w.fake.Comment(is.Number, action, at, "This PR is stale because it has been open 60 days with no activity.")
		w.fake.Label(is.Number, action, at.Add(2*time.Second), "stale")
	}
}

// actionsStaleReads is what actions/stale reads on one run, by its own
// code: the open issues and PRs (T, 100 a page), and for each one it
// labelled before (L) its events and comments.
func actionsStaleReads(open, labelled int) int {
	return int(math.Ceil(float64(open)/100)) + 2*labelled
}

// switchDayInputs are the switch day's: costInputs at the default write
// pace, which sizes the closes' fresh reads.
var switchDayInputs = sfWith(costInputs, "write-interval", "1s")

// switchRun is a switch day's run: its reads, actions/stale's on the
// same repository (labelled: the PRs labelled stale at the switch), the age
// of the facts each of its writes on fresh facts acted on, and the fresh
// reads that gave them.
type switchRun struct {
	r                            reads
	res                          sweep.Result
	theirs, labelled, freshReads int
	ages                         []time.Duration
}

// switchDay is the first run after a switch from actions/stale on w (see
// switchFrom).
func switchDay(tb testing.TB, w *world) switchRun {
	switchFrom(w, 10)
	open, labelled := 0, 0
	for _, is := range w.fake.Issues() {
		if is.State == "open" {
			open++
			if is.IsPR && is.HasLabel("stale") {
				labelled++
			}
		}
	}
	w.fake.Reset()
	res := w.run(switchDayInputs)
	ages, fresh := factsAges(w.fake.Requests())
	return switchRun{r: readsOf(res), res: res, theirs: actionsStaleReads(open, labelled), labelled: labelled, freshReads: fresh, ages: ages}
}

// TestSwitchDayReads: under the inactivity clock, the first run after a
// switch from actions/stale, which marks and closes, reads at most 0.05×
// what actions/stale reads on the same repository: the reads that decide
// and the closes' fresh reads (a close never undoes what a person did
// since the listing), whose facts are at most sweep.MaxFactsAge old when
// the last write they guard is sent, by the fake's clock.
func TestSwitchDayReads(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	s := switchDay(t, openPRs(t, 2000))
	r, res, theirs, ages := s.r, s.res, s.theirs, s.ages
	t.Logf("switch day: %v, %d closes; actions/stale reads %d: %.3f×; facts at most %s old (%d writes on them)",
		r, len(res.Closed()), theirs, float64(r.rest+r.points)/float64(theirs), oldest(ages), len(ages))
	if len(res.Closed()) == 0 || len(res.Marked()) == 0 {
		t.Fatalf("closed %d, marked %d: the switch day should do both", len(res.Closed()), len(res.Marked()))
	}
	if float64(r.rest+r.points) > 0.05*float64(theirs) {
		t.Errorf("switch day: %v (%d closes), more than 0.05 × actions/stale's %d reads", r, len(res.Closed()), theirs)
	}
	if len(ages) < 2*len(res.Closed()) || oldest(ages) > sweep.MaxFactsAge {
		t.Errorf("%d writes on fresh facts for %d closes, the oldest %s old: want every close's, none older than %s",
			len(ages), len(res.Closed()), oldest(ages), sweep.MaxFactsAge)
	}
}

// BenchmarkReads prints the cost figures: REST reads, GraphQL queries and
// points per run, day 0 and a quiet day after, on synthetic repositories.
//
//	STALEPR_SLOW=1 go test -run '^$' -bench BenchmarkReads -benchtime 1x ./internal/sweep/
func BenchmarkReads(b *testing.B) {
	sizes := []int{2000}
	if testenv.SlowEnabled() {
		sizes = append(sizes, 20000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("switch-day/prs=%d", n), func(b *testing.B) {
			var s switchRun
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				w := openPRs(b, n)
				b.StartTimer()
				s = switchDay(b, w)
			}
			r, res, theirs, ages := s.r, s.res, s.theirs, s.ages
			b.ReportMetric(float64(r.rest), "rest")
			b.ReportMetric(float64(r.points), "points")
			b.ReportMetric(float64(r.rest+r.points)/float64(theirs), "ratio-to-actions-stale")
			b.ReportMetric(oldest(ages).Seconds(), "facts-age-max-s")
			b.Logf("switch day: %v, %d marks, %d closes; actions/stale reads %d; facts at most %s old", r, len(res.Marked()), len(res.Closed()), theirs, oldest(ages))
		})
	}
	for _, clock := range readClocks {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("clock=%s/prs=%d", clock.name, n), func(b *testing.B) {
				inputs, world := clock.setup()
				var day0, day1 reads
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					w := world(b, n)
					b.StartTimer()
					day0 = readsOf(w.run(inputs))
					w.clock.Advance(lifecycle.Day)
					day1 = readsOf(w.run(inputs))
				}
				b.ReportMetric(float64(day0.rest), "day0-rest")
				b.ReportMetric(float64(day0.points), "day0-points")
				b.ReportMetric(float64(day0.writes), "day0-writes")
				b.ReportMetric(float64(day1.rest), "day1-rest")
				b.ReportMetric(float64(day1.points), "day1-points")
				b.ReportMetric(float64(day1.queries), "day1-queries")
				b.Logf("day 0: %v; a quiet day: %v", day0, day1)
			})
		}
	}
}

// readClock is one of BenchmarkReads' clocks, with the name of its
// figures in docs/cost.md (costClaims).
type readClock struct {
	name, figure string
	setup        func() (map[string]string, func(testing.TB, int) *world)
}

// readClocks are the clocks BenchmarkReads and TestCostDoc measure.
var readClocks = []readClock{
	{"author-turn", "at", func() (map[string]string, func(testing.TB, int) *world) { return fairInputs, openPRs }},
	{"inactivity", "in", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "stale-clock", "inactivity"), openPRs
	}},
	{"author-turn+nudge+contributors", "nudge", func() (map[string]string, func(testing.TB, int) *world) {
		return contributorInputs, contributorWorld
	}},
	// The same world, CI on every PR, with the input on and off.
	{"author-turn+checks", "checks", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "author-turn-when-checks-fail", "true"), checksWorld
	}},
	{"author-turn+checks-off", "checksoff", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "author-turn-when-checks-fail", "false"), checksWorld
	}},
	// The intake clock on the inactivity clock's world, and on one where
	// every author is a member: no PR in its class, no link read.
	{"inactivity+intake", "intake", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "stale-clock", "inactivity", "days-before-intake-close", "7"), openPRs
	}},
	{"inactivity+intake+members", "intakenone", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "stale-clock", "inactivity", "days-before-intake-close", "7"), membersWorld
	}},
	{"inactivity+intake+drive-by", "intakeall", func() (map[string]string, func(testing.TB, int) *world) {
		return sfWith(fairInputs, "stale-clock", "inactivity", "days-before-intake-close", "7"), driveByWorld
	}},
}

// driveByWorld is prs PRs opened in the last 14 days, each by a
// contributor of its own who may not push, none linking an issue: every
// one in the intake clock's class, half of them to be told.
func driveByWorld(tb testing.TB, prs int) *world {
	clock := fakegithub.NewClock(t0)
	w := serveWorld(tb, fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: clock}))
	for i := range prs {
		at := daysAgo(14 * float64(i) / float64(prs))
		w.fake.AddPR(fakegithub.Issue{Title: fmt.Sprintf("Drive-by %d", i), User: fakegithub.Person(fmt.Sprintf("contributor%d", i)),
			CreatedAt: at, UpdatedAt: at})
	}
	return w
}

// membersWorld is openPRs where every author is a member of the
// organisation: no PR is in the intake clock's class.
func membersWorld(tb testing.TB, prs int) *world {
	w := openPRs(tb, prs)
	for _, is := range w.fake.Issues() {
		w.fake.AddMember(is.User.Login)
	}
	return w
}

// fairRecipe is the step inputs of the README's fair-mode recipe (the yaml
// block under "### Fair mode").
func fairRecipe(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(readmeCost)
	if err != nil {
		t.Fatal(err)
	}
	md := strings.ReplaceAll(string(b), "\r\n", "\n")
	at := strings.Index(md, "\n### Fair mode")
	if at < 0 {
		t.Fatal("the README has no ### Fair mode recipe")
	}
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(md[at:])
	var steps []struct{ With map[string]string }
	if block == nil || yaml.Unmarshal([]byte(block[1]), &steps) != nil || len(steps) != 1 || steps[0].With["stale-clock"] != "author-turn" {
		t.Fatal("the README's fair-mode recipe is not one step's yaml block under author-turn")
	}
	return steps[0].With
}

// quietDays is what the fair-mode recipe's quiet days read: the most REST
// reads and points of one, and the REST reads of all by route.
type quietDays struct {
	days, rest, points, swaps, nudges, permissions int
	routes                                         map[string]int
}

// The fair-mode recipe's quiet days: on contributorWorld's 2,000 open PRs
// one in touchEvery sees a comment by a contributor, a push by its
// author or a maintainer's change request a day.
const touchEvery = 50

// recipeQuiet keeps recipeQuietDays' answers, listing granted and
// refused, for the tests that need them (TestFairRecipeQuietDay,
// TestCostDoc): each measures a week of daily runs once.
var recipeQuiet [2]struct {
	once sync.Once
	q    quietDays
}

// recipeQuietDays runs the README's fair-mode recipe, with the turn labels
// (author-turn-label, reviewers-turn-label), daily on contributorWorld's
// 2,000 PRs while people act on some every day, and measures the days from
// the third on: the first two mark, close and label the backlog (a budget
// that reaches every PR, so that the quiet days are not days the budget
// cut short), the next ones have no close due (days-before-close is 14)
// and only the day's activity to follow: un-stales, turn labels swapped,
// nudges. refused: GitHub refuses the token the collaborator listing.
func recipeQuietDays(t *testing.T, refused bool) quietDays {
	t.Helper()
	memo := &recipeQuiet[0]
	if refused {
		memo = &recipeQuiet[1]
	}
	memo.once.Do(func() { memo.q = measureRecipeQuietDays(t, refused) })
	if memo.q.days < 2 {
		t.Fatalf("the fair-mode recipe's quiet days were not measured (%d days)", memo.q.days)
	}
	return memo.q
}

func measureRecipeQuietDays(t *testing.T, refused bool) quietDays {
	t.Helper()
	inputs := sfWith(fairRecipe(t), "author-turn-label", "waiting-on-author", "reviewers-turn-label", "waiting-on-reviewers",
		"operations-per-run", "5000")
	w := contributorWorld(t, 2000)
	w.fake.SetCollaboratorsForbidden(refused)
	q := quietDays{routes: map[string]int{}}
	for day := 0; day < 4; day++ {
		w.fake.Reset()
		res := w.run(inputs)
		if day >= 2 {
			r := readsOf(res)
			if len(res.Closed()) > 0 || res.Stopped != nil || !res.OK() {
				t.Fatalf("day %d is no quiet day: %v, %d closes, stopped %v, ok %v", day, r, len(res.Closed()), res.Stopped, res.OK())
			}
			q.days++
			q.rest, q.points = max(q.rest, r.rest), max(q.points, r.points)
			q.permissions = max(q.permissions, res.PermissionReads)
			accounts, routes := map[string]bool{}, map[string]int{}
			for _, req := range w.fake.Requests() {
				switch {
				case req.Route == "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels":
					q.swaps++
				case strings.Contains(req.Body, "<!-- stalepr:nudge"):
					q.nudges++
				case req.Write || strings.HasSuffix(req.Route, "/graphql"):
				default:
					q.routes[req.Route]++
					routes[req.Route]++
					if strings.HasSuffix(req.Route, "/permission") && accounts[req.Path] {
						t.Errorf("day %d: %s read twice", day, req.Path)
					}
					accounts[req.Path] = true
				}
			}
			t.Logf("day %d: %v; %d un-stales, %d marks, %d nudges; REST reads %v", day, r, len(res.Unstaled()), len(res.Marked()), len(res.Nudged()), routes)
		}
		w.clock.Advance(lifecycle.Day)
		k := 0
		for _, is := range w.fake.Issues() {
			if !is.IsPR || is.State != "open" {
				continue
			}
			if k++; k%touchEvery != day%touchEvery {
				continue
			}
			at := w.now().Add(-time.Duration(1+k%20) * time.Hour)
			switch k % 3 {
			case 0:
				w.fake.Comment(is.Number, fakegithub.Person(fmt.Sprintf("dev%d", 1+k%200)), at, "Is this still needed?")
			case 1:
				w.fake.Push(is.Number, is.User.Login, at, "Address the review")
			default:
				w.fake.Review(is.Number, maint, at, "CHANGES_REQUESTED", "Please rebase.")
			}
		}
	}
	return q
}

// TestFairRecipeQuietDay: a quiet day of the README's fair-mode recipe
// with the turn labels (no close due; the day's un-stales, turn labels
// and nudges) on 2,000 open PRs reads at most 40 REST requests and points
// in all, and its REST reads are the run's own two listings, none per PR:
// the label hygiene listing and the read-back of the run's notices. The
// turn labels' swaps rest on the batched fresh read (a point a group), not
// on a REST read of each PR as they once did (24 a day on issue 42's
// simulation). With the collaborator listing refused, the other REST reads
// are each account's permission, at most once a run.
func TestFairRecipeQuietDay(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	t.Run("the listing", func(t *testing.T) {
		t.Parallel()
		q := recipeQuietDays(t, false)
		if q.swaps == 0 || q.nudges == 0 {
			t.Fatalf("%d quiet days, %d turn-label swaps, %d nudges: the quiet days do not do what the recipe does", q.days, q.swaps, q.nudges)
		}
		if q.rest+q.points > 40 {
			t.Errorf("a quiet day reads up to %d REST requests and %d points, more than 40 in all", q.rest, q.points)
		}
		for route, n := range q.routes {
			if route != "GET /repos/{owner}/{repo}/issues" && route != "GET /repos/{owner}/{repo}/issues/comments" {
				t.Errorf("%d REST reads %s in %d quiet days: want only the hygiene listing and the read-back", n, route, q.days)
			}
		}
		if q.rest > 2 {
			t.Errorf("a quiet day reads up to %d REST requests (%v), want the two listings", q.rest, q.routes)
		}
	})
	t.Run("the listing refused", func(t *testing.T) {
		t.Parallel()
		q := recipeQuietDays(t, true)
		for route, n := range q.routes {
			switch route {
			case "GET /repos/{owner}/{repo}/issues", "GET /repos/{owner}/{repo}/issues/comments",
				"GET /repos/{owner}/{repo}/collaborators/{username}/permission":
			default:
				t.Errorf("%d REST reads %s in %d quiet days", n, route, q.days)
			}
		}
		if q.permissions == 0 || q.rest > q.permissions+2 {
			t.Errorf("%d REST reads a quiet day, %d of them permissions: want the permissions and the two listings", q.rest, q.permissions)
		}
	})
}
