package lifecycle_test

import (
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
			if got := lifecycle.DecideNudge(p, c.act, now, c.policy); got != c.nudge {
				t.Errorf("DecideNudge = %d, want %d", got, c.nudge)
			}
			if got := lifecycle.DecideEscalation(p, c.act, now, c.policy); got != c.escalate {
				t.Errorf("DecideEscalation = %d, want %d", got, c.escalate)
			}
		})
	}
}
