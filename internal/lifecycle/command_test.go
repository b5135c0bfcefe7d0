package lifecycle

import (
	"testing"
	"time"
)

func TestIsCommand(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{
		"/reopen":                      true,
		"/REOPEN":                      true,
		"  /reopen  ":                  true,
		"/reopen please, I pushed":     true,
		"Thanks!\n/reopen":             true,
		"/reopened":                    false,
		"> /reopen":                    false, // a quote asks nothing
		"could you /reopen this?":      false,
		"Comment `/reopen` to reopen.": false, // our closing comment names it
		"":                             false,
	} {
		if got := IsCommand(body, "/reopen"); got != want {
			t.Errorf("IsCommand(%q) = %v, want %v", body, got, want)
		}
	}
	if IsCommand("/reopen", "") {
		t.Error("an empty word (the command off) matched")
	}
}

// TestCommandsAreUnits: each command of the list is a unit, as a rule is:
// a name no other command or rule has, a word that is off in the zero
// policy, a Needs line that asks for the closed PRs when it is on (and
// for nothing when off), and a word for each reason it answers with, every
// word one some decision answers with. A second command is one more value
// in the list and one more row here (its row missing fails the test).
func TestCommandsAreUnits(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	const self = "github-actions[bot]"
	closed := []Event{
		{Kind: Commented, At: now.Add(-48 * time.Hour), Actor: self, Bot: true, Notice: CloseNotice},
		{Kind: Closed, At: now.Add(-47 * time.Hour), Actor: self, Bot: true},
		{Kind: Commented, At: now.Add(-time.Hour), Actor: "alice", Command: true},
	}
	type answers struct {
		facts ClosedFacts
		want  CommandVerdict
	}
	// Per command: a policy it is on under, and the closed PRs' facts each
	// answering verdict comes from (on the history above).
	rows := map[RuleName]struct {
		on      Policy
		answers []answers
	}{
		RuleReopen: {Policy{ReopenCommand: "/reopen", DaysBeforeClose: 30}, []answers{
			{ClosedFacts{}, CommandReopen}, {ClosedFacts{BranchGone: true}, CommandAnswer},
		}},
	}
	seen := map[RuleName]bool{}
	for _, r := range Rules() {
		seen[r.Name] = true
	}
	for _, c := range Commands() {
		row, ok := rows[c.Name]
		switch {
		case c.Name == "" || seen[c.Name]:
			t.Errorf("command %q: a name no rule or other command has, please", c.Name)
		case !ok:
			t.Errorf("command %q has no row here", c.Name)
			continue
		}
		seen[c.Name] = true
		if c.Word(Policy{}) != "" || c.Word(row.on) == "" {
			t.Errorf("command %s: word %q off, %q on; want it off only in the zero policy", c.Name, c.Word(Policy{}), c.Word(row.on))
		}
		var off, on Needs
		c.Needs(Policy{}, now, &off)
		c.Needs(row.on, now, &on)
		if off != (Needs{}) || on.Closed.IsZero() || !on.Closed.Before(now) {
			t.Errorf("command %s: needs %+v off, %+v on; want nothing off, closed PRs of a window on", c.Name, off, on)
		}
		if n := row.on.Needs(now); !n.Closed.Equal(on.Closed) {
			t.Errorf("command %s: Policy.Needs reads closed PRs since %v, want its line's %v", c.Name, n.Closed, on.Closed)
		}
		worded := map[Reason]bool{}
		for _, w := range c.Words {
			if w.Kind != TextAnswer || w.Text == "" {
				t.Errorf("command %s: word %+v, want an answer's text", c.Name, w)
			}
			worded[w.Reason] = true
		}
		answered := map[Reason]bool{}
		for _, a := range row.answers {
			d := c.Decide(PR{Number: 1, Author: "alice"}, closed, a.facts, Options{Self: []string{self}, Assume: AccessNone})
			answered[d.Reason] = true
			if d.Verdict != a.want || !worded[d.Reason] {
				t.Errorf("command %s on %+v: verdict %d, %q (worded %v); want %d, worded", c.Name, a.facts, d.Verdict, d.Reason, worded[d.Reason], a.want)
			}
		}
		for r := range worded {
			if !answered[r] {
				t.Errorf("command %s: its word for %q answers no decision of its row", c.Name, r)
			}
		}
	}
}
