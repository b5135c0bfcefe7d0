package lifecycle_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestDecideEscalation has one case per part of the escalation rule
// (docs/rules.md "Escalation").
func TestDecideEscalation(t *testing.T) {
	esc := func(days int, to ...string) func(*lifecycle.Policy) {
		return func(p *lifecycle.Policy) {
			p.DaysBeforeReviewNudge, p.DaysBeforeEscalation, p.EscalationReviewers = 7, days, to
		}
	}
	nudged := func(whose lifecycle.Whose, since, nudgedAt, escalatedAt time.Time) *lifecycle.Activity {
		a := turnAct(whose, since)
		a.Turn.NudgedAt, a.Turn.EscalatedAt = nudgedAt, escalatedAt
		return a
	}
	var never time.Time
	closed := nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never)
	closed.ClosedNow = true
	cases := []struct {
		name   string
		pr     lifecycle.PR
		act    *lifecycle.Activity
		policy lifecycle.Policy
		want   lifecycle.EscalateAction
	}{
		{name: "off by default", pr: pr(now), act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never),
			policy: policy(esc(-1, "lead"))},
		{name: "escalated once the nudge went unanswered that many days", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never), policy: policy(esc(7, "lead")), want: lifecycle.EscalatePost},
		{name: "not before", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(6), never), policy: policy(esc(7, "lead"))},
		{name: "never without a nudge in this turn", pr: pr(now),
			act: turnAct(lifecycle.TurnReviewers, daysAgo(30)), policy: policy(esc(7, "lead"))},
		{name: "a nudge of an earlier turn does not count", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(9), daysAgo(20), never), policy: policy(esc(0, "lead"))},
		{name: "never on the author's turn (the nudge was answered)", pr: pr(now),
			act: nudged(lifecycle.TurnAuthor, daysAgo(3), daysAgo(10), never), policy: policy(esc(7, "lead"))},
		{name: "never on the maintainers' turn, after a merge nudge (no review to escalate)", pr: pr(now),
			act: nudged(lifecycle.TurnMaintainers, daysAgo(20), daysAgo(10), never), policy: policy(esc(7, "lead"))},
		{name: "nor after our escalation of an earlier turn, there", pr: pr(now),
			act: nudged(lifecycle.TurnMaintainers, daysAgo(20), daysAgo(10), daysAgo(2)), policy: policy(esc(7, "lead"))},
		{name: "once per turn", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), daysAgo(1)), policy: policy(esc(7, "lead"))},
		{name: "again in a later turn", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), daysAgo(30)), policy: policy(esc(7, "lead")), want: lifecycle.EscalatePost},
		{name: "nobody to ask: listed in the dashboard", pr: pr(now),
			act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never), policy: policy(esc(7)), want: lifecycle.EscalateListed},
		{name: "never to the author, a bot or an agent: nobody left, listed", pr: pr(now),
			act:    nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never),
			policy: policy(esc(7, author, "ci[bot]", "Copilot")), want: lifecycle.EscalateListed},
		{name: "exempt PRs are left alone", pr: pr(now, "keep"), act: nudged(lifecycle.TurnReviewers, daysAgo(20), daysAgo(10), never),
			policy: policy(esc(7, "lead"), func(p *lifecycle.Policy) { p.ExemptLabels = []string{"keep"} })},
		{name: "closed since it was listed: left alone", pr: pr(now), act: closed, policy: policy(esc(7, "lead"))},
		{name: "the turn unread: nothing", pr: pr(now), policy: policy(esc(7, "lead"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lifecycle.DecideEscalation(c.pr, c.act, now, c.policy); got != c.want {
				t.Errorf("DecideEscalation = %d, want %d", got, c.want)
			}
		})
	}
}

func TestEscalationTo(t *testing.T) {
	p := policy(func(p *lifecycle.Policy) {
		p.EscalationReviewers = []string{"lead", author, "octo/core", "renovate[bot]", "copilot", "robo", "LEAD", "boss", "my-agent"}
		p.BotAccounts = []string{"robo"}
		p.AgentAccounts = []string{"My-Agent"}
		p.AwayReviewers = []string{"boss"}
	})
	if got, busy := lifecycle.EscalationTo(pr(now), nil, now, p); !slices.Equal(got, []string{"lead", "octo/core"}) || busy != nil {
		t.Errorf("EscalationTo = %q, busy %q", got, busy)
	}
	// A busy GitHub status, as read, leaves one out until it expires.
	act := &lifecycle.Activity{Busy: []lifecycle.Busy{{Login: "LEAD", Until: now.Add(lifecycle.Day)}}}
	if got, busy := lifecycle.EscalationTo(pr(now), act, now, p); !slices.Equal(got, []string{"octo/core"}) || !slices.Equal(busy, []string{"lead"}) {
		t.Errorf("lead busy: EscalationTo = %q, busy %q", got, busy)
	}
	if got, _ := lifecycle.EscalationTo(pr(now), act, now.Add(2*lifecycle.Day), p); !slices.Equal(got, []string{"lead", "octo/core"}) {
		t.Errorf("lead's status expired: EscalationTo = %q", got)
	}
}

// TestTurnEscalatedAt: only our own escalation marks the turn escalated.
func TestTurnEscalatedAt(t *testing.T) {
	esc := func(actor string) lifecycle.Event {
		return lifecycle.Event{Kind: lifecycle.Commented, At: daysAgo(2), Actor: actor, Notice: lifecycle.EscalateNotice}
	}
	p := lifecycle.PR{Number: 1, Author: author, CreatedAt: daysAgo(30)}
	if a := lifecycle.Summarize(p, []lifecycle.Event{esc(selfLogin)}, staleLabel, []string{selfLogin}); !a.Turn.EscalatedInTurn() {
		t.Errorf("our escalation not read: %+v", a.Turn)
	}
	if a := lifecycle.Summarize(p, []lifecycle.Event{esc("mallory")}, staleLabel, []string{selfLogin}); !a.Turn.EscalatedAt.IsZero() {
		t.Errorf("a copied marker read as ours: %+v", a.Turn)
	}
}
