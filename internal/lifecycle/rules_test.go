package lifecycle_test

import (
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// TestDecideNamesItsRule: the first rule of the list that answers decides,
// and the decision names it, whatever its action (a quiet period's hold
// included).
func TestDecideNamesItsRule(t *testing.T) {
	closedNow := &lifecycle.Activity{LastPersonAt: daysAgo(1), ClosedNow: true}
	pinned := func(p *lifecycle.Policy) { p.ExemptLabels = []string{"pinned"} }
	runDecide(t, []decideCase{
		{name: "exempt before closed since", pr: pr(daysAgo(1), "pinned"), act: closedNow, policy: policy(pinned),
			want: lifecycle.Skip, reason: lifecycle.ReasonExemptLabel, rule: lifecycle.RuleExempt},
		{name: "closed since before the stale clocks", pr: pr(daysAgo(60)), act: closedNow, policy: policy(authorTurn),
			want: lifecycle.Skip, reason: lifecycle.ReasonClosedSince, rule: lifecycle.RuleClosedSince},
		{name: "inactivity marks", pr: pr(daysAgo(60)), policy: policy(),
			want: lifecycle.Mark, reason: lifecycle.ReasonInactive, rule: lifecycle.RuleInactivity},
		{name: "inactivity keeps", pr: pr(daysAgo(1)), policy: policy(),
			want: lifecycle.Keep, reason: lifecycle.ReasonActive, rule: lifecycle.RuleInactivity},
		{name: "inactivity, marking off", pr: pr(daysAgo(60)), policy: policy(func(p *lifecycle.Policy) { p.DaysBeforeStale = -1 }),
			want: lifecycle.Keep, reason: lifecycle.ReasonNeverStale, rule: lifecycle.RuleInactivity},
		{name: "author-turn marks", pr: pr(daysAgo(1)), act: turnAct(lifecycle.TurnAuthor, daysAgo(31)), policy: policy(authorTurn),
			want: lifecycle.Mark, reason: lifecycle.ReasonWaitingOnAuthor, rule: lifecycle.RuleAuthorTurn},
		{name: "author-turn asks for the turn", pr: pr(daysAgo(40)), policy: policy(authorTurn),
			want: lifecycle.NeedDetail, reason: lifecycle.ReasonActive, rule: lifecycle.RuleAuthorTurn},
	})
}

// TestRuleNamesAreAContract: our close marker records the name of the rule
// that closed a PR, and every later version reads what an earlier one
// wrote, so a name that shipped never changes (a renamed rule would have
// its earlier closes replayed by the closure audit as if another bot's).
func TestRuleNamesAreAContract(t *testing.T) {
	for got, want := range map[lifecycle.RuleName]string{
		lifecycle.RuleInactivity: "inactivity",
		lifecycle.RuleAuthorTurn: "author-turn",
		lifecycle.RuleIntake:     "intake",
	} {
		if string(got) != want {
			t.Errorf("rule %q renamed %q: closes its earlier versions made would no longer be trusted", want, got)
		}
	}
}
