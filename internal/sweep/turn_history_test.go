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

func TestTurnHistoryMonth(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	const (
		staleDays, closeDays, nudgeDays = 7, 5, 4
		days                            = 30
	)
	nPRs := 24
	inputs := map[string]string{
		"stale-clock": "author-turn", "days-before-stale": fmt.Sprint(staleDays), "days-before-close": fmt.Sprint(closeDays),
		"days-before-review-nudge": fmt.Sprint(nudgeDays), "review-nudge-label": "waiting-on-review",
	}
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Clock: clock})
	fake.AddMember(maint.Login, mia.Login)
	h := newHistory(t, fake)
	me := fake.Identity()
	rng := rand.New(rand.NewPCG(17, 2026))

	gens := map[int]*turnGen{}
	var order []int                                 // the PRs in a fixed order: the generator's draws must not depend on map order
	authors := []fakegithub.User{alice, bob, maint} // maint's own PRs: mia reviews them
	for i := range nPRs {
		author := authors[i%len(authors)]
		opened := t0.Add(-time.Duration(rng.IntN(20)) * lifecycle.Day)
		draft := i%7 == 3
		n := fake.AddPR(fakegithub.Issue{Title: fmt.Sprintf("change %d", i), User: author, CreatedAt: opened, UpdatedAt: opened, Draft: draft})
		g := &turnGen{draft: draft, nudges: map[int]int{}, pending: map[string]bool{}}
		g.epochAt = []epochSpan{{from: opened, whose: lifecycle.TurnReviewers}}
		g.whose, g.since = lifecycle.TurnReviewers, opened
		if draft {
			g.epochAt[0].whose, g.whose = lifecycle.TurnAuthor, lifecycle.TurnAuthor
		}
		if author == alice && i%2 == 0 {
			fake.RequestReview(n, alice, opened.Add(time.Minute), "rey")
			g.pending["rey"] = true // rey never answers
		}
		gens[n] = g
		order = append(order, n)
	}
	mo := fakegithub.Person("mo") // a maintainer who only ever approves
	fake.AddMember(mo.Login)
	reviewer := func(n int) fakegithub.User {
		if fake.MustIssue(n).User == maint || rng.IntN(2) == 0 {
			return mia
		}
		return maint
	}

	requested := map[int]bool{} // a maintainer requested changes: no approval ever stands again
	daily := func(now time.Time) {
		for _, n := range order {
			g := gens[n]
			if g.closed || fake.MustIssue(n).State != "open" {
				g.closed = true
				continue
			}
			author := fake.MustIssue(n).User
			at := now.Add(-3*time.Hour - time.Duration(rng.IntN(60))*time.Minute)
			handBack := func() {
				g.acted = append(g.acted, at)
				if g.whose == lifecycle.TurnAuthor {
					g.set(lifecycle.TurnReviewers, at)
				}
			}
			switch r := rng.IntN(20); {
			case r < 2:
				rv := reviewer(n)
				fake.Review(n, rv, at, "CHANGES_REQUESTED", "please change")
				delete(g.pending, rv.Login)
				requested[n] = true
				g.set(lifecycle.TurnAuthor, at)
			case r < 3:
				fake.Comment(n, reviewer(n), at, "a question")
				// While a review is requested, a comment asks the author
				// for nothing.
				if g.whose != lifecycle.TurnMaintainers && len(g.pending) == 0 {
					g.set(lifecycle.TurnAuthor, at)
				}
			case r < 4:
				fake.Push(n, author.Login, at, "address review")
				handBack()
				if g.whose == lifecycle.TurnMaintainers {
					g.set(lifecycle.TurnReviewers, at) // the approval is set aside: not what was approved
				}
			case r < 5:
				fake.Comment(n, author, at, "done, have a look")
				handBack()
			case r < 6 && !g.draft:
				rv := reviewer(n)
				fake.RequestReview(n, author, at, rv.Login)
				g.pending[rv.Login] = true
				handBack()
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
			case r < 12 && g.whose == lifecycle.TurnReviewers && !requested[n] && author != mo:
				fake.Review(n, mo, at, "APPROVED", "lgtm")
				g.set(lifecycle.TurnMaintainers, at)
			case r < 13 && g.whose == lifecycle.TurnMaintainers:
				fake.Merge(n, maint, at)
				g.closed = true
			}
		}
	}
	nudgeSeen := map[int64]bool{}
	var marks, closes, nudges int
	for day := 0; day <= days; day++ {
		clock.Set(h.runAt(day))
		daily(clock.Now())
		runStart := clock.Now()
		res := h.w.run(inputs)
		if !res.OK() || res.Stopped != nil {
			t.Errorf("day %d: run stopped %v failed %+v", day, res.Stopped, res.Failed())
		}
		for n, g := range gens {
			for _, e := range fake.Events(n) {
				if e.At.Before(runStart) || !strings.EqualFold(e.Actor.Login, me.Login) {
					continue
				}
				_, whose := g.at(e.At)
				switch {
				case e.Type == fakegithub.EventLabeled && e.Label == "stale":
					marks++
					if whose != lifecycle.TurnAuthor {
						t.Errorf("day %d: #%d marked on the %v turn", day, n, whose)
					} else if e.At.Sub(g.since) < staleDays*lifecycle.Day {
						t.Errorf("day %d: #%d marked %v after the turn passed to its author, before %d days", day, n, e.At.Sub(g.since), staleDays)
					}
				case e.Type == fakegithub.EventClosed:
					closes++
					if whose != lifecycle.TurnAuthor {
						t.Errorf("day %d: #%d closed on the %v turn", day, n, whose)
					}
					for _, a := range g.acted {
						if e.At.Sub(a) < closeDays*lifecycle.Day {
							t.Errorf("day %d: #%d closed though its author acted at %s", day, n, a.Format(time.RFC3339))
						}
					}
				}
			}
			for _, c := range fake.Comments(n) {
				if nudgeSeen[c.ID] || !strings.EqualFold(c.User.Login, me.Login) || !strings.Contains(c.Body, "<!-- stalepr:nudge") {
					continue
				}
				nudgeSeen[c.ID] = true
				nudges++
				ep, whose := g.at(c.CreatedAt)
				if whose != lifecycle.TurnReviewers {
					t.Errorf("day %d: #%d nudged on the %v turn", day, n, whose)
				}
				if g.nudges[ep]++; g.nudges[ep] > 1 {
					t.Errorf("day %d: #%d nudged twice in one reviewers' turn", day, n)
				}
			}
		}
	}
	if marks == 0 || closes == 0 || nudges == 0 {
		t.Errorf("the month exercised too little: %d marks, %d closes, %d nudges", marks, closes, nudges)
	}
	t.Logf("%d marks, %d closes, %d nudges", marks, closes, nudges)
}
