package lifecycle

import "time"

// RuleInactivity is the stale clock: mark after days-before-stale
// without activity, close days-before-close after (everyone's clock
// and coding agents' own, agent-days-before-stale).
const RuleInactivity RuleName = "inactivity"

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
	Closes: func(p Policy) bool { return p.StaleClock != ClockAuthorTurn && p.DaysBeforeClose >= 0 },
}

var inactivityClock = staleClock{stale: personUnstales, waiting: inactiveReason, missing: noticeMissing, due: ReasonCloseDue}

// inactiveReason is the reason of a mark, or of the close of a PR never
// marked (days-before-close 0): under ignore-updates the days count from
// the PR's opening, whatever happened since, and its words say so.
func inactiveReason(p Policy) Reason {
	if p.IgnoreUpdates {
		return ReasonOpenTooLong
	}
	return ReasonInactive
}

// noticeMissing is the reason of a notice posted late (Notify).
func noticeMissing(p Policy) Reason {
	if p.IgnoreUpdates {
		return ReasonNoticeMissingOpen
	}
	return ReasonNoticeMissing
}

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
