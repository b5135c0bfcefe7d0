package sweep_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/report"
	"github.com/stalepr/stalepr/internal/sweep"
)

// GitHub's own busy status, end to end through the HTTP path:
// docs/rules.md "Availability".

// statusQueries counts the GraphQL queries that read accounts' statuses.
func (w *world) statusQueries() int {
	n := 0
	for _, r := range w.fake.Requests() {
		if strings.HasSuffix(r.Path, "graphql") && strings.Contains(r.Body, "user(login:") {
			n++
		}
	}
	return n
}

// TestBusyNotNudged: a reviewer whose GitHub status says busy is not
// mentioned by the nudge, which says why; the others are. One status
// query for the run, however many PRs wait on the same reviewers.
func TestBusyNotNudged(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	w.fake.RequestReview(n, alice, daysAgo(10), "sam")
	m := w.openPR(9, alice)
	w.fake.RequestReview(m, alice, daysAgo(9), "sam")
	w.fake.SetStatus("rey", true, time.Time{})
	w.fake.SetStatus("sam", false, time.Time{})
	w.run(nudgeInputs)
	if w.notices(n, "nudge") != 1 || w.notices(m, "nudge") != 1 {
		t.Fatalf("#%d: %d nudges, #%d: %d; want 1 each", n, w.notices(n, "nudge"), m, w.notices(m, "nudge"))
	}
	body := w.fake.Comments(n)[0].Body
	if !strings.Contains(body, "@sam") || strings.Contains(body, "@rey") || !strings.Contains(body, "Not asked: rey, who is busy on GitHub.") {
		t.Errorf("the nudge must mention @sam, and name rey as busy without a mention:\n%s", body)
	}
	if got := w.statusQueries(); got != 1 {
		t.Errorf("%d status queries, want 1 for the run", got)
	}
}

// TestBusyEscalatesAtOnce: a PR that waits on busy reviewers alone gets no
// nudge; on the day the nudge would have come it is escalated, once, and
// the escalation says why. Without escalation, nothing is written.
func TestBusyEscalatesAtOnce(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	w.fake.SetStatus("rey", true, daysAgo(-30))

	w.run(nudgeInputs)
	if got := w.fake.Writes(); got != 0 {
		t.Fatalf("without escalation: %d writes, want none", got)
	}
	res := w.run(escalateInputs)
	if got := numbers(res.With(sweep.Escalated)); len(got) != 1 || got[0] != n || len(res.Nudged()) != 0 {
		t.Fatalf("escalated %v, nudged %v; want #%d escalated alone, nobody nudged", got, numbers(res.Nudged()), n)
	}
	body := w.fake.Comments(n)[0].Body
	if !strings.Contains(body, "@lead") || strings.Contains(body, "@rey") || !strings.Contains(body, "Not asked: rey, who is busy on GitHub.") {
		t.Errorf("the escalation must mention @lead and name rey as busy:\n%s", body)
	}
	if d := report.Dashboard(res); !strings.Contains(d, "not asked: rey (busy on GitHub)") || strings.Contains(d, "@rey") {
		t.Errorf("the dashboard's Escalated row must say rey is busy on GitHub, without a mention:\n%s", d)
	}
	w.clock.Advance(3 * lifecycle.Day)
	w.run(escalateInputs)
	if w.escalations(n) != 1 || w.notices(n, "nudge") != 0 {
		t.Errorf("after three days: %d escalations, %d nudges; want 1, 0", w.escalations(n), w.notices(n, "nudge"))
	}
}

// TestBusyExpired: a busy status whose expiresAt has passed counts for
// nothing: the reviewer is nudged, nobody escalated.
func TestBusyExpired(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	w.fake.SetStatus("rey", true, daysAgo(1))
	res := w.run(escalateInputs)
	if len(res.Nudged()) != 1 || len(res.With(sweep.Escalated)) != 0 {
		t.Fatalf("nudged %v, escalated %v; want #%d nudged, nobody escalated", numbers(res.Nudged()), numbers(res.With(sweep.Escalated)), n)
	}
	if body := w.fake.Comments(n)[0].Body; !strings.Contains(body, "@rey") || strings.Contains(body, "Not asked") {
		t.Errorf("the nudge must mention @rey:\n%s", body)
	}
}

// TestBusyUnknown: a status read that fails, or an account GitHub no
// longer knows, is no status: the nudge goes as before and nobody is
// escalated early. A gone account spoils its own status only: sam's, read
// in the same query, still counts.
func TestBusyUnknown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		setup   func(w *world)
		samBusy bool // sam's status is read all the same
	}{
		{"the read fails", func(w *world) {
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if strings.Contains(r.Body, "user(login:") {
					return fakegithub.StatusFault(200, `{"data":null,"errors":[{"message":"Something went wrong while executing your query."}]}`)
				}
				return nil
			})
		}, false},
		{"the account is gone", func(w *world) { w.fake.SetUserGone("rey") }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := turnWorld(t)
			n := w.openPR(10, alice)
			w.fake.RequestReview(n, alice, daysAgo(10), "rey")
			w.fake.RequestReview(n, alice, daysAgo(10), "sam")
			w.fake.SetStatus("rey", true, time.Time{})
			w.fake.SetStatus("sam", true, time.Time{})
			c.setup(w)
			res := w.run(escalateInputs)
			if len(res.Nudged()) != 1 || len(res.With(sweep.Escalated)) != 0 || res.Stopped != nil {
				t.Fatalf("nudged %v, escalated %v, stopped %v; want #%d nudged, nobody escalated, no stop",
					numbers(res.Nudged()), numbers(res.With(sweep.Escalated)), res.Stopped, n)
			}
			body := w.fake.Comments(n)[0].Body
			if !strings.Contains(body, "@rey") || strings.Contains(body, "@sam") != !c.samBusy ||
				strings.Contains(body, "Not asked: sam, who is busy on GitHub.") != c.samBusy {
				t.Errorf("the nudge must mention @rey, and sam busy %v:\n%s", c.samBusy, body)
			}
			if got := w.statusQueries(); got != 1 {
				t.Errorf("%d status queries, want 1", got)
			}
		})
	}
}

// TestBusyReadOnlyWhenAsked: statuses are read only when the run has a
// nudge or an escalation to decide: not with the nudge off, not when no
// nudge is due, not when the reviewers are all listed away.
func TestBusyReadOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.openPR(10, alice)
	w.fake.RequestReview(n, alice, daysAgo(10), "rey")
	young := w.openPR(3, alice)
	w.fake.RequestReview(young, alice, daysAgo(3), "sam")
	w.fake.SetStatus("rey", true, time.Time{})
	w.run(sfWith(nudgeInputs, "days-before-review-nudge", "-1", "author-turn-label", "waiting-on-author"))
	w.run(sfWith(nudgeInputs, "days-before-review-nudge", "30"))
	w.run(sfWith(escalateInputs, "away-reviewers", "rey", "escalation-reviewers", "octo/core")) // a team has no status
	if got := w.statusQueries(); got != 0 {
		t.Errorf("%d status queries, want none", got)
	}
}

// TestBusyEscalationReviewer: an escalation never asks an escalation
// reviewer whose GitHub status says busy (read in the run's one status
// query); the comment says so without a mention, and asks the others.
func TestBusyEscalationReviewer(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	n := w.nudgedPR(8)
	w.fake.SetStatus("lead", true, time.Time{})
	res := w.run(escalateInputs)
	if len(res.With(sweep.Escalated)) != 1 {
		t.Fatalf("escalated %v, want #%d", numbers(res.With(sweep.Escalated)), n)
	}
	if r, team := w.requestsOf(n, "lead", action), w.teamRequests(n, "core", action); r != 0 || team != 1 {
		t.Errorf("%d requests of lead (busy), %d of the core team; want none and one", r, team)
	}
	body := w.fake.Comments(n)[len(w.fake.Comments(n))-1].Body
	if strings.Contains(body, "@lead") || !strings.Contains(body, "lead, who is busy on GitHub") {
		t.Errorf("the escalation must not mention lead and must say lead is busy:\n%s", body)
	}
	if got := w.statusQueries(); got != 1 {
		t.Errorf("%d status queries, want 1", got)
	}
}

// TestBusyCostAtScale: the statuses of 150 distinct reviewers are two
// queries of one point each (StatusesPerRead a query), whatever the number
// of PRs; none is per PR.
func TestBusyCostAtScale(t *testing.T) {
	t.Parallel()
	w := turnWorld(t)
	const prs = 150
	for i := range prs {
		n := w.openPR(10, alice)
		w.fake.RequestReview(n, alice, daysAgo(10), fmt.Sprintf("rev%d", i))
		w.fake.RequestReview(n, alice, daysAgo(10), "sam")
	}
	w.fake.SetStatus("rev0", true, time.Time{})
	res := w.run(sfWith(nudgeInputs, "debug-only", "true"))
	var queries, points int
	for _, r := range w.fake.Requests() {
		if strings.Contains(r.Body, "user(login:") {
			queries++
			points += r.Points
		}
	}
	if queries != 2 || points != 2 {
		t.Errorf("%d status queries costing %d points; want 2 of 1 point", queries, points)
	}
	t.Logf("%d PRs waiting on %d reviewers: %d status queries, %d points; %d nudges previewed", prs, prs+1, queries, points, len(res.Nudged()))
}
