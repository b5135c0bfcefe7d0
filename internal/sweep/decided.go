package sweep

import (
	"slices"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// planned is a PR's decisions, every rule's, as the listings and the reads
// hand them to the plan.
type planned struct {
	pr     lifecycle.PR
	d      lifecycle.Decision
	act    *lifecycle.Activity
	nudge  lifecycle.NudgeAction // the review nudge's decision (see nudge.go)
	labels lifecycle.TurnLabels  // the turn labels' (see nudge.go)
	// rerequest are the reviewers whose review to request again (see nudge.go).
	rerequest []string
	escalate  lifecycle.EscalateAction // the review escalation's decision (see nudge.go)
}

// decisions are every rule's decision on pr with act: the lifecycle's,
// the nudge's, the turn labels', the re-request's and the escalation's.
func decisions(pr lifecycle.PR, act *lifecycle.Activity, now time.Time, pol lifecycle.Policy) planned {
	return planned{pr: pr, act: act, d: lifecycle.Decide(pr, act, now, pol),
		nudge:     lifecycle.DecideNudge(pr, act, now, pol),
		labels:    lifecycle.DecideTurnLabels(pr, act, pol),
		rerequest: lifecycle.DecideRerequest(pr, act, now, pol),
		escalate:  lifecycle.DecideEscalation(pr, act, now, pol)}
}

// sameDecisions reports whether p and o decide alike: the same actions,
// whatever the reasons and dates.
func (p planned) sameDecisions(o planned) bool {
	return p.d.Action == o.d.Action && p.nudge == o.nudge && p.labels == o.labels &&
		slices.Equal(p.rerequest, o.rerequest) && p.escalate == o.escalate
}

// acts reports whether p calls for an operation: a rule's action, the
// nudge's, the turn labels', a re-request or an escalation.
func (p planned) acts() bool {
	return p.d.Action != lifecycle.Keep || p.nudge != lifecycle.NudgeNone || p.labels.Any() ||
		len(p.rerequest) > 0 || p.escalate == lifecycle.EscalatePost
}

// differ reports whether two readings of a PR's history lead to different
// decisions: the stale rules', the nudge's, the turn labels'.
func differ(pr lifecycle.PR, a, b lifecycle.Activity, now time.Time, pol lifecycle.Policy) bool {
	return !decisions(pr, &a, now, pol).sameDecisions(decisions(pr, &b, now, pol))
}
