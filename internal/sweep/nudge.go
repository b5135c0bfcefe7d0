package sweep

import (
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The review nudge and whose turn it is (README: "Whose turn it is").

// ReasonReviewNudge is the reason of a nudge posted.
const ReasonReviewNudge lifecycle.Reason = "waiting on reviewers: review nudge"

// needTurn reports whether the policy needs each PR's turn, which only its timeline tells.
func (s *sweeper) needTurn() bool {
	return s.pol.StaleClock == lifecycle.ClockAuthorTurn || s.pol.DaysBeforeReviewNudge >= 0 || s.turnLabelsOn()
}

// turnLabelsOn reports whether author-turn-label or reviewers-turn-label is set.
func (s *sweeper) turnLabelsOn() bool {
	return s.pol.AuthorTurnLabel != "" || s.pol.ReviewersTurnLabel != ""
}

// turnLabelOp is the turn labels' write for a planned PR, if any: at most
// one per change of turn. A PR this run closes is left as it is.
func (s *sweeper) turnLabelOp(p planned) (op, bool) {
	if p.d.Action == lifecycle.Close || p.act == nil || p.labels.Add == "" && p.labels.Remove == "" {
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
	return lifecycle.Reason("the turn passed: " + strings.Join(parts, ", "))
}

// noteTurn records the turn of a PR whose timeline the run read on its
// QueueItem, for the queue views, when the policy uses turns (otherwise
// only some PRs' turns are known, by chance). It comes before settle, whose
// mark date depends on the turn under stale-clock: author-turn.
func (s *sweeper) noteTurn(p planned) {
	if !s.needTurn() || p.act == nil || p.act.Turn.Whose == lifecycle.TurnUnknown {
		return
	}
	it := s.queued(p.pr.Number)
	if it == nil {
		return
	}
	t := p.act.Turn
	// Since when the clock counts (the author's last action on a draft
	// they keep working on): what the notice says too.
	it.Turn, it.TurnSince = t.Whose, t.ClockFrom()
	if t.NudgedInTurn() {
		it.NudgedAt = t.NudgedAt // nudged in this turn already, by an earlier run
	}
	it.NudgeDue = s.nudgeDue(p.pr, p.act)
}

// nudgeDue is when the reviewers of a PR get nudged if its turn does not
// pass; zero when they will not be (nudge off, not their turn, nudged in it
// already, exempt). DecideNudge asked at that time answers by the same
// rules the nudge itself follows.
func (s *sweeper) nudgeDue(pr lifecycle.PR, act *lifecycle.Activity) time.Time {
	if s.pol.DaysBeforeReviewNudge < 0 || act.Turn.Whose != lifecycle.TurnReviewers {
		return time.Time{}
	}
	due := s.pol.Due(s.pol.NudgeDate(act.Turn.Since), s.now)
	if lifecycle.DecideNudge(pr, act, lifecycle.Later(due, s.now), s.pol) != lifecycle.NudgePost {
		return time.Time{}
	}
	return due
}

// nudgeOp is the nudge's write for a planned PR, if any. A PR this run
// closes is not nudged.
func (s *sweeper) nudgeOp(p planned) (op, bool) {
	if p.d.Action == lifecycle.Close {
		return op{}, false
	}
	d := lifecycle.Decision{Action: lifecycle.Keep, Reason: ReasonReviewNudge}
	if p.act != nil {
		d.InactiveSince = p.act.Turn.Since
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
