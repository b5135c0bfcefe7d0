package lifecycle

import "time"

// inactivityRule is the stale clock of time without activity
// (activity-from says whose; stale-clock: inactivity, the default):
// everyone's days and, for coding agents' PRs, their own (Policy.For).
var inactivityRule = Rule{
	Name:  RuleInactivity,
	Needs: inactivityNeeds,
	Decide: func(f Facts) (Decision, bool) {
		if f.Policy.StaleClock == ClockAuthorTurn {
			return Decision{}, false
		}
		return inactivityClock.decide(f), true
	},
}

var inactivityClock = staleClock{stale: personUnstales, waiting: ReasonInactive, due: ReasonCloseDue}

// personUnstales un-stales a PR a person acted on after the mark, with
// remove-stale-when-updated.
func personUnstales(f Facts, personSince bool) (Decision, bool, bool) {
	if personSince && f.Policy.RemoveStaleWhenUpdated {
		act := f.Act
		return Decision{Action: Unstale, Reason: ReasonPersonActivity, InactiveSince: act.LastPersonAt, MarkedAt: act.MarkedAt}, false, true
	}
	return Decision{}, personSince, false
}

// inactivityNeeds: with activity-from: people, the open listing is read to
// its end, not only to the cutoff: a PR updated after it may have seen no
// person since.
func inactivityNeeds(p Policy, now time.Time, n *Needs) {
	if p.StaleClock == ClockAuthorTurn {
		return
	}
	if staleNeeds(p, now, n) && p.ActivityFrom == People && !p.IgnoreUpdates {
		n.ReadAll = true
	}
}
