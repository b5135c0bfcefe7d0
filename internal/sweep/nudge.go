package sweep

import (
	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The review nudge and whose turn it is (README: "Whose turn it is").

// ReasonReviewNudge is the reason of a nudge posted (or its label fixed).
const ReasonReviewNudge lifecycle.Reason = "waiting on reviewers: review nudge"

// needTurn: the policy needs each PR's turn, which only its timeline tells.
func (s *sweeper) needTurn() bool {
	return s.pol.StaleClock == lifecycle.ClockAuthorTurn || s.pol.DaysBeforeReviewNudge >= 0
}

// noteTurn records the turn of a PR whose timeline the run read, for the
// job summary, when the policy uses turns (otherwise only some PRs' turns
// are known, by chance).
func (s *sweeper) noteTurn(p planned) {
	if !s.needTurn() || p.act == nil || p.act.Turn.Whose == lifecycle.TurnUnknown {
		return
	}
	it := Item{Number: p.pr.Number, Title: p.pr.Title, URL: p.pr.URL, Action: p.d.Action, Reason: p.d.Reason}
	s.turnOf(&it, p.act)
	s.res.Turns = append(s.res.Turns, it)
	if s.res.TurnCounts == nil {
		s.res.TurnCounts = map[lifecycle.Whose]int{}
	}
	s.res.TurnCounts[it.Turn]++
}

func (s *sweeper) turnOf(it *Item, act *lifecycle.Activity) {
	if act != nil && act.Turn.Whose != lifecycle.TurnUnknown {
		it.Turn, it.TurnDays = act.Turn.Whose, daysSince(act.Turn.Since, s.now)
	}
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
	case lifecycle.NudgeLabel, lifecycle.NudgeUnlabel:
		return op{out: NudgeLabeled, pr: p.pr, d: d, act: p.act}, true
	}
	return op{}, false
}
