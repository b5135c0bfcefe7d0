package lifecycle_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestAway has one case per part of the availability rule (docs/rules.md
// "Availability"): a reviewer listed away is not nudged, and a PR that
// waits on away reviewers alone is escalated at once.
func TestAway(t *testing.T) {
	pol := func(away ...string) lifecycle.Policy {
		return policy(func(p *lifecycle.Policy) {
			p.DaysBeforeReviewNudge, p.DaysBeforeEscalation, p.EscalationReviewers, p.AwayReviewers = 7, 7, []string{"lead"}, away
		})
	}
	waiting := func(since, nudgedAt time.Time, pending ...string) *lifecycle.Activity {
		a := turnAct(lifecycle.TurnReviewers, since)
		a.PendingReviewers, a.Turn.NudgedAt = pending, nudgedAt
		return a
	}
	var never time.Time
	cases := []struct {
		name     string
		act      *lifecycle.Activity
		policy   lifecycle.Policy
		nudge    lifecycle.NudgeAction
		escalate lifecycle.EscalateAction
	}{
		{name: "nobody away: nudged, not yet escalated", act: waiting(daysAgo(8), never, "rey"), policy: pol(),
			nudge: lifecycle.NudgePost},
		{name: "every reviewer waited on is away: no nudge, escalated at once", act: waiting(daysAgo(8), never, "rey"),
			policy: pol("REY"), escalate: lifecycle.EscalatePost},
		{name: "not before the nudge would have come", act: waiting(daysAgo(6), never, "rey"), policy: pol("rey")},
		{name: "some present: the nudge goes to them, the escalation waits", act: waiting(daysAgo(8), never, "rey", "sam"),
			policy: pol("rey"), nudge: lifecycle.NudgePost},
		{name: "a team is never away", act: waiting(daysAgo(8), never, "team:core"), policy: pol("core"), nudge: lifecycle.NudgePost},
		{name: "waiting on nobody in particular: nudged", act: waiting(daysAgo(8), never), policy: pol("rey"), nudge: lifecycle.NudgePost},
		{name: "escalated (the reviewers away): no nudge after it", act: func() *lifecycle.Activity {
			a := waiting(daysAgo(20), never, "rey", "lead")
			a.Turn.EscalatedAt = daysAgo(2)
			return a
		}(), policy: pol("rey")},
		{name: "away after the nudge: escalated on the nudge's clock", act: waiting(daysAgo(20), daysAgo(3), "rey"), policy: pol("rey")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pr(now)
			checkNudgeAndEscalation(t, p, c.act, c.policy, c.nudge, c.escalate)
		})
	}
}

// TestBusy has one case per part of the availability rule that GitHub's
// own status adds (docs/rules.md "Availability"): a reviewer whose status
// says busy is treated as away, until the status's expiresAt; a status not
// read is no status.
func TestBusy(t *testing.T) {
	pol := func(away ...string) lifecycle.Policy {
		return policy(func(p *lifecycle.Policy) {
			p.DaysBeforeReviewNudge, p.DaysBeforeEscalation, p.EscalationReviewers, p.AwayReviewers = 7, 7, []string{"lead"}, away
		})
	}
	waiting := func(busy []lifecycle.Busy, pending ...string) *lifecycle.Activity {
		a := turnAct(lifecycle.TurnReviewers, daysAgo(8))
		a.PendingReviewers, a.Busy = pending, busy
		return a
	}
	var never time.Time
	busy := func(login string, until time.Time) []lifecycle.Busy {
		return []lifecycle.Busy{{Login: login, Until: until}}
	}
	cases := []struct {
		name                string
		act                 *lifecycle.Activity
		policy              lifecycle.Policy
		nudge               lifecycle.NudgeAction
		escalate            lifecycle.EscalateAction
		present, away, busy []string
	}{
		{name: "status not read: nudged", act: waiting(nil, "rey"), policy: pol(), nudge: lifecycle.NudgePost, present: []string{"rey"}},
		{name: "busy with no end: no nudge, escalated at once", act: waiting(busy("REY", never), "rey"), policy: pol(),
			escalate: lifecycle.EscalatePost, busy: []string{"rey"}},
		{name: "busy until later: escalated at once", act: waiting(busy("rey", now.Add(time.Hour)), "rey"), policy: pol(),
			escalate: lifecycle.EscalatePost, busy: []string{"rey"}},
		{name: "busy status expired: counts for nothing", act: waiting(busy("rey", now.Add(-time.Minute)), "rey"), policy: pol(),
			nudge: lifecycle.NudgePost, present: []string{"rey"}},
		{name: "busy status expiring now: counts for nothing", act: waiting(busy("rey", now), "rey"), policy: pol(),
			nudge: lifecycle.NudgePost, present: []string{"rey"}},
		{name: "one busy, one present: the nudge goes to the present one", act: waiting(busy("rey", never), "rey", "sam"), policy: pol(),
			nudge: lifecycle.NudgePost, present: []string{"sam"}, busy: []string{"rey"}},
		{name: "one busy, one away: escalated at once", act: waiting(busy("rey", never), "rey", "sam"), policy: pol("sam"),
			escalate: lifecycle.EscalatePost, away: []string{"sam"}, busy: []string{"rey"}},
		{name: "away and busy: away only", act: waiting(busy("rey", never), "rey"), policy: pol("rey"),
			escalate: lifecycle.EscalatePost, away: []string{"rey"}},
		{name: "a status of someone not waited on: nothing", act: waiting(busy("kim", never), "rey"), policy: pol(),
			nudge: lifecycle.NudgePost, present: []string{"rey"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pr(now)
			checkNudgeAndEscalation(t, p, c.act, c.policy, c.nudge, c.escalate)
			present, away, busy := c.policy.Available(p, c.act, now)
			if !slices.Equal(present, c.present) || !slices.Equal(away, c.away) || !slices.Equal(busy, c.busy) {
				t.Errorf("Available = %v, %v, %v; want %v, %v, %v", present, away, busy, c.present, c.away, c.busy)
			}
		})
	}
}

// checkNudgeAndEscalation checks what the nudge and the escalation decide
// for a PR waiting on reviewers some of whom may be away or busy.
func checkNudgeAndEscalation(t *testing.T, p lifecycle.PR, act *lifecycle.Activity, pol lifecycle.Policy, nudge lifecycle.NudgeAction, escalate lifecycle.EscalateAction) {
	t.Helper()
	if got := lifecycle.DecideNudge(p, act, now, pol); got != nudge {
		t.Errorf("DecideNudge = %d, want %d", got, nudge)
	}
	if got := lifecycle.DecideEscalation(p, act, now, pol); got != escalate {
		t.Errorf("DecideEscalation = %d, want %d", got, escalate)
	}
}

// TestWithdrew: a reviewer who withdraws the review requested of them
// leaves the PR waiting on them no more; with nobody else to ask, the
// turn is escalated at once, as when every reviewer is away, and no nudge
// names nobody. Someone asked since, or a maintainer's review since,
// answers the withdrawal; a request someone else removed (a move) or a
// team's is no withdrawal.
func TestWithdrew(t *testing.T) {
	asked := requested(daysAgo(20), author, "", "bob")
	gone := lifecycle.Event{Kind: lifecycle.ReviewRequestRemoved, At: daysAgo(19), Actor: "bob", Association: "MEMBER", Reviewer: "bob"}
	moved := lifecycle.Event{Kind: lifecycle.ReviewRequestRemoved, At: daysAgo(19), Actor: maintainer, Association: "MEMBER", Reviewer: "bob"}
	team := lifecycle.Event{Kind: lifecycle.ReviewRequested, At: daysAgo(20), Actor: author, Team: "octo/core"}
	teamGone := lifecycle.Event{Kind: lifecycle.ReviewRequestRemoved, At: daysAgo(19), Actor: "bob", Team: "octo/core"}
	pol := policy(func(p *lifecycle.Policy) {
		p.DaysBeforeReviewNudge, p.DaysBeforeEscalation, p.EscalationReviewers = 7, 7, []string{"lead"}
	})
	cases := []struct {
		name     string
		events   []lifecycle.Event
		withdrew []string
		nudge    lifecycle.NudgeAction
		escalate lifecycle.EscalateAction
	}{
		{name: "the reviewer withdrew, nobody else asked: escalated at once, no nudge",
			events: []lifecycle.Event{asked, gone}, withdrew: []string{"bob"}, escalate: lifecycle.EscalatePost},
		{name: "another reviewer still asked: nudged, the escalation waits",
			events: []lifecycle.Event{asked, requested(daysAgo(20), author, "", "sam"), gone}, withdrew: []string{"bob"}, nudge: lifecycle.NudgePost},
		{name: "someone asked after the withdrawal: nudged",
			events: []lifecycle.Event{asked, gone, requested(daysAgo(18), maintainer, "MEMBER", "sam")}, nudge: lifecycle.NudgePost},
		{name: "asked again after the withdrawal: nudged",
			events: []lifecycle.Event{asked, gone, requested(daysAgo(18), author, "", "bob")}, nudge: lifecycle.NudgePost},
		{name: "a maintainer removed the request (a move): no withdrawal",
			events: []lifecycle.Event{asked, moved}, nudge: lifecycle.NudgePost},
		{name: "a team's request removed: no withdrawal",
			events: []lifecycle.Event{team, teamGone}, nudge: lifecycle.NudgePost},
		{name: "never asked anyone: nudged, as before",
			events: nil, nudge: lifecycle.NudgePost},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pr(now)
			p.CreatedAt = daysAgo(30)
			a := lifecycle.SummarizeWith(p, c.events, staleLabel, lifecycle.Options{Self: []string{selfLogin}})
			if !slices.Equal(a.Withdrew, c.withdrew) {
				t.Errorf("Withdrew = %v, want %v", a.Withdrew, c.withdrew)
			}
			if a.Turn.Whose != lifecycle.TurnReviewers {
				t.Fatalf("turn %v, want the reviewers'", a.Turn.Whose)
			}
			checkNudgeAndEscalation(t, p, &a, pol, c.nudge, c.escalate)
			if c.escalate != lifecycle.EscalateNone {
				if due := lifecycle.EscalationDue(p, &a, now, pol); !due.Equal(daysAgo(23)) {
					t.Errorf("escalation due %v, want when the nudge would have come, %v", due, daysAgo(23))
				}
			}
		})
	}
}
