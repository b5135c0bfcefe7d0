package lifecycle

import "time"

// RuleName names a rule of the lifecycle. A close's marker records the
// rule that closed the PR (notice.CloseMarker), so the names are a
// contract: a later version keeps reading every name an earlier one wrote.
type RuleName string

// The rules, by name.
const (
	// RuleExempt leaves alone what the policy exempts or filters out.
	RuleExempt RuleName = "exempt"
	// RuleClosedSince leaves alone a PR closed since it was listed.
	RuleClosedSince RuleName = "closed-since"
	// RuleInactivity is the stale clock: mark after days-before-stale
	// without activity, close days-before-close after (everyone's clock
	// and coding agents' own, agent-days-before-stale).
	RuleInactivity RuleName = "inactivity"
	// RuleAuthorTurn is the stale clock under stale-clock: author-turn:
	// only the author's turn ages (turn.go).
	RuleAuthorTurn RuleName = "author-turn"
	// RuleIntake is the intake clock: an unsolicited PR that links no
	// issue a maintainer accepted (days-before-intake-close).
	RuleIntake RuleName = "intake"
)

// RuleOn reports whether the rule named closes PRs under p, the policy
// For a PR: a close of ours whose marker names a rule still on is one the
// sweep would make today, and the closure audit trusts it (AuditClose).
// Off are the rules that never close, a clock that closes nothing
// (days-before-close -1, the PR's own clock: everyone's or an agent's),
// and a name this version does not know (a later version's marker), whose
// closes the audit replays.
func (p Policy) RuleOn(r RuleName) bool {
	switch r {
	case RuleInactivity:
		return p.StaleClock != ClockAuthorTurn && p.DaysBeforeClose >= 0
	case RuleAuthorTurn:
		return p.StaleClock == ClockAuthorTurn && p.DaysBeforeClose >= 0
	case RuleIntake:
		return p.Intake.On
	}
	return false
}

// Facts are what a rule decides on: a PR as listed, its activity when
// read (nil when only the listing is known), the run's instant and the
// policy For the PR.
type Facts struct {
	PR     PR
	Act    *Activity
	Now    time.Time
	Policy Policy
}

// Rule is one rule: its name, the facts the run reads for it, and its
// decision. Decide walks the rules in order; the first whose Decide
// answers decides the PR.
type Rule struct {
	Name RuleName
	// Needs adds to n what the run must read for the rule under p at now;
	// nil when it reads nothing beyond the listing.
	Needs func(p Policy, now time.Time, n *Needs)
	// Decide decides the PR, or answers false to leave it to the next rule.
	Decide func(f Facts) (Decision, bool)
}

// Needs is what a run must read, derived from the policy by the rules
// (Policy.Needs): each rule adds its own line.
type Needs struct {
	ListOpen  bool      // list the open PRs at all
	ReadAll   bool      // read the open listing to its end, not stopping at Cutoff
	Cutoff    time.Time // the open listing (oldest update first) may stop at it; zero with ListOpen false
	Turn      bool      // each PR's turn, which only its timeline tells
	Checks    bool      // the head commits' checks
	Assignees bool      // each PR's assignees
	Links     bool      // each PR's closing issue references (the intake clock)
}
