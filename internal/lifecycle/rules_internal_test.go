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

// TestARuleCarriesItsCloseAndClock: a rule that closes with a kind of
// text of its own, counts its own days and keeps its own clock gets them
// where the sweep looks a decision's rule up (RuleNamed), not the stale
// close's kind and days and the stale clocks' forecast; a rule without
// them, and a name no rule has (a later version's marker), get the stale
// clocks'.
func TestARuleCarriesItsCloseAndClock(t *testing.T) {
	const ownKind TextKind = 100 // a kind of text no rule of the list posts
	now := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	step := Step{Action: Close, At: now.Add(5 * Day)}
	own := Rule{Name: "own-close", CloseKind: ownKind, CloseDays: func(Policy) int { return 14 },
		Next: func(Decision, time.Time, Policy) Step { return step }}
	list := append(Rules(), own, Rule{Name: "plain-close"})
	p := Policy{DaysBeforeStale: 90, DaysBeforeClose: 30, Intake: Intake{On: true, DaysBeforeClose: 7}}
	for _, c := range []struct {
		name  RuleName
		found bool
		kind  TextKind
		days  int
		clock bool
	}{
		{"own-close", true, ownKind, 14, true},
		{"plain-close", true, TextClose, 30, false},
		{"a-later-version", false, TextClose, 30, false},
		{RuleIntake, true, TextIntakeClose, 7, true},
		{RuleInactivity, true, TextClose, 30, false},
	} {
		r, found := ruleNamed(list, c.name)
		if found != c.found || r.ClosingText() != c.kind || r.DaysToClose(p) != c.days || r.OwnClock() != c.clock {
			t.Errorf("%s: found %v, closing text %d, %d days, own clock %v; want %v, %d, %d, %v",
				c.name, found, r.ClosingText(), r.DaysToClose(p), r.OwnClock(), c.found, c.kind, c.days, c.clock)
		}
	}
	if r, _ := RuleNamed(RuleIntake); r.ClosingText() != TextIntakeClose || r.DaysToClose(p) != 7 {
		t.Errorf("RuleNamed: the intake clock closes with text %d after %d days, want %d after 7", r.ClosingText(), r.DaysToClose(p), TextIntakeClose)
	}
	if r, _ := ruleNamed(list, own.Name); r.OwnClock() && r.Next(Decision{}, now, p) != step {
		t.Errorf("own-close's next step %v, want its own %v", r.Next(Decision{}, now, p), step)
	}
}
