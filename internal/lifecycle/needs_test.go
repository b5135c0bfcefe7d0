package lifecycle_test

import (
	"fmt"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestNeeds: what a run reads follows from the policy, each input that
// reads something adding its line: the open listing when a clock marks or
// a feature reads the turns, to its end when the turn is read or
// activity-from: people counts, the checks only where they change a turn
// something reads, the assignees where a rule reads them.
func TestNeeds(t *testing.T) {
	type knobs struct {
		marks, agentsSooner, authorTurn, nudge, turnLabel, rerequest, checks, people, ignoreUpdates, assignees bool
	}
	for i := 0; i < 1<<10; i++ {
		bit := func(n int) bool { return i&(1<<n) != 0 }
		k := knobs{bit(0), bit(1), bit(2), bit(3), bit(4), bit(5), bit(6), bit(7), bit(8), bit(9)}
		p := policy(func(p *lifecycle.Policy) {
			p.DaysBeforeReviewNudge = -1
			if !k.marks {
				p.DaysBeforeStale = -1
			}
			if k.agentsSooner {
				p.AgentClock = lifecycle.AgentClock{On: true, DaysBeforeStale: 14, DaysBeforeClose: 5}
			}
			if k.authorTurn {
				p.StaleClock = lifecycle.ClockAuthorTurn
			}
			if k.nudge {
				p.DaysBeforeReviewNudge = 3
			}
			if k.turnLabel {
				p.ReviewersTurnLabel = "waiting-on-review"
			}
			p.RerequestOnAnswer = k.rerequest
			p.AuthorTurnWhenChecksFail = k.checks
			if k.people {
				p.ActivityFrom = lifecycle.People
			}
			p.IgnoreUpdates = k.ignoreUpdates
			p.IncludeOnlyAssigned = k.assignees
		})
		marks := k.marks || k.agentsSooner
		turn := k.authorTurn || k.nudge || k.turnLabel || k.rerequest
		want := lifecycle.Needs{
			ListOpen:  marks || k.nudge || k.turnLabel || k.rerequest,
			Turn:      turn,
			Checks:    k.checks && turn,
			Assignees: k.assignees,
		}
		want.ReadAll = want.ListOpen && (turn || k.people && !k.ignoreUpdates)
		switch {
		case k.agentsSooner:
			want.Cutoff = now.Add(-14 * lifecycle.Day)
		case k.marks:
			want.Cutoff = now.Add(-staleDays * lifecycle.Day)
		}
		if got := p.Needs(now); got != want {
			t.Errorf("%+v:\n got %s\nwant %s", k, needs(got), needs(want))
		}
	}
}

func needs(n lifecycle.Needs) string {
	return fmt.Sprintf("list %v, all %v, cutoff %s, turn %v, checks %v, assignees %v",
		n.ListOpen, n.ReadAll, fmtTime(n.Cutoff), n.Turn, n.Checks, n.Assignees)
}
