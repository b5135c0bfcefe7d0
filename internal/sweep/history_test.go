package sweep_test

// Repository histories replayed day by day through the real HTTP path (issue
// 9): a switch from actions/stale, a scheduled workflow GitHub paused for 70
// days, stacked pull requests with delete-branch, CI bots that comment and
// push daily, and a 2,000-PR backlog under the default budget. After every
// run the fake's own records (timeline events, comments, branches) are
// checked against the invariants, independently of what the run reports:
//
//	(a) no PR closed by stalepr that a person touched after its latest mark;
//	(b) at most one stalepr notice per mark, and none on someone else's mark;
//	(c) no branch deleted that is the default branch, a fork's, used by an
//	    open PR as base or head at that moment, or of a PR stalepr did not
//	    close;
//	(d) the backlog drains, and a PR a person revives is un-staled by the
//	    next run.

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/testenv"
)

// foreignWindow is how soon after its own plain comment a bot's stale label
// is that bot's mark: actions/stale comments, then labels, seconds apart.
const foreignWindow = 10 * time.Minute

// history is one repository replayed run by run.
type history struct {
	t     *testing.T
	w     *world
	me    string
	start time.Time
	day   int

	violations []string         // found while a run was under way (branch deletions)
	trace      map[int][]string // what each run did to each PR, seen from the fake: "mark@3"
	reported   map[string]bool  // invariant violations already reported
}

func loadHistory(t *testing.T, name string) *history {
	t.Helper()
	fake, err := fakegithub.LoadFile(filepath.Join("..", "..", "testdata", "history", name), t0)
	if err != nil {
		t.Fatal(err)
	}
	return newHistory(t, fake)
}

func newHistory(t *testing.T, fake *fakegithub.Server) *history {
	fake.SetToken(token)
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	h := &history{t: t, w: &world{t: t, fake: fake, srv: srv, clock: fake.Clock()},
		me: fake.Identity().Login, start: fake.Now(), trace: map[int][]string{}, reported: map[string]bool{}}
	fake.SetFaultHook(h.checkDeletion)
	return h
}

// runAt is when the run of a day starts. Scheduled runs start late, by a
// little more each day here: a write made seconds into one run is then
// due, 30 or 90 days later, in the run of that day and not the next, so the
// traces below read in whole days.
func (h *history) runAt(day int) time.Time {
	return h.start.Add(time.Duration(day) * (24*time.Hour + time.Minute))
}

// prState is what a run may change on a PR.
type prState struct {
	open, stale bool
	notices     int
}

func (h *history) states() map[int]prState {
	out := map[int]prState{}
	for _, is := range h.w.fake.Issues() {
		if is.IsPR {
			out[is.Number] = prState{open: is.State == "open", stale: is.HasLabel("stale"), notices: h.ourNotices(is.Number, "stale")}
		}
	}
	return out
}

// runDays runs once a day for days days (day 0 is the history's "now").
// Before each run, between calls to the previous and this one, people and
// bots act (daily may be nil); activity is dated a few hours before the run.
func (h *history) runDays(days int, inputs map[string]string, daily func(day int, now time.Time)) {
	h.t.Helper()
	for ; h.day <= days; h.day++ {
		h.w.clock.Set(h.runAt(h.day))
		if daily != nil {
			daily(h.day, h.w.now())
		}
		before := h.states()
		res := h.w.run(inputs)
		if !res.OK() || res.Stopped != nil {
			h.t.Errorf("day %d: run stopped %v failed %+v", h.day, res.Stopped, res.Failed())
		}
		after := h.states()
		for n, b := range before {
			a := after[n]
			switch {
			case b.open && !a.open:
				h.trace[n] = append(h.trace[n], fmt.Sprintf("close@%d", h.day))
			case !b.stale && a.stale:
				h.trace[n] = append(h.trace[n], fmt.Sprintf("mark@%d", h.day))
			case b.stale && !a.stale && a.open:
				h.trace[n] = append(h.trace[n], fmt.Sprintf("unstale@%d", h.day))
			case a.notices > b.notices:
				h.trace[n] = append(h.trace[n], fmt.Sprintf("notify@%d", h.day))
			}
		}
		h.checkInvariants()
	}
}

// ---- the fake's own record: who did what, when ----

func (h *history) self(u fakegithub.User) bool { return strings.EqualFold(u.Login, h.me) }

func isBotCommit(e fakegithub.Event) bool {
	return strings.HasSuffix(strings.ToLower(e.AuthorName), "[bot]") ||
		strings.HasSuffix(strings.ToLower(e.AuthorEmail), "[bot]@users.noreply.github.com")
}

// personTimes lists when people acted on PR n: their comments, their
// timeline events (a hand-added stale label is a mark, not activity), and
// their commits at the time they were pushed, whatever the git date says.
func (h *history) personTimes(n int) []time.Time {
	var out []time.Time
	for _, c := range h.w.fake.Comments(n) {
		if c.User.Type == "User" && !h.self(c.User) {
			out = append(out, c.CreatedAt)
		}
	}
	for _, e := range h.w.fake.Events(n) {
		switch {
		case e.Type == fakegithub.EventCommitted:
			if !isBotCommit(e) {
				out = append(out, lifecycle.Later(e.At, e.PushedAt))
			}
		case e.Type == fakegithub.EventLabeled && strings.EqualFold(e.Label, "stale"):
		case e.Actor.Type == "User" && !h.self(e.Actor):
			out = append(out, e.At)
		}
	}
	return out
}

// mark is one stale label put on a PR.
type mark struct {
	at      time.Time
	by      fakegithub.User
	foreign bool // a person's hand label, another bot's, or actions/stale's (its comment, then its label)
}

func (h *history) marks(n int) []mark {
	var plain []time.Time // the token login's comments without a marker of ours
	for _, c := range h.w.fake.Comments(n) {
		if h.self(c.User) && !strings.Contains(c.Body, "<!-- stalepr:") {
			plain = append(plain, c.CreatedAt)
		}
	}
	var out []mark
	for _, e := range h.w.fake.Events(n) {
		if e.Type != fakegithub.EventLabeled || !strings.EqualFold(e.Label, "stale") {
			continue
		}
		m := mark{at: e.At, by: e.Actor, foreign: !h.self(e.Actor)}
		for _, p := range plain {
			if !p.After(e.At) && e.At.Sub(p) <= foreignWindow {
				m.foreign = true
			}
		}
		out = append(out, m)
	}
	return out
}

// markAt is the latest stale label put on at or before t.
func markAt(marks []mark, t time.Time) (mark, bool) {
	var m mark
	found := false
	for _, x := range marks {
		if !x.at.After(t) {
			m, found = x, true
		}
	}
	return m, found
}

func (h *history) ourNotices(n int, kind string) int {
	c := 0
	for _, cm := range h.w.fake.Comments(n) {
		if h.self(cm.User) && strings.Contains(cm.Body, "<!-- stalepr:"+kind) {
			c++
		}
	}
	return c
}

// ---- invariants ----

func (h *history) violate(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !h.reported[msg] {
		h.reported[msg] = true
		h.t.Errorf("day %d: %s", h.day, msg)
	}
}

func (h *history) checkInvariants() {
	h.t.Helper()
	for _, v := range h.violations {
		h.violate("%s", v)
	}
	h.violations = nil
	for _, is := range h.w.fake.Issues() {
		if !is.IsPR {
			continue
		}
		n := is.Number
		marks := h.marks(n)
		people := h.personTimes(n)
		// (a) every close by our login during the replay (nobody else
		// writes as it then) came after a mark that no person answered.
		for _, e := range h.w.fake.Events(n) {
			if e.Type != fakegithub.EventClosed || !h.self(e.Actor) || e.At.Before(h.start) {
				continue
			}
			m, ok := markAt(marks, e.At)
			if !ok {
				h.violate("#%d closed at %s without a stale label ever put on before", n, e.At.Format(time.RFC3339))
				continue
			}
			for _, p := range people {
				if p.After(m.at) && !p.After(e.At) {
					h.violate("#%d closed at %s though a person acted at %s, after its mark of %s",
						n, e.At.Format(time.RFC3339), p.Format(time.RFC3339), m.at.Format(time.RFC3339))
				}
			}
		}
		// (b) one notice of each kind per mark, and no stale notice on
		// someone else's mark.
		perMark := map[string]int{}
		for _, c := range h.w.fake.Comments(n) {
			if !h.self(c.User) || !strings.Contains(c.Body, "<!-- stalepr:") {
				continue
			}
			kind := "close"
			if strings.Contains(c.Body, "<!-- stalepr:stale") {
				kind = "stale"
			}
			m, ok := markAt(marks, c.CreatedAt)
			if !ok {
				h.violate("#%d: our %s notice of %s belongs to no stale label", n, kind, c.CreatedAt.Format(time.RFC3339))
				continue
			}
			key := kind + " " + m.at.Format(time.RFC3339)
			if perMark[key]++; perMark[key] == 2 {
				h.violate("#%d: a second %s notice for the mark of %s", n, kind, m.at.Format(time.RFC3339))
			}
			if kind == "stale" && m.foreign && !c.CreatedAt.Before(h.start) {
				h.violate("#%d: our stale notice on a mark that %s made at %s", n, m.by.Login, m.at.Format(time.RFC3339))
			}
		}
	}
}

// checkDeletion runs as the fake receives each request, before it acts: a
// branch deletion is judged on the repository as it is at that moment.
func (h *history) checkDeletion(r fakegithub.RequestInfo) *fakegithub.Fault {
	if r.Method != "DELETE" || !strings.Contains(r.Path, "/git/refs/") {
		return nil
	}
	ref := r.Path[strings.Index(r.Path, "/git/refs/")+len("/git/refs/"):]
	ref, _, _ = strings.Cut(ref, "?")
	if u, err := url.PathUnescape(ref); err == nil {
		ref = u
	}
	branch := strings.TrimPrefix(strings.TrimPrefix(ref, "refs/"), "heads/")
	fake := h.w.fake
	bad := func(why string, args ...any) {
		h.violations = append(h.violations, fmt.Sprintf("branch %q deleted: %s", branch, fmt.Sprintf(why, args...)))
	}
	if branch == fake.DefaultBranch() {
		bad("it is the default branch")
	}
	ours := false
	for _, is := range fake.Issues() {
		if !is.IsPR {
			continue
		}
		sameRepo := is.HeadRepo == "" && !is.HeadRepoDeleted
		if is.State == "open" && is.BaseRef == branch {
			bad("open #%d is based on it", is.Number)
		}
		if is.State == "open" && sameRepo && is.HeadRef == branch {
			bad("open #%d uses it as its head", is.Number)
		}
		if is.State == "closed" && sameRepo && is.HeadRef == branch && h.closedByUs(is.Number) {
			ours = true
		}
	}
	if !ours {
		bad("no PR that stalepr closed has it as its head in this repository")
	}
	return nil
}

// closedByUs: the PR's last close was our login's, after our closing
// comment for its last mark.
func (h *history) closedByUs(n int) bool {
	var closedAt time.Time
	for _, e := range h.w.fake.Events(n) {
		if e.Type == fakegithub.EventClosed {
			closedAt = time.Time{}
			if h.self(e.Actor) {
				closedAt = e.At
			}
		}
	}
	if closedAt.IsZero() {
		return false
	}
	m, _ := markAt(h.marks(n), closedAt)
	for _, c := range h.w.fake.Comments(n) {
		if h.self(c.User) && strings.Contains(c.Body, "<!-- stalepr:close") && !c.CreatedAt.Before(m.at) && !c.CreatedAt.After(closedAt) {
			return true
		}
	}
	return false
}

// expect compares each PR's trace with what its history calls for.
func (h *history) expect(want map[int]string) {
	h.t.Helper()
	nums := make([]int, 0, len(want))
	for n := range want {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		if got := strings.Join(h.trace[n], " "); got != want[n] {
			is := h.w.fake.MustIssue(n)
			h.t.Errorf("#%d %q: runs did %q, want %q", n, is.Title, got, want[n])
		}
	}
}

func (h *history) open(n int) bool { return h.w.fake.MustIssue(n).State == "open" }

// ---- the histories ----

// A switch from actions/stale: PRs at every point of its lifecycle, its
// notices and labels under the login stalepr writes as too.
func TestHistoryMigrationFromActionsStale(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	h := loadHistory(t, "migration.json")
	branches := h.w.fake.Branches()
	maint := fakegithub.Person("maintainer")
	h.runDays(120, map[string]string{"delete-branch": "true"}, func(day int, now time.Time) {
		switch day {
		case 3:
			h.w.fake.Comment(2, fakegithub.Person("bob"), now.Add(-2*time.Hour), "Sorry, I was away. Updating now.")
		case 40:
			h.w.fake.Label(14, maint, now.Add(-3*time.Hour), "stale")
		}
	})
	h.expect(map[int]string{
		1:  "close@29",
		2:  "unstale@3 mark@93",
		3:  "close@1",
		4:  "close@0",
		5:  "unstale@0 mark@90 close@120",
		6:  "unstale@0 mark@90 close@120",
		7:  "unstale@0 mark@90 close@120",
		8:  "close@20",
		9:  "close@25",
		10: "notify@0 close@30",
		11: "",
		12: "",
		13: "mark@0 close@30",
		14: "close@70",
		15: "mark@67 close@97",
	})
	for _, n := range []int{1, 2, 3, 4, 8, 9, 14} {
		if c := h.ourNotices(n, "stale"); c != 0 && n != 2 {
			t.Errorf("#%d: %d stale notices of ours on someone else's mark", n, c)
		}
	}
	if c := h.ourNotices(10, "stale"); c != 1 {
		t.Errorf("#10 (labelled without notice under our login): %d notices of ours, want exactly 1", c)
	}
	for _, b := range []string{"old-feature", "topic/niaj"} {
		if !slices.Contains(branches, b) || !h.w.fake.HasBranch(b) {
			t.Errorf("branch %s of a PR actions/stale closed: before %v, after %v", b, branches, h.w.fake.Branches())
		}
	}
}

// A scheduled workflow GitHub disabled for 70 days, then enabled again:
// people acted 35-45 days ago on PRs stalepr had marked 60-100 days ago.
func TestHistoryPausedWorkflow(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	for _, from := range []string{"anyone", "people"} {
		t.Run(from, func(t *testing.T) {
			h := loadHistory(t, "paused.json")
			h.runDays(120, map[string]string{"activity-from": from}, nil)
			want := map[int]string{
				// Un-staled in the first run; then the label's removal
				// is the last update (anyone), or the person's act is
				// the last activity (people).
				1:  "unstale@0 mark@90 close@120",
				2:  "unstale@0 mark@90 close@120",
				3:  "unstale@0 mark@90 close@120",
				4:  "unstale@0 mark@90 close@120",
				10: "unstale@0 mark@90 close@120",
				5:  "close@0",
				6:  "close@0",
				7:  "notify@0 close@30",
				8:  "mark@0 close@30",
				9:  "mark@10 close@40",
				11: "",
				12: "mark@50 close@80",
			}
			if from == "people" {
				want[1] = "unstale@0 mark@50 close@80"
				want[2] = "unstale@0 mark@45 close@75"
				want[3] = "unstale@0 mark@55 close@85"
				// The push's time (42 days ago) is known only to the run
				// that saw updated_at move; later runs count from our
				// un-stale, which bounds it: marked later, never sooner.
				want[4] = "unstale@0 mark@90 close@120"
				want[10] = "unstale@0 mark@46 close@76"
			}
			h.expect(want)
		})
	}
}

// Stacked PRs, forks, a head shared by two PRs, a PR from the default
// branch, and PRs closed by others, under delete-branch.
func TestHistoryStackedWithDeleteBranch(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	h := loadHistory(t, "stacked.json")
	alive := map[int]string{3: "alice", 5: "bob", 13: "ivan"}
	h.runDays(120, map[string]string{"delete-branch": "true"}, func(day int, now time.Time) {
		if day%7 == 0 {
			for n, who := range alive {
				h.w.fake.Comment(n, fakegithub.Person(who), now.Add(-2*time.Hour), "Still working on the stack.")
			}
		}
	})
	h.expect(map[int]string{
		1: "close@0", 2: "mark@80 close@110", 3: "", 4: "close@0", 5: "", 6: "close@0",
		7: "mark@70 close@100", 8: "close@0", 9: "close@0", 10: "", 11: "", 12: "", 13: "", 14: "close@0",
	})
	gone := map[string]bool{"crashed": true, "stack2/top": true, "stack/b": false, "shared/topic": true}
	for _, b := range []string{"main", "release/1.x", "feature/x", "hotfix", "stack/a", "stack/b", "stack/c",
		"stack2/base", "abandoned", "bot-closed", "crashed", "stack2/top", "shared/topic"} {
		if has := h.w.fake.HasBranch(b); has == gone[b] {
			t.Errorf("branch %s: present %v, want %v (branches now %v)", b, has, !gone[b], h.w.fake.Branches())
		}
	}
}

// CI bots comment and push every day, on stale PRs and on quiet ones.
func TestHistoryCIBots(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 120 daily runs twice: seconds, the slowest test left in the everyday suite")
	}
	t.Parallel()
	codecov := fakegithub.Bot("codecov[bot]")
	updater := fakegithub.Bot("github-actions[bot]")
	precommit := fakegithub.Bot("pre-commit-ci[bot]")
	for _, from := range []string{"anyone", "people"} {
		t.Run(from, func(t *testing.T) {
			h := loadHistory(t, "bots.json")
			h.runDays(120, map[string]string{"activity-from": from}, func(day int, now time.Time) {
				at := now.Add(-4 * time.Hour)
				act := func(n int, f func()) {
					if h.open(n) {
						f()
					}
				}
				act(2, func() { h.w.fake.Comment(2, codecov, at, "Coverage: 70.0% (+0.0%)") })
				act(3, func() { h.w.fake.PushAs(3, updater, at, "Merge branch 'main' into carol/topic") })
				act(4, func() {
					if day == 5 {
						h.w.fake.PushAs(4, fakegithub.Person("dave"), at.Add(-time.Hour), "Address review")
					}
					h.w.fake.PushAs(4, precommit, at, "[pre-commit.ci] auto fixes from pre-commit.com hooks")
				})
				act(6, func() { h.w.fake.Comment(6, codecov, at, "Coverage: 71.0% (+0.0%)") })
				act(7, func() {
					h.w.fake.Comment(7, codecov, at, "Coverage: 64.2% (+0.0%)")
					h.w.fake.PushAs(7, updater, at.Add(time.Minute), "Merge branch 'main' into grace/topic")
					if day%20 == 0 {
						h.w.fake.Comment(7, fakegithub.Person("grace"), at.Add(time.Hour), "Rebased.")
					}
				})
				act(9, func() { h.w.fake.Comment(9, updater, at, "Benchmark: no change.") })
			})
			want := map[int]string{
				1: "mark@0 close@30",
				2: "",
				3: "close@20",
				4: "unstale@5",
				5: "unstale@0 mark@90 close@120",
				6: "unstale@0",
				7: "",
				8: "mark@85 close@115",
				9: "close@5",
			}
			if from == "people" {
				want[2] = "mark@0 close@30"
				want[4] = "unstale@5 mark@95"
				want[5] = "unstale@0 mark@88 close@118"
				want[8] = "mark@0 close@30"
				// A person's push dated 40 days back: counted from our
				// un-stale (day 0), not the push 3 days before it.
				want[6] = "unstale@0 mark@90 close@120"
			}
			h.expect(want)
		})
	}
}

// ---- the backlog ----

// TestHistoryBacklogDrains installs stalepr on a repository with 2,000 PRs
// inactive for months and 300 active ones, under the default budget, run
// daily. People revive a few stale PRs every day: each must lose its label
// in the very next run, before any budget goes to marking.
func TestHistoryBacklogDrains(t *testing.T) {
	testenv.Slow(t) // replays up to 90 daily runs over 2,300 PRs
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Clock: clock})
	g := &backlogGen{fake: fake, rng: rand.New(rand.NewPCG(9, 9)), revived: map[int]int{}}
	g.addPRs()
	h := newHistory(t, fake)

	var requests []int
	drained, marked := -1, -1
	for h.day = 0; h.day <= 90 && drained < 0; h.day++ {
		h.w.clock.Set(h.runAt(h.day))
		today := g.revive(h.w.now(), h.day)
		res := h.w.run(nil)
		requests = append(requests, res.Requests)
		if res.Requests > 500 {
			t.Errorf("day %d: %d requests, over operations-per-run 500", h.day, res.Requests)
		}
		checkRevivedUnstaled(t, h, today)
		h.checkInvariants()
		left, unmarked := g.left()
		if unmarked == 0 && marked < 0 {
			marked = h.day
		}
		if left == 0 {
			drained = h.day
		}
	}
	total, peak := 0, 0
	for _, r := range requests {
		total += r
		peak = max(peak, r)
	}
	t.Logf("backlog of %d PRs (+%d active): all marked by day %d, drained on day %d; %d runs, requests per run: mean %d, peak %d; %d revived by people",
		backlogPRs, backlogActive, marked, drained, len(requests), total/len(requests), peak, len(g.revived))
	if drained < 0 {
		t.Fatalf("backlog not drained after %d daily runs", len(requests))
	}
	// 2,000 marks and 2,000 closes at two writes each are 8,000 writes;
	// at 500 requests a run that is 16 runs, plus the 30-day close window.
	if drained > 60 {
		t.Errorf("drained on day %d, want within 60 days", drained)
	}
}

const backlogPRs, backlogActive = 2000, 300

// backlogGen is TestHistoryBacklogDrains's repository and its people.
type backlogGen struct {
	fake    *fakegithub.Server
	rng     *rand.Rand
	revived map[int]int // PR -> day a person revived it
}

func (g *backlogGen) dev() fakegithub.User {
	return fakegithub.Person(fmt.Sprintf("dev%d", 1+g.rng.IntN(150)))
}

// addPRs opens the backlog, inactive for months, then the active PRs, each
// last touched by a push, a person's comment and a bot's, or its author.
func (g *backlogGen) addPRs() {
	fake, rng := g.fake, g.rng
	for i := 0; i < backlogPRs+backlogActive; i++ {
		idle := 91 + rng.IntN(400)
		if i >= backlogPRs {
			idle = rng.IntN(60)
		}
		author := g.dev()
		n := fake.AddPR(fakegithub.Issue{Title: fmt.Sprintf("Change %d", i), User: author,
			CreatedAt: daysAgo(float64(idle + 1 + rng.IntN(100)))})
		at := daysAgo(float64(idle) + rng.Float64()/2)
		switch rng.IntN(4) {
		case 0:
			fake.PushAs(n, author, at, "Update")
		case 1:
			fake.Comment(n, g.dev(), at, "Any news?")
			fake.Comment(n, fakegithub.Bot("codecov[bot]"), at.Add(time.Minute), "Coverage unchanged.")
		default:
			fake.Comment(n, author, at, "Ready for review.")
		}
	}
}

// revive has people come back to a few stale PRs, a few hours before the
// run at now; it returns the PRs revived today.
func (g *backlogGen) revive(now time.Time, day int) map[int]bool {
	var stale []int
	for _, is := range g.fake.Issues() {
		if is.State == "open" && is.HasLabel("stale") {
			stale = append(stale, is.Number)
		}
	}
	today := map[int]bool{}
	for k := 0; k < 6 && len(stale) > 0; k++ {
		n := stale[g.rng.IntN(len(stale))]
		g.fake.Comment(n, g.dev(), now.Add(-time.Duration(1+g.rng.IntN(20))*time.Hour), "Still relevant, rebasing.")
		if _, ok := g.revived[n]; !ok {
			g.revived[n] = day
		}
		today[n] = true
	}
	return today
}

// left counts the backlog's open PRs no person revived, and those of them
// not marked yet.
func (g *backlogGen) left() (left, unmarked int) {
	for _, is := range g.fake.Issues() {
		if is.Number > backlogPRs || is.State != "open" {
			continue
		}
		if _, ok := g.revived[is.Number]; !ok {
			left++
			if !is.HasLabel("stale") {
				unmarked++
			}
		}
	}
	return left, unmarked
}

// checkRevivedUnstaled checks that each PR a person revived before today's
// run is open and lost its label in that very run.
func checkRevivedUnstaled(t *testing.T, h *history, today map[int]bool) {
	t.Helper()
	fake := h.w.fake
	for n := range today {
		if fake.MustIssue(n).HasLabel("stale") || !h.open(n) {
			t.Errorf("day %d: #%d revived by a person before the run is %s, labels %v; want open and un-staled by this run",
				h.day, n, fake.MustIssue(n).State, fake.Labels(n))
		}
	}
}

// ---- found by the histories ----

// pushOldCommits records alice pushing, pushedAt, a commit git dates at.
func pushOldCommits(w *world, n int, at, pushedAt time.Time) {
	w.fake.AddEvent(n, fakegithub.Event{Type: fakegithub.EventCommitted, At: at, PushedAt: pushedAt,
		SHA: "0123456789abcdef0123456789abcdef01234567", Message: "Finish the parser",
		AuthorName: "alice", AuthorEmail: "alice@example.com"})
}

// bots.json #6: a push of commits made before the mark shows in no
// timeline date, and a CI bot commenting right after it explains
// updated_at. The head commit our notice recorded tells: the pushed commits
// are not its ancestors.
func TestHistoryOldCommitsPushedAfterTheMark(t *testing.T) {
	t.Parallel()
	for _, ci := range []bool{false, true} {
		t.Run(fmt.Sprintf("ci-comment=%v", ci), func(t *testing.T) {
			w := newWorld(t)
			n := w.markedPR(31) // due to close now
			pushOldCommits(w, n, daysAgo(40), daysAgo(3))
			if ci {
				w.fake.Comment(n, fakegithub.Bot("codecov[bot]"), daysAgo(3).Add(time.Minute), "Coverage: 71.0% (+1.0%)")
			}
			res := w.run(nil)
			if w.state(n) != "open" || w.hasLabel(n, "stale") {
				t.Errorf("#%d: %s with labels %v (closed %v, unstaled %v); the author pushed 3 days ago, after the mark of 31 days ago: want open and un-staled",
					n, w.state(n), w.labels(n), numbers(res.Closed()), numbers(res.Unstaled()))
			}
		})
	}
}

// paused.json #4, activity-from people: the un-stale that a push of old
// commits earned moves updated_at to our own label removal; the next runs
// must not date the author's last activity by the commit's git date (which
// would mark the PR 58 days after the push instead of 90).
func TestHistoryOldCommitsPushKeepsCountingUnderPeople(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(70)
	pushOldCommits(w, n, daysAgo(75), daysAgo(42))
	people := map[string]string{"activity-from": "people"}
	if res := w.run(people); !has(res.Unstaled(), n) {
		t.Fatalf("#%d not un-staled by the push after its mark: labels %v", n, w.labels(n))
	}
	// 20 days on, the author's push is 62 days old: not stale yet.
	w.clock.Set(t0.Add(20 * 24 * time.Hour))
	res := w.run(people)
	if w.hasLabel(n, "stale") {
		t.Errorf("#%d marked %v again 62 days after its author's push (days-before-stale 90); marked %v",
			n, w.labels(n), numbers(res.Marked()))
	}
}
