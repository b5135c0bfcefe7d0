package lifecycle_test

import (
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// Coding agents' pull requests (README rules, "Coding agents' pull
// requests"): a human of record, a clock of their own.

const agent = "Copilot" // the Copilot coding agent, as REST names it

// agentPR is an open PR by the Copilot coding agent, opened 60 days ago,
// last updated at updated.
func agentPR(updated time.Time, mod ...func(*lifecycle.PR)) lifecycle.PR {
	p := lifecycle.PR{Number: 7, Title: "Fix the flaky test", Author: agent, AuthorBot: true,
		CreatedAt: daysAgo(60), UpdatedAt: updated}
	for _, m := range mod {
		m(&p)
	}
	return p
}

func draft(p *lifecycle.PR) { p.Draft = true }

// agentClock turns the agent clock on: stale after stale days, closed close days later.
func agentClock(stale, close int) func(*lifecycle.Policy) {
	return func(p *lifecycle.Policy) {
		p.AgentClock = lifecycle.AgentClock{On: true, DaysBeforeStale: stale, DaysBeforeClose: close}
	}
}

func exemptDrafts(p *lifecycle.Policy) { p.ExemptDraft = true }

func TestDecideAgentClock(t *testing.T) {
	person := pr(daysAgo(20))
	runDecide(t, []decideCase{
		{name: "off: an agent's draft is exempt as every draft",
			pr: agentPR(daysAgo(20), draft), policy: policy(exemptDrafts),
			want: lifecycle.Skip, reason: lifecycle.ReasonDraft},
		{name: "off: an agent's PR runs on everyone's clock",
			pr: agentPR(daysAgo(20)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "on: an agent's PR is marked on the agent clock",
			pr: agentPR(daysAgo(20)), policy: policy(agentClock(14, 5)),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, closeAt: now.Add(5 * lifecycle.Day)},
		{name: "on: a person's PR keeps everyone's clock",
			pr: person, policy: policy(agentClock(14, 5)),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "on: an agent's draft is not exempt by exempt-draft-pr and is clocked by the agent clock",
			pr: agentPR(daysAgo(20), draft), policy: policy(exemptDrafts, agentClock(14, 5)),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, closeAt: now.Add(5 * lifecycle.Day)},
		{name: "on: a person's draft stays exempt",
			pr: with(person, draft), policy: policy(exemptDrafts, agentClock(14, 5)),
			want: lifecycle.Skip, reason: lifecycle.ReasonDraft},
		{name: "on: an agent's young draft is kept",
			pr: agentPR(daysAgo(10), draft), policy: policy(exemptDrafts, agentClock(14, 5)),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive},
		{name: "on: -1 never marks an agent's PR, whatever everyone's clock says",
			pr: agentPR(daysAgo(45)), policy: policy(agentClock(-1, 5)),
			want: lifecycle.Keep, reason: lifecycle.ReasonNeverStale},
		{name: "on: a marked agent's PR closes on the agent clock's days",
			pr: agentPR(daysAgo(4), func(p *lifecycle.PR) { p.Labels = []string{staleLabel} }), act: marked(daysAgo(4)),
			policy: policy(agentClock(14, 3)),
			want:   lifecycle.Close, reason: lifecycle.ReasonCloseDue},
		{name: "on: a marked person's PR waits for everyone's days",
			pr: pr(daysAgo(4), staleLabel), act: marked(daysAgo(4)), policy: policy(agentClock(14, 3)),
			want: lifecycle.Keep, reason: lifecycle.ReasonStaleWaiting, closeAt: daysAgo(4).Add(closeDays * lifecycle.Day)},
		{name: "on: an agent named by agent-accounts, in any case",
			pr:     agentPR(daysAgo(20), func(p *lifecycle.PR) { p.Author = "Acme-Agent[bot]" }),
			policy: policy(agentClock(14, 5), func(p *lifecycle.Policy) { p.AgentAccounts = []string{"acme-agent[bot]"} }),
			want:   lifecycle.Mark, reason: lifecycle.ReasonInactive},
		{name: "on: another bot's PR keeps everyone's clock",
			pr:     agentPR(daysAgo(20), func(p *lifecycle.PR) { p.Author = "dependabot[bot]" }),
			policy: policy(agentClock(14, 5)),
			want:   lifecycle.Keep, reason: lifecycle.ReasonActive},
	})
}

// The agent clock's draft rule holds for the nudge and the turn labels too,
// and For is idempotent (Next applies it to a policy Decide applies it to again).
func TestPolicyForAgents(t *testing.T) {
	p := policy(exemptDrafts, agentClock(14, 5))
	d := agentPR(daysAgo(20), draft)
	got := p.For(d)
	if got.DaysBeforeStale != 14 || got.DaysBeforeClose != 5 || got.ExemptDraft {
		t.Errorf("For(agent's draft) = stale %d, close %d, exempt drafts %v; want 14, 5, false",
			got.DaysBeforeStale, got.DaysBeforeClose, got.ExemptDraft)
	}
	if again := got.For(d); again.DaysBeforeStale != 14 || again.DaysBeforeClose != 5 || again.ExemptDraft {
		t.Errorf("For is not idempotent: %+v", again.AgentClock)
	}
	if got := p.For(pr(daysAgo(1))); got.DaysBeforeStale != staleDays || !got.ExemptDraft {
		t.Errorf("For(person's PR) changed the policy: stale %d, exempt drafts %v", got.DaysBeforeStale, got.ExemptDraft)
	}
	// Next forecasts the agent clock's mark.
	if step := lifecycle.Next(agentPR(daysAgo(10)), nil, lifecycle.Decide(agentPR(daysAgo(10)), nil, now, p), now, p); step.Action != lifecycle.Mark ||
		!step.At.Equal(daysAgo(10).Add(14*lifecycle.Day).Add(time.Nanosecond)) {
		t.Errorf("Next = %v at %s, want a mark 14 days after the last activity", step.Action, fmtTime(step.At))
	}
}

// The open listing stops at the stale cutoff: with the agent clock shorter
// than everyone's, it must read on to the agents' cutoff.
func TestNeedsCutoff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     lifecycle.Policy
		want  time.Time
		marks bool
	}{
		{"off", policy(), now.Add(-staleDays * lifecycle.Day), true},
		{"agents sooner", policy(agentClock(14, 5)), now.Add(-14 * lifecycle.Day), true},
		{"agents later", policy(agentClock(60, 5)), now.Add(-staleDays * lifecycle.Day), true},
		{"only agents mark", policy(agentClock(14, 5), func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }), now.Add(-14 * lifecycle.Day), true},
		{"agents never", policy(agentClock(-1, 5)), now.Add(-staleDays * lifecycle.Day), true},
		{"nobody marks", policy(agentClock(-1, 5), func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }), time.Time{}, false},
	} {
		tc.p.DaysBeforeReviewNudge = -1 // only the clocks list the open PRs
		n := tc.p.Needs(now)
		if got, marks := n.Cutoff, n.ListOpen; !got.Equal(tc.want) || marks != tc.marks {
			t.Errorf("%s: Needs' Cutoff = %s, ListOpen %v; want %s, %v", tc.name, fmtTime(got), marks, fmtTime(tc.want), tc.marks)
		}
	}
}

func assigned(at time.Time, actor, assignee string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Edited, At: at, Actor: actor, Bot: lifecycle.IsBotLogin(actor) || actor == agent,
		Assignee: assignee, AssigneeBot: lifecycle.IsBotLogin(assignee) || assignee == agent}
}

func agentCommit(at time.Time) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Committed, At: at, Bot: true} // copilot-swe-agent[bot]: no GitHub user
}

func commitBy(at time.Time, login string) lifecycle.Event {
	return lifecycle.Event{Kind: lifecycle.Committed, At: at, CommitAuthor: login}
}

func TestHumanOfRecord(t *testing.T) {
	d := func(n float64) time.Time { return daysAgo(60 - n) }
	for _, tc := range []struct {
		name   string
		pr     lifecycle.PR
		events []lifecycle.Event
		want   string
	}{
		{"the person who assigned the agent", agentPR(d(1)),
			[]lifecycle.Event{assigned(d(0), "alice", agent), agentCommit(d(1))}, "alice"},
		{"the person the agent assigned the PR to (its delegator)", agentPR(d(1)),
			[]lifecycle.Event{assigned(d(0), agent, "alice"), assigned(d(0), agent, agent)}, "alice"},
		{"the agent's GraphQL login assigned", agentPR(d(1)),
			[]lifecycle.Event{assigned(d(0), "alice", "copilot-swe-agent[bot]")}, "alice"},
		{"the latest delegation", agentPR(d(9)),
			[]lifecycle.Event{assigned(d(0), "alice", agent), assigned(d(9), "bob", agent)}, "bob"},
		{"an assignment beats marking ready", agentPR(d(2), draft),
			[]lifecycle.Event{assigned(d(0), "alice", agent), ev(lifecycle.ReadyForReview, d(2), "bob")}, "alice"},
		{"a bot's assignment names nobody; the person who marked it ready", agentPR(d(2)),
			[]lifecycle.Event{assigned(d(0), "triage[bot]", agent), ev(lifecycle.ReadyForReview, d(2), "bob")}, "bob"},
		{"a person assigned to a person's PR by a person is no delegation", agentPR(d(2)),
			[]lifecycle.Event{assigned(d(0), "maya", "dan"), commitBy(d(1), "carol")}, "carol"},
		{"the first person to push", agentPR(d(5)),
			[]lifecycle.Event{agentCommit(d(1)), commitBy(d(3), "carol"), commitBy(d(5), "dan")}, "carol"},
		{"a person's force-push is a push", agentPR(d(5)),
			[]lifecycle.Event{agentCommit(d(1)), ev(lifecycle.ForcePushed, d(2), "erin"), commitBy(d(5), "dan")}, "erin"},
		{"nobody: unknown", agentPR(d(5)),
			[]lifecycle.Event{agentCommit(d(1)), comment(d(3), "maya"), ev(lifecycle.ReadyForReview, d(4), agent)}, ""},
		{"a deleted account is nobody to mention", agentPR(d(5)),
			[]lifecycle.Event{assigned(d(0), "ghost", agent)}, ""},
		{"stalepr itself is nobody", agentPR(d(5)),
			[]lifecycle.Event{ev(lifecycle.ReadyForReview, d(4), selfLogin)}, ""},
		{"a person's PR has none", pr(d(5)),
			[]lifecycle.Event{assigned(d(0), "maya", "alice")}, ""},
	} {
		got := lifecycle.SummarizeWith(tc.pr, tc.events, staleLabel, lifecycle.Options{Self: []string{selfLogin}}).HumanOfRecord
		if got != tc.want {
			t.Errorf("%s: HumanOfRecord = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAgentTurn: the human of record's actions are the author's for whose
// turn it is (their reviews stay reviews: the agent answers them), so the
// three shapes GitHub shows agents' PRs in fall on the right turn.
func TestAgentTurn(t *testing.T) {
	d := func(n float64) time.Time { return daysAgo(60 - n) }
	opened := []lifecycle.Event{assigned(d(0), "alice", agent), agentCommit(d(0.1)),
		{Kind: lifecycle.ReviewRequested, At: d(0.2), Actor: agent, Bot: true, Reviewer: "alice"}}
	for _, tc := range []struct {
		name   string
		pr     lifecycle.PR
		events []lifecycle.Event
		whose  lifecycle.Whose
		since  time.Time
	}{
		{"a draft nobody looked at: its human of record's turn", agentPR(d(0.2), draft),
			opened, lifecycle.TurnAuthor, daysAgo(60)},
		{"marked ready by a person: the reviewers'", agentPR(d(3)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice")), lifecycle.TurnReviewers, d(3)},
		{"a maintainer's change request: the author's (the agent's and its human's)", agentPR(d(5)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), maintainer, "MEMBER", "changes_requested")),
			lifecycle.TurnAuthor, d(5)},
		{"the agent addressed the change request: the reviewers' again", agentPR(d(6)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), maintainer, "MEMBER", "changes_requested"), agentCommit(d(6))),
			lifecycle.TurnReviewers, d(6)},
		{"the human of record's own change request asks the agent: the author's", agentPR(d(5)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), "alice", "MEMBER", "changes_requested")),
			lifecycle.TurnAuthor, d(5)},
		{"the human of record's reply hands it back, as the author's", agentPR(d(6)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), maintainer, "MEMBER", "changes_requested"), said(d(6), "alice", "MEMBER")),
			lifecycle.TurnReviewers, d(6)},
		{"the human of record's push hands it back", agentPR(d(6)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), maintainer, "MEMBER", "changes_requested"), commitBy(d(6), "alice")),
			lifecycle.TurnReviewers, d(6)},
		{"someone else's reply does not", agentPR(d(6)),
			append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"), reviewed(d(5), maintainer, "MEMBER", "changes_requested"), said(d(6), "carol", "CONTRIBUTOR")),
			lifecycle.TurnAuthor, d(5)},
	} {
		act := lifecycle.SummarizeWith(tc.pr, tc.events, staleLabel, lifecycle.Options{Self: []string{selfLogin}})
		if act.Turn.Whose != tc.whose || !act.Turn.Since.Equal(tc.since) {
			t.Errorf("%s: turn %v since %s, want %v since %s", tc.name, act.Turn.Whose, fmtTime(act.Turn.Since), tc.whose, fmtTime(tc.since))
		}
		if act.HumanOfRecord != "alice" {
			t.Errorf("%s: HumanOfRecord = %q, want alice", tc.name, act.HumanOfRecord)
		}
	}
}

// Under stale-clock: author-turn with the agent clock, a draft nobody looked
// at is marked on the agent clock (it waits on its human of record); one
// marked ready and waiting on review never is.
func TestDecideAgentTurn(t *testing.T) {
	d := func(n float64) time.Time { return daysAgo(60 - n) }
	p := policy(exemptDrafts, agentClock(14, 5), func(p *lifecycle.Policy) { p.StaleClock = lifecycle.ClockAuthorTurn })
	opened := []lifecycle.Event{assigned(d(0), "alice", agent), agentCommit(d(0.1))}
	waiting := agentPR(d(0.1), draft)
	act := lifecycle.SummarizeWith(waiting, opened, staleLabel, lifecycle.Options{Self: []string{selfLogin}})
	if got := lifecycle.Decide(waiting, &act, now, p); got.Action != lifecycle.Mark {
		t.Errorf("a draft nobody looked at: %v, want a mark", got)
	}
	ready := agentPR(d(3))
	events := append(opened, ev(lifecycle.ReadyForReview, d(3), "alice"))
	act = lifecycle.SummarizeWith(ready, events, staleLabel, lifecycle.Options{Self: []string{selfLogin}})
	if got := lifecycle.Decide(ready, &act, now, p); got.Action != lifecycle.Keep || got.Reason != lifecycle.ReasonReviewersTurn {
		t.Errorf("marked ready, waiting on review: %v, want kept on the reviewers' turn", got)
	}
}

// An agent of agent-accounts that GitHub shows as a plain user is a bot all
// the same: never a person's activity, never a pending reviewer (a nudge
// would mention it), never the human of record.
func TestAgentAccountsAreBots(t *testing.T) {
	o := lifecycle.Options{Self: []string{selfLogin}, Agents: []string{"acme-agent"}}
	events := []lifecycle.Event{
		{Kind: lifecycle.ReviewRequested, At: daysAgo(5), Actor: author, Reviewer: "acme-agent"},
		comment(daysAgo(4), "acme-agent"),
	}
	act := lifecycle.SummarizeWith(pr(daysAgo(4)), events, staleLabel, o)
	if len(act.PendingReviewers) != 0 || act.LastPersonLogin == "acme-agent" {
		t.Errorf("pending %v, last person %q: want the agent neither pending nor a person", act.PendingReviewers, act.LastPersonLogin)
	}
	agentsPR := with(pr(daysAgo(4)), func(p *lifecycle.PR) { p.Author = "acme-agent" })
	act = lifecycle.SummarizeWith(agentsPR, []lifecycle.Event{ev(lifecycle.ReadyForReview, daysAgo(4), "acme-agent")}, staleLabel, o)
	if act.HumanOfRecord != "" {
		t.Errorf("HumanOfRecord = %q, want nobody", act.HumanOfRecord)
	}
}

// With the agent clock, an agent's draft is no longer exempt for the turn
// labels either (a draft is its author's turn); it is never nudged (never
// the reviewers' turn).
func TestAgentDraftTurnLabelsAndNudge(t *testing.T) {
	p := policy(exemptDrafts, agentClock(14, 5), func(p *lifecycle.Policy) {
		p.AuthorTurnLabel, p.DaysBeforeReviewNudge = "waiting-on-author", 7
	})
	d := agentPR(daysAgo(20), draft)
	act := lifecycle.SummarizeWith(d, []lifecycle.Event{assigned(daysAgo(60), "alice", agent)}, staleLabel, lifecycle.Options{})
	if got := lifecycle.DecideTurnLabels(d, &act, p); got.Add != "waiting-on-author" {
		t.Errorf("turn labels %+v, want waiting-on-author added", got)
	}
	if got := lifecycle.DecideNudge(d, &act, now, p); got != lifecycle.NudgeNone {
		t.Errorf("nudge %v, want none on a draft", got)
	}
	if got := lifecycle.DecideTurnLabels(d, &act, policy(exemptDrafts, func(p *lifecycle.Policy) { p.AuthorTurnLabel = "waiting-on-author" })); got.Any() {
		t.Errorf("without the agent clock the draft is exempt: %+v", got)
	}
}
