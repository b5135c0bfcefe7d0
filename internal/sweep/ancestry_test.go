package sweep_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// The head moved after the mark, and the only commit the timeline dates
// after it is a bot's: whether a person pushed underneath (commits made
// days ago, their git dates before the mark) only the head's ancestry
// tells. README "Safety", pushed after the mark.

// ancestryQueries counts the run's GraphQL queries that read a commit's
// ancestry (PullRequest.commits).
func ancestryQueries(w *world) int {
	n := 0
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" && strings.Contains(r.Body, "commits(last:") {
			n++
		}
	}
	return n
}

func graphQLQueries(w *world) (queries, points int) {
	for _, r := range w.fake.Requests() {
		if r.Route == "POST /graphql" {
			queries++
			points += r.Points
		}
	}
	return queries, points
}

// A person pushes work made long ago after the mark, pre-commit.ci
// commits its fixes on top: not closed, un-staled (or, keeping the label,
// its close postponed). Under author-turn the author's push hides as well
// under a maintainer's "Update branch" merge, which answers nothing itself.
func TestAncestryPersonsOldCommitsUnderABotsCommit(t *testing.T) {
	t.Parallel()
	onTop := func(w *world, n int) { w.fake.PushAs(n, preCommit, daysAgo(0.5), "[pre-commit.ci] auto fixes") }
	authorsTurn := func(w *world, n int) {
		w.fake.AddMember(maint.Login)
		w.fake.Review(n, maint, daysAgo(50), "CHANGES_REQUESTED", "please rename")
	}
	authorTurn := map[string]string{"stale-clock": "author-turn"}
	for _, c := range []struct {
		name   string
		before func(w *world, n int) // before the mark's window: the turn
		after  func(w *world, n int) // what is pushed on the author's old commit
		inputs map[string]string
	}{
		{"defaults", nil, onTop, nil},
		{"remove-stale-when-updated false", nil, onTop, map[string]string{"remove-stale-when-updated": "false"}},
		{"dry run", nil, onTop, map[string]string{"debug-only": "true"}},
		{"author-turn, on the author's turn", authorsTurn, onTop, authorTurn},
		{"author-turn, a maintainer's Update branch on top", authorsTurn, func(w *world, n int) {
			w.fake.PushAs(n, maint, daysAgo(0.5), "Merge branch 'main' into feature")
		}, authorTurn},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(40, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(140) })
			if c.before != nil {
				c.before(w, n)
			}
			w.fake.PushAs(n, alice, daysAgo(55), "work made before the review")
			c.after(w, n)
			res := w.run(c.inputs)
			if w.state(n) != "open" || has(res.Closed(), n) {
				t.Fatalf("state %s, closed %v, failed %+v: a person pushed after the mark", w.state(n), numbers(res.Closed()), res.Failed())
			}
			if c.inputs["remove-stale-when-updated"] == "" && !has(res.Unstaled(), n) {
				t.Errorf("un-staled %v, still stale %v: want #%d un-staled", numbers(res.Unstaled()), numbers(res.Stale()), n)
			}
			if got := ancestryQueries(w); got != 1 {
				t.Errorf("%d ancestry reads, want 1 (a dry run sends it too)", got)
			}
		})
	}
}

// Only a bot's commit on the mark's head: closed as before, for one more
// query (1 point).
func TestAncestryOnlyABotsCommitStillCloses(t *testing.T) {
	t.Parallel()
	quiet := newWorld(t)
	quiet.markedPR(40)
	quiet.run(nil)
	baseQueries, basePoints := graphQLQueries(quiet)

	w := newWorld(t)
	n := w.markedPR(40)
	w.fake.PushAs(n, preCommit, daysAgo(0.5), "[pre-commit.ci] auto fixes")
	w.fake.PushAs(n, ci, daysAgo(0.4), "format")
	res := w.run(nil)
	if w.state(n) != "closed" || !has(res.Closed(), n) {
		t.Fatalf("state %s, failed %+v: only bots pushed since the mark, want closed", w.state(n), res.Failed())
	}
	queries, points := graphQLQueries(w)
	if queries != baseQueries+1 || points != basePoints+1 || ancestryQueries(w) != 1 {
		t.Errorf("%d queries, %d points (%d ancestry reads); with nothing pushed %d, %d: want one query, one point more",
			queries, points, ancestryQueries(w), baseQueries, basePoints)
	}
}

// Only the PR whose decision depends on it reads its ancestry: not an
// untouched one, not one whose head a person's dated commit moved, not one
// a person commented on after the mark (un-staled whoever pushed).
func TestAncestryReadOnlyWhereItDecides(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.markedPR(40)
	botComment := w.markedPR(40)
	w.fake.Comment(botComment, fakegithub.Bot("codecov[bot]"), daysAgo(1), "Coverage: 70.0%")
	dated := w.markedPR(40)
	w.fake.PushAs(dated, alice, daysAgo(1), "address review")
	commented := w.markedPR(40)
	w.fake.PushAs(commented, preCommit, daysAgo(1), "[pre-commit.ci] auto fixes")
	w.fake.Comment(commented, bob, daysAgo(0.5), "ping")
	doubt := w.markedPR(40)
	w.fake.PushAs(doubt, preCommit, daysAgo(1), "[pre-commit.ci] auto fixes")
	res := w.run(nil)
	if got := ancestryQueries(w); got != 1 || !has(res.Closed(), doubt) {
		t.Errorf("%d ancestry reads, closed %v: want 1, for #%d alone (closed)", got, numbers(res.Closed()), doubt)
	}
	for _, n := range []int{dated, commented} {
		if !has(res.Unstaled(), n) {
			t.Errorf("#%d not un-staled: %v", n, numbers(res.Unstaled()))
		}
	}
}

// More bots' commits since the mark than one read gives
// (ghapi.AncestryDepth, the newest commits of the PR): the walk from the
// head does not reach the mark's head, and in doubt it is a person's push.
func TestAncestryDeeperThanOneRead(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // a hundred pushes a case: the one-read rule is TestAncestryPersonsOldCommitsUnderABotsCommit's in -short
	for _, c := range []struct {
		commits int
		closed  bool
	}{
		{ghapi.AncestryDepth - 1, true},
		{ghapi.AncestryDepth, true}, // the oldest read names the mark's head as its parent
		{ghapi.AncestryDepth + 1, false},
	} {
		w := newWorld(t)
		n := w.markedPR(40)
		for i := range c.commits {
			w.fake.PushAs(n, preCommit, daysAgo(3).Add(time.Duration(i)*time.Minute), "[pre-commit.ci] auto fixes")
		}
		w.run(nil)
		if closed := w.state(n) == "closed"; closed != c.closed || ancestryQueries(w) != 1 {
			t.Errorf("%d bots' commits on the mark's head: closed %v after %d ancestry reads, want %v after 1",
				c.commits, closed, ancestryQueries(w), c.closed)
		}
	}
}

// The ancestry read fails: the PR is left untouched (reported failed),
// never closed; a rate limit stops the run.
func TestAncestryReadFails(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault *fakegithub.Fault
		stop  bool
	}{
		{"a partial answer", &fakegithub.Fault{GraphQL: &fakegithub.GraphQLFault{Kind: fakegithub.GraphQLPartial, Commits: true}}, false},
		{"no commits", &fakegithub.Fault{GraphQL: &fakegithub.GraphQLFault{Kind: fakegithub.GraphQLMissing, Commits: true}}, false},
		{"a timeout", &fakegithub.Fault{GraphQL: &fakegithub.GraphQLFault{Kind: fakegithub.GraphQLTimeout, Commits: true}}, false},
		{"a rate limit", &fakegithub.Fault{GraphQL: &fakegithub.GraphQLFault{Kind: fakegithub.GraphQLRateLimited, Commits: true}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(40)
			w.fake.PushAs(n, preCommit, daysAgo(0.5), "[pre-commit.ci] auto fixes")
			w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: 10, Fault: c.fault})
			res := w.run(nil)
			if w.state(n) != "open" || !w.hasLabel(n, "stale") || w.fake.Writes() != 0 {
				t.Fatalf("state %s, labels %v, %d writes: want untouched", w.state(n), w.labels(n), w.fake.Writes())
			}
			if c.stop {
				if res.Stopped == nil {
					t.Errorf("not stopped: %+v", res.Items)
				}
				return
			}
			if f := res.Failed(); len(f) != 1 || f[0].Number != n || f[0].Outcome != sweep.Failed || !strings.Contains(f[0].Err, "head commits") {
				t.Errorf("failed %+v: want #%d failed by its ancestry read", f, n)
			}
			if res.Stopped != nil {
				t.Errorf("stopped %v: one PR's failed read stops nothing", res.Stopped)
			}
		})
	}
}

// Under author-turn the listing decides a PR on its page's history, and the
// plan asks its activity again: a failed ancestry read is sent once a run,
// and the PR is left untouched.
func TestAncestryFailedReadSentOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(140) })
	w.fake.AddMember(maint.Login)
	w.fake.Review(n, maint, daysAgo(50), "CHANGES_REQUESTED", "please rename")
	w.fake.PushAs(n, preCommit, daysAgo(0.5), "[pre-commit.ci] auto fixes")
	w.fake.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Times: 10,
		Fault: &fakegithub.Fault{GraphQL: &fakegithub.GraphQLFault{Kind: fakegithub.GraphQLPartial, Commits: true}}})
	res := w.run(map[string]string{"stale-clock": "author-turn"})
	if w.state(n) != "open" || !w.hasLabel(n, "stale") || w.fake.Writes() != 0 || !has(res.Failed(), n) {
		t.Fatalf("state %s, labels %v, %d writes, failed %v: want #%d untouched and failed", w.state(n), w.labels(n), w.fake.Writes(), numbers(res.Failed()), n)
	}
	if got := ancestryQueries(w); got != 1 {
		t.Errorf("%d ancestry reads, want 1: a failed read is sent once a run", got)
	}
}
