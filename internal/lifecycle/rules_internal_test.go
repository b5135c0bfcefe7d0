package lifecycle

import (
	"testing"
	"time"
)

// The rule shape holds for a rule the list does not have yet: these tests
// add one to a copy of the list (never to rules itself, which the
// package's parallel tests read).

// TestNeedsKeepsARuleOwnChecks: a rule that reads the head commits' checks
// for its own decision gets them, whatever the turn's readers say after
// it: the checks reader once assigned n.Checks and erased the rule's line.
func TestNeedsKeepsARuleOwnChecks(t *testing.T) {
	readsChecks := Rule{Name: "reads-checks", Needs: func(_ Policy, _ time.Time, n *Needs) { n.ListOpen, n.Checks = true, true }}
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	p := Policy{DaysBeforeStale: 90, DaysBeforeClose: 30, StaleLabel: "stale", DaysBeforeReviewNudge: -1, DaysBeforeEscalation: -1}
	if n := needsOf(append(Rules(), readsChecks), p, now); !n.Checks {
		t.Errorf("a rule's own reading of the checks was dropped: %+v", n)
	}
	if n := needsOf(Rules(), p, now); n.Checks {
		t.Errorf("checks read with no rule asking: %+v", n)
	}
}

// TestDecideTakesTheDateOfARuleNotDueYet: a rule whose step is not due
// leaves the PR to the next rule and its date to the forecast: the
// deciding rule's Keep carries the sooner date, which Next confirms.
func TestDecideTakesTheDateOfARuleNotDueYet(t *testing.T) {
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	soon := now.Add(3 * Day)
	notYet := Rule{Name: "not-yet", Decide: func(Facts) (Decision, bool) { return Decision{DueAt: soon}, false }}
	list := append([]Rule{notYet}, Rules()...)
	p := Policy{DaysBeforeStale: 90, DaysBeforeClose: 30, StaleLabel: "stale", DaysBeforeReviewNudge: -1, DaysBeforeEscalation: -1}
	pr := PR{Number: 1, Author: "alice", CreatedAt: now.Add(-10 * Day), UpdatedAt: now.Add(-10 * Day)}
	d := decideWith(list, pr, nil, now, p)
	if d.Action != Keep || d.Rule != RuleInactivity || !d.DueAt.Equal(soon) {
		t.Errorf("decided %v by %s due %v, want keep by the stale clock, due %v (the sooner rule's date)", d, d.Rule, d.DueAt, soon)
	}
	if d := decideWith(Rules(), pr, nil, now, p); !d.DueAt.Equal(p.MarkDate(pr.UpdatedAt)) {
		t.Errorf("without the rule due %v, want the mark's %v", d.DueAt, p.MarkDate(pr.UpdatedAt))
	}
}
