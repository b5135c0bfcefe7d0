package lifecycle

import "time"

// RuleName names a rule of the lifecycle. A close's marker records the
// rule that closed the PR (notice.CloseMarker), so the names are a
// contract: a later version keeps reading every name an earlier one wrote.
type RuleName string

// Each rule's name is declared in its own file (rule_<name>.go).

// RuleOn reports whether the rule named closes PRs under p, the policy
// For a PR (the rule's Closes): a close of ours whose marker names a rule
// still on is one the sweep would make today, and the closure audit trusts
// it (AuditClose). A name this version does not know (a later version's
// marker) is off: the audit replays its closes.
func (p Policy) RuleOn(name RuleName) bool {
	r, _ := RuleNamed(name)
	return r.Closes != nil && r.Closes(p)
}

// RuleNamed is the rule named name, as the sweep finds what a decision's
// rule says of its texts and its clock; false (the zero Rule, which
// closes nothing and posts the stale clock's texts) for a name this
// version does not know.
func RuleNamed(name RuleName) (Rule, bool) { return ruleNamed(rules, name) }

func ruleNamed(rules []Rule, name RuleName) (Rule, bool) {
	for _, r := range rules {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
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

// Rule is one rule: its name, the facts the run reads for it, its
// decision, its words, its stance in the closure audit, and what its
// closing comment and its forecast are when not the stale clocks'. The
// sweep finds them by the decision's Rule (RuleNamed). Decide walks
// the rules in order; the first whose Decide answers decides the PR.
type Rule struct {
	Name RuleName
	// Needs adds to n what the run must read for the rule under p at now;
	// nil when it reads nothing beyond the listing.
	Needs func(p Policy, now time.Time, n *Needs)
	// Decide decides the PR, or answers false to leave it to the next rule;
	// a rule not due yet answers false with its DueAt, which the deciding
	// rule's Keep takes when sooner (the forecast's date).
	Decide func(f Facts) (Decision, bool)
	// Words are the default texts of the rule's decisions that post one:
	// each reason it gives for a text has its word (notice.Text builds its
	// table from them; TestEveryReasonWorded fails until it does).
	Words []Word
	// Closes is the rule's stance in the closure audit: whether it closes
	// PRs under p, so that a close of ours it made (its name in our close
	// marker) is one the sweep would make today and is trusted, not
	// replayed. nil: the rule never closes.
	Closes func(p Policy) bool
	// CloseKind is the kind of text of the rule's closing comment, and
	// with it the message input that replaces its words; zero: the stale
	// clocks' (TextClose, close-pr-message).
	CloseKind TextKind
	// CloseDays is what its texts say in {{days-before-close}} under p:
	// the days its close counts, not the stale clock's when it is not on
	// it; nil: DaysBeforeClose.
	CloseDays func(p Policy) int
	// Next is the step after its decision d at now, for a rule on a clock
	// of its own, whose forecast is not the stale clocks' and whose PRs,
	// decided and not closed, the queue holds apart (OwnClock); nil: the
	// stale clocks' (lifecycle.Next).
	Next func(d Decision, now time.Time, p Policy) Step
	// KeepsClosed: the reopen command does not undo the rule's close, whose
	// way back is its own (its closing comment says which); false: the
	// author's /reopen reopens it, as the stale clocks' closes.
	KeepsClosed bool
}

// ClosingText is the kind of text of the rule's closing comment.
func (r Rule) ClosingText() TextKind {
	if r.CloseKind == 0 {
		return TextClose
	}
	return r.CloseKind
}

// DaysToClose is what the rule's texts say in {{days-before-close}} under
// p, the policy For the PR.
func (r Rule) DaysToClose(p Policy) int {
	if r.CloseDays == nil {
		return p.DaysBeforeClose
	}
	return r.CloseDays(p)
}

// OwnClock reports whether a PR the rule decided is on a clock of its own
// (its Next), not the stale clocks'.
func (r Rule) OwnClock() bool { return r.Next != nil }

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
	// Closed: the closed PRs updated since it, the most recently updated
	// first, and their histories, for the commands (Command.Needs); zero:
	// none.
	Closed time.Time
}

// closedSince widens the closed PRs read to those updated since since.
func (n *Needs) closedSince(since time.Time) {
	if n.Closed.IsZero() || since.Before(n.Closed) {
		n.Closed = since
	}
}
