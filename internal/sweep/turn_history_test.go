package sweep_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/testenv"
)

// A month of daily runs under stale-clock author-turn with the review nudge
// on, over a repository where reviews, pushes, replies, bots, drive-by
// comments, drafts and approvals interleave. The generator keeps its own
// account of whose turn each PR is on (the README's rules, for the few
// actions it takes); after every run the fake's own record is checked
// against it:
//
//	(a) no PR marked or closed while on the reviewers' or maintainers' turn,
//	    nor marked before days-before-stale days on the author's;
//	(b) at most one nudge per turn, and only on the reviewers' turn;
//	(c) no PR closed whose author acted within days-before-close days.

type turnGen struct {
	whose   lifecycle.Whose
	since   time.Time
	draft   bool
	acted   []time.Time     // the author's actions
	pending map[string]bool // reviews requested of people and not given
	closed  bool
	nudges  map[int]int // nudges by epoch
	epochAt []epochSpan
}

type epochSpan struct {
	from  time.Time
	whose lifecycle.Whose
}

func (g *turnGen) set(w lifecycle.Whose, at time.Time) {
	if g.draft {
		w = lifecycle.TurnAuthor
	}
	if w != g.whose {
		g.whose, g.since = w, at
		g.epochAt = append(g.epochAt, epochSpan{from: at, whose: w})
	}
}

// at is the epoch and turn in force at t.
func (g *turnGen) at(t time.Time) (int, lifecycle.Whose) {
	e, w := 0, lifecycle.TurnUnknown
	for i, s := range g.epochAt {
		if !s.from.After(t) {
			e, w = i, s.whose
		}
	}
	return e, w
}

const (
	turnStaleDays, turnCloseDays, turnNudgeDays = 7, 5, 4
	turnDays                                    = 30
	turnPRs                                     = 24
)

// turnMonth is the month's world: the fake, the generator's draws and its
// account of every PR.
type turnMonth struct {
	fake      *fakegithub.Server
	rng       *rand.Rand
	gens      map[int]*turnGen
	order     []int        // the PRs in a fixed order: the generator's draws must not depend on map order
	requested map[int]bool // a maintainer requested changes: no approval ever stands again
	mo        fakegithub.User
}

// turnTally counts what the bot did over the month.
type turnTally struct{ marks, closes, nudges int }

func TestTurnHistoryMonth(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	inputs := map[string]string{
		"stale-clock": "author-turn", "days-before-stale": fmt.Sprint(turnStaleDays), "days-before-close": fmt.Sprint(turnCloseDays),
		"days-before-review-nudge": fmt.Sprint(turnNudgeDays), "review-nudge-label": "waiting-on-review",
	}
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Clock: clock})
	fake.AddMember(maint.Login, mia.Login)
	h := newHistory(t, fake)
	me := fake.Identity()
	m := newTurnMonth(fake)

	nudgeSeen := map[int64]bool{}
	var tally turnTally
	for day := 0; day <= turnDays; day++ {
		clock.Set(h.runAt(day))
		m.daily(clock.Now())
		runStart := clock.Now()
		res := h.w.run(inputs)
		if !res.OK() || res.Stopped != nil {
			t.Errorf("day %d: run stopped %v failed %+v", day, res.Stopped, res.Failed())
		}
		for n, g := range m.gens {
			checkTurnEvents(t, day, n, g, fake.Events(n), runStart, me.Login, &tally)
			checkTurnNudges(t, day, n, g, fake.Comments(n), nudgeSeen, me.Login, &tally)
		}
	}
	if tally.marks == 0 || tally.closes == 0 || tally.nudges == 0 {
		t.Errorf("the month exercised too little: %d marks, %d closes, %d nudges", tally.marks, tally.closes, tally.nudges)
	}
	t.Logf("%d marks, %d closes, %d nudges", tally.marks, tally.closes, tally.nudges)
}

// newTurnMonth opens the month's PRs, some drafts, some with a review
// requested of rey, who never answers.
func newTurnMonth(fake *fakegithub.Server) *turnMonth {
	m := &turnMonth{fake: fake, rng: rand.New(rand.NewPCG(17, 2026)), gens: map[int]*turnGen{}, requested: map[int]bool{}}
	authors := []fakegithub.User{alice, bob, maint} // maint's own PRs: mia reviews them
	for i := range turnPRs {
		author := authors[i%len(authors)]
		opened := t0.Add(-time.Duration(m.rng.IntN(20)) * lifecycle.Day)
		draft := i%7 == 3
		n := fake.AddPR(fakegithub.Issue{Title: fmt.Sprintf("change %d", i), User: author, CreatedAt: opened, UpdatedAt: opened, Draft: draft})
		first := lifecycle.TurnReviewers
		if draft {
			first = lifecycle.TurnAuthor
		}
		g := &turnGen{draft: draft, nudges: map[int]int{}, pending: map[string]bool{}, whose: first, since: opened}
		g.epochAt = []epochSpan{{from: opened, whose: first}}
		if author == alice && i%2 == 0 {
			fake.RequestReview(n, alice, opened.Add(time.Minute), "rey")
			g.pending["rey"] = true // rey never answers
		}
		m.gens[n] = g
		m.order = append(m.order, n)
	}
	m.mo = fakegithub.Person("mo") // a maintainer who only ever approves
	fake.AddMember(m.mo.Login)
	return m
}

func (m *turnMonth) reviewer(n int) fakegithub.User {
	if m.fake.MustIssue(n).User == maint || m.rng.IntN(2) == 0 {
		return mia
	}
	return maint
}

// daily has every open PR's people act once, a few hours before now.
func (m *turnMonth) daily(now time.Time) {
	for _, n := range m.order {
		g := m.gens[n]
		if g.closed || m.fake.MustIssue(n).State != "open" {
			g.closed = true
			continue
		}
		at := now.Add(-3*time.Hour - time.Duration(m.rng.IntN(60))*time.Minute)
		m.act(n, g, at)
	}
}

// handBack records the author's action at at, which hands their turn back
// to the reviewers.
func (g *turnGen) handBack(at time.Time) {
	g.acted = append(g.acted, at)
	if g.whose == lifecycle.TurnAuthor {
		g.set(lifecycle.TurnReviewers, at)
	}
}

// act draws one action on PR n at at and keeps g's account of it.
func (m *turnMonth) act(n int, g *turnGen, at time.Time) {
	fake := m.fake
	author := fake.MustIssue(n).User
	switch r := m.rng.IntN(20); {
	case r < 2:
		rv := m.reviewer(n)
		fake.Review(n, rv, at, "CHANGES_REQUESTED", "please change")
		delete(g.pending, rv.Login)
		m.requested[n] = true
		g.set(lifecycle.TurnAuthor, at)
	case r < 3:
		rv := m.reviewer(n)
		fake.Comment(n, rv, at, "a question")
		// While a review is requested of someone else, a comment asks
		// the author for nothing; the requested reviewer's own answers
		// the request.
		if g.whose != lifecycle.TurnMaintainers && (len(g.pending) == 0 || g.pending[rv.Login]) {
			g.set(lifecycle.TurnAuthor, at)
		}
	case r < 4:
		fake.Push(n, author.Login, at, "address review")
		g.handBack(at)
		if g.whose == lifecycle.TurnMaintainers {
			g.set(lifecycle.TurnReviewers, at) // the approval is set aside: not what was approved
		}
	case r < 5:
		fake.Comment(n, author, at, "done, have a look")
		g.handBack(at)
	case r < 6 && !g.draft:
		rv := m.reviewer(n)
		fake.RequestReview(n, author, at, rv.Login)
		g.pending[rv.Login] = true
		g.handBack(at)
	case r < 8:
		fake.Comment(n, carol, at, "+1")
	case r < 10:
		fake.Comment(n, ci, at, "build passed")
	case r < 11:
		fake.PushAs(n, ci, at, "update branch")
	case r < 12 && g.draft:
		fake.ReadyForReview(n, author, at)
		g.acted = append(g.acted, at)
		g.draft = false
		g.set(lifecycle.TurnReviewers, at)
	case r < 12 && g.whose == lifecycle.TurnReviewers && !m.requested[n] && author != m.mo:
		fake.Review(n, m.mo, at, "APPROVED", "lgtm")
		g.set(lifecycle.TurnMaintainers, at)
	case r < 13 && g.whose == lifecycle.TurnMaintainers:
		fake.Merge(n, maint, at)
		g.closed = true
	case r < 14 && g.whose == lifecycle.TurnAuthor && !g.draft:
		// A maintainer finishes the work: the PR's side answered.
		fake.PushAs(n, m.reviewer(n), at, "finish the rename")
		g.set(lifecycle.TurnReviewers, at)
	}
}

// checkTurnEvents checks (a) and (c) on the marks and closes the bot made
// on PR n since runStart.
func checkTurnEvents(t *testing.T, day, n int, g *turnGen, events []fakegithub.Event, runStart time.Time, me string, tally *turnTally) {
	t.Helper()
	for _, e := range events {
		if e.At.Before(runStart) || !strings.EqualFold(e.Actor.Login, me) {
			continue
		}
		_, whose := g.at(e.At)
		switch {
		case e.Type == fakegithub.EventLabeled && e.Label == "stale":
			tally.marks++
			checkTurnMark(t, day, n, g, e.At, whose)
		case e.Type == fakegithub.EventClosed:
			tally.closes++
			checkTurnClose(t, day, n, g, e.At, whose)
		}
	}
}

// checkTurnMark checks (a) for a mark at at.
func checkTurnMark(t *testing.T, day, n int, g *turnGen, at time.Time, whose lifecycle.Whose) {
	t.Helper()
	if whose != lifecycle.TurnAuthor {
		t.Errorf("day %d: #%d marked on the %v turn", day, n, whose)
	} else if at.Sub(g.since) < turnStaleDays*lifecycle.Day {
		t.Errorf("day %d: #%d marked %v after the turn passed to its author, before %d days", day, n, at.Sub(g.since), turnStaleDays)
	}
}

// checkTurnClose checks (a) and (c) for a close at at.
func checkTurnClose(t *testing.T, day, n int, g *turnGen, at time.Time, whose lifecycle.Whose) {
	t.Helper()
	if whose != lifecycle.TurnAuthor {
		t.Errorf("day %d: #%d closed on the %v turn", day, n, whose)
	}
	for _, a := range g.acted {
		if at.Sub(a) < turnCloseDays*lifecycle.Day {
			t.Errorf("day %d: #%d closed though its author acted at %s", day, n, a.Format(time.RFC3339))
		}
	}
}

// checkTurnNudges checks (b) on the nudges the bot posted on PR n that
// were not seen before.
func checkTurnNudges(t *testing.T, day, n int, g *turnGen, comments []fakegithub.Comment, seen map[int64]bool, me string, tally *turnTally) {
	t.Helper()
	for _, c := range comments {
		if seen[c.ID] || !strings.EqualFold(c.User.Login, me) || !strings.Contains(c.Body, "<!-- stalepr:nudge") {
			continue
		}
		seen[c.ID] = true
		tally.nudges++
		ep, whose := g.at(c.CreatedAt)
		switch {
		case whose != lifecycle.TurnReviewers && whose != lifecycle.TurnMaintainers:
			t.Errorf("day %d: #%d nudged on the %v turn", day, n, whose)
		case (whose == lifecycle.TurnMaintainers) != strings.Contains(c.Body, "to be merged"):
			t.Errorf("day %d: #%d nudged on the %v turn with the wrong words:\n%s", day, n, whose, c.Body)
		}
		if g.nudges[ep]++; g.nudges[ep] > 1 {
			t.Errorf("day %d: #%d nudged twice in one turn", day, n)
		}
	}
}
