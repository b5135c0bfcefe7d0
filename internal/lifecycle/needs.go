package lifecycle

import "time"

// Needs is what a run under p at now must read: each rule of the list
// (rules.go) adds its line, then each feature that reads beyond Decide's
// rules (readers), then each command on closed PRs (Commands). The sweep
// asks it once and reads nothing else.
func (p Policy) Needs(now time.Time) Needs { return needsOf(rules, p, now) }

// needsOf is Needs under the list of rules given.
func needsOf(rules []Rule, p Policy, now time.Time) Needs {
	var n Needs
	for _, r := range rules {
		if r.Needs != nil {
			r.Needs(p, now, &n)
		}
	}
	for _, needs := range readers {
		needs(p, now, &n)
	}
	for _, c := range commands {
		c.Needs(p, now, &n)
	}
	return n
}

// readers are the features beside Decide's rules that read facts, each
// adding its line to Needs as a rule does.
var readers = []func(p Policy, now time.Time, n *Needs){
	// The review nudge (days-before-review-nudge) and its escalation.
	func(p Policy, _ time.Time, n *Needs) {
		if p.DaysBeforeReviewNudge >= 0 {
			n.turnsOfOpen()
		}
	},
	// The turn labels (author-turn-label, reviewers-turn-label).
	func(p Policy, _ time.Time, n *Needs) {
		if p.AuthorTurnLabel != "" || p.ReviewersTurnLabel != "" {
			n.turnsOfOpen()
		}
	},
	// The re-request of a review the author answered
	// (rerequest-reviewers-on-answer).
	func(p Policy, _ time.Time, n *Needs) {
		if p.RerequestOnAnswer {
			n.turnsOfOpen()
		}
	},
	// author-turn-when-checks-fail: the checks change the turn, so they are
	// read when something reads the turn (after every line above), besides
	// a rule's own reading of them.
	func(p Policy, _ time.Time, n *Needs) {
		n.Checks = n.Checks || p.AuthorTurnWhenChecksFail && n.Turn
	},
}

// turnsOfOpen is the need of a feature that reads every open PR's turn:
// the open listing read to its end, since a bot's comment moves updated_at
// without changing the turn.
func (n *Needs) turnsOfOpen() {
	n.ListOpen, n.ReadAll, n.Turn = true, true, true
}

// staleNeeds is the need of a stale clock: when some class's clock marks,
// the open PRs listed oldest first to the cutoff of the soonest (an
// agent's PR is decided on its own clock, Policy.For), so that the listing
// misses no PR that may be stale. It reports whether the clock marks.
func staleNeeds(p Policy, now time.Time, n *Needs) bool {
	cutoff, marks := p.soonest().StaleCutoff(now)
	if marks {
		n.ListOpen, n.Cutoff = true, cutoff
	}
	return marks
}
