package lifecycle

import (
	"strings"
	"time"
)

// EscalateNotice is our review escalation (see DecideEscalation): at most
// one per reviewers' turn. A value apart from the others, as ReopenNotice.
const EscalateNotice Notice = 65

// EscalateAction is what the review escalation needs on one PR.
type EscalateAction int

const (
	EscalateNone EscalateAction = iota
	// EscalatePost: request the review of the escalation reviewers, then
	// post the comment naming them (its marker makes it once per turn).
	EscalatePost
	// EscalateListed: due, with nobody to ask (escalation-reviewers
	// empty): the dashboard issue's Escalated section lists it; nothing
	// is written on the PR.
	EscalateListed
)

// EscalatedInTurn reports whether the reviewers' turn was escalated: our
// latest escalation came at or after the turn's start.
func (t Turn) EscalatedInTurn() bool {
	return t.Whose == TurnReviewers && !t.EscalatedAt.IsZero() && !t.EscalatedAt.Before(t.Since)
}

// EscalationDate is when a nudge posted at nudgedAt that nobody answered
// is escalated (days-before-review-escalation, quiet days not counted);
// zero when escalation is off or there was no nudge.
func (p Policy) EscalationDate(nudgedAt time.Time) time.Time {
	if p.DaysBeforeEscalation < 0 || nudgedAt.IsZero() {
		return time.Time{}
	}
	return p.Quiet.after(nudgedAt, time.Duration(p.DaysBeforeEscalation)*Day)
}

// EscalationTo is whom an escalation on pr asks (escalation-reviewers):
// never its author, a bot or an agent (a mention of an agent can start a
// paid run of it), nor anyone away (away-reviewers); busy are those left
// out because their GitHub status, as read this run (act.Busy), says busy
// at now. act nil: no status read.
func EscalationTo(pr PR, act *Activity, now time.Time, p Policy) (to, busy []string) {
	for _, r := range p.EscalationReviewers {
		r = strings.TrimSpace(r)
		if r == "" || strings.EqualFold(r, pr.Author) || p.IsBotOrAgent(r) ||
			ContainsFold(p.AwayReviewers, r) || ContainsFold(to, r) || ContainsFold(busy, r) {
			continue
		}
		if act != nil && act.busyAt(r, now) {
			busy = append(busy, r)
			continue
		}
		to = append(to, r)
	}
	return to, busy
}

// EscalationDue is when the review of a PR on its reviewers' turn is
// escalated: days-before-review-escalation after its nudge, or, with no
// nudge because nobody can be asked (every reviewer it waits on is away or
// busy at now, or withdrew: nobodyToAsk), when the nudge would have come;
// zero when neither.
func EscalationDue(pr PR, act *Activity, now time.Time, p Policy) time.Time {
	t := act.Turn
	if t.NudgedInTurn() {
		return p.EscalationDate(t.NudgedAt)
	}
	if t.Whose == TurnReviewers && nobodyToAsk(pr, act, now, p) {
		// The nudge was withheld: the escalation comes at once, when the
		// nudge falls due.
		return p.NudgeDate(t.Since)
	}
	return time.Time{}
}

// DecideEscalation applies the review escalation: once the review nudge of
// this reviewers' turn has gone unanswered for DaysBeforeEscalation days
// (the turn has not passed since), one escalation per turn; when every
// reviewer the PR waits on is away (away-reviewers) or busy on GitHub
// (Activity.Busy), or the PR waits on nobody since its reviewer withdrew
// (Activity.Withdrew), at once, on the day the nudge, withheld, would have
// come. It never
// writes in a quiet period; exempt and filtered-out PRs, and a PR closed
// since it was listed, are left alone, as by Decide. The nudge's own turn
// read is what it needs: a PR whose turn is unknown is not escalated.
func DecideEscalation(pr PR, act *Activity, now time.Time, p Policy) EscalateAction {
	if p.DaysBeforeEscalation < 0 || act == nil || act.ClosedNow {
		return EscalateNone
	}
	if _, exempt := exemption(pr, p); exempt {
		return EscalateNone
	}
	t := act.Turn
	if t.Whose != TurnReviewers {
		// A review is escalated, on the reviewers' turn only: the merge
		// nudge of an approved PR has no review to ask for, and our
		// escalation marks the reviewers' turn alone (EscalatedInTurn), so
		// there it would be posted again every run.
		return EscalateNone
	}
	due := EscalationDue(pr, act, now, p)
	if t.EscalatedInTurn() || due.IsZero() || now.Before(due) || p.Quiet.Paused(now) {
		return EscalateNone
	}
	if to, _ := EscalationTo(pr, act, now, p); len(to) == 0 {
		return EscalateListed
	}
	return EscalatePost
}
