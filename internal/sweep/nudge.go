package sweep

import (
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The review nudge and whose turn it is (README: "Whose turn it is").

// turnLabelOp is the turn labels' write for a planned PR, if any: at most
// one per change of turn. A PR this run closes is left as it is.
func turnLabelOp(s *settings, p planned) (op, bool) {
	if p.d.Action == lifecycle.Close || p.act == nil || !p.labels.Writes() {
		return op{}, false
	}
	d := lifecycle.Decision{Action: lifecycle.Keep, Reason: turnLabelsReason(p.labels), InactiveSince: p.act.Turn.Since}
	return op{out: TurnLabeled, pr: p.pr, d: d, act: p.act, labels: p.labels}, true
}

// turnLabelsReason says which turn labels go on and off, and why.
func turnLabelsReason(l lifecycle.TurnLabels) lifecycle.Reason {
	var parts []string
	if l.Add != "" {
		parts = append(parts, strconv.Quote(l.Add)+" on")
	}
	if l.Remove != "" {
		parts = append(parts, strconv.Quote(l.Remove)+" off")
	}
	var conflict []string
	if l.AddConflict != "" {
		conflict = append(conflict, "a merge conflict seen: "+strconv.Quote(l.AddConflict)+" on")
	}
	if l.RemoveConflict != "" {
		conflict = append(conflict, "it merges again: "+strconv.Quote(l.RemoveConflict)+" off")
	}
	if len(parts) == 0 {
		return lifecycle.Reason(strings.Join(conflict, ", "))
	}
	return lifecycle.Reason("the turn passed: " + strings.Join(append(parts, conflict...), ", "))
}

// nudgeOp is the nudge's write for a planned PR, if any. A PR this run
// closes is not nudged.
func nudgeOp(s *settings, p planned) (op, bool) {
	if p.d.Action == lifecycle.Close {
		return op{}, false
	}
	d := lifecycle.Decision{Action: lifecycle.Keep, Reason: lifecycle.ReasonReviewNudge}
	if p.act != nil {
		d.InactiveSince = p.act.Turn.Since
		if p.act.Turn.Whose == lifecycle.TurnMaintainers {
			d.Reason = lifecycle.ReasonMergeNudge
		}
	}
	switch p.nudge {
	case lifecycle.NudgePost:
		return op{out: Nudged, pr: p.pr, d: d, act: p.act}, true
	case lifecycle.NudgeLabel:
		d.Reason = lifecycle.Reason("nudged in this turn: " + strconv.Quote(s.pol.NudgeLabel) + " on")
		return op{out: NudgeLabeled, pr: p.pr, d: d, act: p.act}, true
	case lifecycle.NudgeUnlabel:
		d.Reason = lifecycle.Reason("the turn passed: " + strconv.Quote(s.pol.NudgeLabel) + " off")
		return op{out: NudgeLabeled, pr: p.pr, d: d, act: p.act}, true
	}
	return op{}, false
}

// rerequestOp is the hand-back's write for a planned PR, if any: the
// review of those whose change request the author answered, requested
// again (rerequest-reviewers-on-answer). A PR this run closes is left as it
// is.
func rerequestOp(s *settings, p planned) (op, bool) {
	if len(p.rerequest) == 0 || p.d.Action == lifecycle.Close || p.act == nil {
		return op{}, false
	}
	d := lifecycle.Decision{Action: lifecycle.Keep, InactiveSince: p.act.Turn.Since,
		Reason: lifecycle.Reason("the author answered the change request: review requested again of " + strings.Join(p.rerequest, ", "))}
	return op{out: Rerequested, pr: p.pr, d: d, act: p.act, reviewers: p.rerequest}, true
}

// oneNotification is the nudge of a PR whose review this run requests
// again: GitHub notifies the reviewers of the request, so the nudge, due
// the same day, is not posted too. It waits days-before-review-nudge from
// the request (Turn.NudgeFrom), which the next run reads in the history.
func oneNotification(n lifecycle.NudgeAction) lifecycle.NudgeAction {
	if n == lifecycle.NudgePost {
		return lifecycle.NudgeNone
	}
	return n
}

// escalateOp is the escalation's write for a planned PR, if any: the
// escalation reviewers asked, once per turn. A PR this run closes is not
// escalated.
func escalateOp(s *settings, p planned) (op, bool) {
	if p.escalate != lifecycle.EscalatePost || p.d.Action == lifecycle.Close || p.act == nil {
		return op{}, false
	}
	to, busy := lifecycle.EscalationTo(p.pr, p.act, s.now, s.pol)
	why := lifecycle.ReasonEscalated
	if !p.act.Turn.NudgedInTurn() {
		why = lifecycle.ReasonEscalatedAway // no nudge was posted to go unanswered
	}
	d := lifecycle.Decision{Action: lifecycle.Keep, InactiveSince: p.act.Turn.Since,
		Reason: lifecycle.Reason(string(why) + " to " + strings.Join(to, ", "))}
	return op{out: Escalated, pr: p.pr, d: d, act: p.act, reviewers: to, busy: busy, why: why}, true
}
