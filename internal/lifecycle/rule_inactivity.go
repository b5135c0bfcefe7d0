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
	Words:  inactivityWords,
	Closes: func(p Policy) bool { return p.StaleClock != ClockAuthorTurn && p.DaysBeforeClose >= 0 },
}

// inactivityWords: a mark under ignore-updates says how long the PR has
// been open (its days count from the opening); a PR never closed is told
// so, not "closed on never"; a PR closed the run that finds it stale
// (days-before-close 0, never marked) is told how long it was inactive or
// open, not how long it stayed marked.
var inactivityWords = []Word{
	{TextStale, ReasonInactive, false, DefaultStale},
	{TextStale, ReasonInactive, true, DefaultStaleNoClose},
	{TextStale, ReasonNoticeMissing, false, DefaultStale},
	{TextStale, ReasonNoticeMissing, true, DefaultStaleNoClose},
	{TextStale, ReasonOpenTooLong, false, DefaultStaleOpen},
	{TextStale, ReasonOpenTooLong, true, DefaultStaleOpenNoClose},
	{TextStale, ReasonNoticeMissingOpen, false, DefaultStaleOpen},
	{TextStale, ReasonNoticeMissingOpen, true, DefaultStaleOpenNoClose},
	{TextClose, ReasonCloseDue, false, DefaultClose},
	{TextClose, ReasonCloseDueSincePerson, false, DefaultClose},
	{TextClose, ReasonInactive, false, DefaultCloseNow},
	{TextClose, ReasonOpenTooLong, false, DefaultCloseNowOpen},
}

// DefaultStale and DefaultClose are our own wording, and the defaults of
// stale-pr-message and close-pr-message; they use placeholders so they
// never drift from the configured numbers.
const (
	DefaultStale = staleInactive + staleCloses + staleConflicts
	DefaultClose = "Closing this pull request: it stayed marked `{{stale-label}}` for {{days-before-close}} days without activity. " + thanks
)

// The other defaults of close-pr-message, each true where DefaultClose is
// not: DefaultCloseNow closes a PR never marked (days-before-close 0 closes
// in the run that finds it stale).
const (
	DefaultCloseNow = "Closing this pull request: it has had no activity for {{days-inactive}} days. " + thanks
	// DefaultCloseNowOpen closes a PR never marked under ignore-updates:
	// its days count from its opening, not from its last activity.
	DefaultCloseNowOpen = "Closing this pull request: it has been open for {{days-inactive}} days. " + thanks
)

// DefaultStaleNoClose is the stale notice's default on a PR that is never
// closed (days-before-close -1, or an agent's PR on its own clock with
// -1): it names no close date, which would read "closed on never".
const DefaultStaleNoClose = staleInactive + staleNoClose + staleConflicts

// DefaultStaleOpen and DefaultStaleOpenNoClose are the stale notice's
// defaults under ignore-updates: the days count from the PR's opening (or
// its last reopening), and it may have had activity since.
const (
	DefaultStaleOpen        = staleOpen + staleCloses + staleConflicts
	DefaultStaleOpenNoClose = staleOpen + staleNoClose + staleConflicts
)

const (
	staleOpen      = "This pull request has been open for {{days-inactive}} days, so it is now marked `{{stale-label}}`.\n\n"
	staleInactive  = "This pull request has had no activity for {{days-inactive}} days, so it is now marked `{{stale-label}}`.\n\n"
	staleCloses    = "Any comment keeps it open: it will be closed on {{close-date}} otherwise. "
	staleNoClose   = "It will not be closed for being stale. "
	staleConflicts = "If it has merge conflicts, please update it from its base branch."
)

var inactivityClock = staleClock{stale: personUnstales, waiting: inactiveReason, missing: noticeMissing, due: ReasonCloseDue,
	told: inactivityTold}

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

// inactivityTold is what a notice posted late counts from: what the mark
// counted (lastActivity), as the history tells it now that the label moved
// updated_at. Creation, a reopening and a person's activity count under
// every clock but ignore-updates', which counts only the first two; under
// activity-from: anyone, anything else the history dates too (a bot's
// comment), so the days are never more than the PR was inactive. Activity
// since the mark (a person's where the label stays on, a bot's) only
// shortens them.
func inactivityTold(f Facts) time.Time {
	pr, act, p := f.PR, f.Act, f.Policy
	since := Later(pr.CreatedAt, act.ReopenedAt)
	switch {
	case p.IgnoreUpdates:
		return since
	case p.ActivityFrom == People:
		return Later(since, act.LastPersonAt)
	}
	return Later(Later(since, act.LastPersonAt), act.TouchedAt)
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
