package lifecycle

import (
	"testing"
	"time"
)

// TestDecideCommand: who may reopen what. Only stalepr's own stale close
// (its closing comment from its own login, then its close) is undone, on
// the command of the author, the agent's human of record or a
// maintainer; once per close.
func TestDecideCommand(t *testing.T) {
	t.Parallel()
	const self = "github-actions[bot]"
	at := func(h int) time.Time { return time.Date(2026, 11, 1, h, 0, 0, 0, time.UTC) }
	ourClose := []Event{
		{Kind: Commented, At: at(1), Actor: self, Bot: true, Notice: CloseNotice},
		{Kind: Closed, At: at(1).Add(time.Second), Actor: self, Bot: true},
	}
	cmd := func(h int, by, association string) Event {
		return Event{Kind: Commented, At: at(h), Actor: by, Command: true, Association: association}
	}
	with := func(evs ...Event) []Event { return append(append([]Event(nil), ourClose...), evs...) }
	pr := PR{Number: 7, Author: "alice"}
	agentPR := PR{Number: 8, Author: "Copilot", AuthorBot: true}
	delegated := Event{Kind: Edited, At: at(0), Actor: "bob", Assignee: "Copilot", AssigneeBot: true}
	o := Options{Self: []string{self}, Assume: AccessNone}
	for name, tc := range map[string]struct {
		pr      PR
		events  []Event
		facts   ClosedFacts
		access  map[string]Access
		verdict CommandVerdict
		reason  Reason
		by      string
		unsure  string
	}{
		"the author's command":          {pr, with(cmd(2, "alice", "CONTRIBUTOR")), ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "alice", ""},
		"no command":                    {pr, with(Event{Kind: Commented, At: at(2), Actor: "alice"}), ClosedFacts{}, nil, NoCommand, "", "", ""},
		"a command before the close":    {pr, append([]Event{cmd(0, "alice", "NONE")}, ourClose...), ClosedFacts{}, nil, NoCommand, "", "", ""},
		"answered already":              {pr, with(cmd(2, "alice", "NONE"), Event{Kind: Commented, At: at(3), Actor: self, Bot: true, Notice: CommandNotice}), ClosedFacts{}, nil, NoCommand, ReasonCommandAnswered, "", ""},
		"asked again after the answer":  {pr, with(cmd(2, "alice", "NONE"), Event{Kind: Commented, At: at(3), Actor: self, Bot: true, Notice: CommandNotice}, cmd(4, "alice", "NONE")), ClosedFacts{}, nil, NoCommand, ReasonCommandAnswered, "", ""},
		"an answer quoted by a person":  {pr, with(cmd(2, "alice", "NONE"), Event{Kind: Commented, At: at(3), Actor: "mallory", Notice: CommandNotice}), ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "alice", ""},
		"a third person's":              {pr, with(cmd(2, "mallory", "NONE")), ClosedFacts{}, nil, CommandIgnored, ReasonCommandStranger, "", ""},
		"a third person's, then author": {pr, with(cmd(2, "mallory", "NONE"), cmd(3, "alice", "NONE")), ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "alice", ""},
		"the repository's owner":        {pr, with(cmd(2, "octo", "OWNER")), ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "octo", ""},
		"a member, access unknown":      {pr, with(cmd(2, "maya", "MEMBER")), ClosedFacts{}, nil, CommandIgnored, ReasonCommandStranger, "", "maya"},
		"a member with write access":    {pr, with(cmd(2, "maya", "MEMBER")), ClosedFacts{}, map[string]Access{"maya": AccessWrite}, CommandReopen, ReasonCommandReopen, "maya", ""},
		"a member without it":           {pr, with(cmd(2, "maya", "MEMBER")), ClosedFacts{}, map[string]Access{"maya": AccessNone}, CommandIgnored, ReasonCommandStranger, "", ""},
		"a bot's command":               {pr, with(Event{Kind: Commented, At: at(2), Actor: "renovate[bot]", Bot: true, Command: true}), ClosedFacts{}, nil, NoCommand, "", "", ""},
		"the agent's human of record":   {agentPR, append([]Event{delegated}, with(cmd(2, "bob", "MEMBER"))...), ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "bob", ""},
		"a person's close": {pr, []Event{{Kind: Closed, At: at(1), Actor: "maya"}, cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandNotOurs, "", ""},
		"a person's close after our comment": {pr, []Event{ourClose[0], {Kind: Closed, At: at(1).Add(time.Minute), Actor: "maya"}, cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandNotOurs, "", ""},
		"our close without our comment": {pr, []Event{ourClose[1], cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandNotOurs, "", ""},
		"our comment quoted, a bot's close": {pr, []Event{{Kind: Commented, At: at(1), Actor: "mallory", Notice: CloseNotice}, {Kind: Closed, At: at(1).Add(time.Second), Actor: "other[bot]", Bot: true}, cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandNotOurs, "", ""},
		"the intake clock's close": {pr, []Event{{Kind: Commented, At: at(1), Actor: self, Bot: true, Notice: CloseNotice, Rule: RuleIntake}, ourClose[1], cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandKeptClosed, "", ""},
		"a stale close that names its rule": {pr, []Event{{Kind: Commented, At: at(1), Actor: self, Bot: true, Notice: CloseNotice, Rule: RuleAuthorTurn}, ourClose[1], cmd(2, "alice", "NONE")},
			ClosedFacts{}, nil, CommandReopen, ReasonCommandReopen, "alice", ""},
		"our comment before a reopening": {pr, []Event{ourClose[0], ourClose[1], {Kind: Reopened, At: at(2), Actor: "maya"}, {Kind: Closed, At: at(3), Actor: self, Bot: true}, cmd(4, "alice", "NONE")},
			ClosedFacts{}, nil, CommandIgnored, ReasonCommandNotOurs, "", ""},
		"merged":       {pr, with(cmd(2, "alice", "NONE")), ClosedFacts{Merged: true}, nil, CommandIgnored, ReasonCommandMerged, "", ""},
		"locked":       {PR{Number: 7, Author: "alice", Locked: true}, with(cmd(2, "alice", "NONE")), ClosedFacts{}, nil, CommandIgnored, ReasonLocked, "", ""},
		"branch gone":  {pr, with(cmd(2, "alice", "NONE")), ClosedFacts{BranchGone: true}, nil, CommandAnswer, ReasonCommandGone, "alice", ""},
		"never closed": {pr, []Event{cmd(2, "alice", "NONE")}, ClosedFacts{}, nil, NoCommand, "", "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			o := o
			o.Access = tc.access
			got := decideReopen(tc.pr, tc.events, tc.facts, o)
			if got.Verdict != tc.verdict || got.Reason != tc.reason || got.By != tc.by || got.Unsure != tc.unsure {
				t.Errorf("DecideCommand = verdict %d, %q, by %q, unsure %q; want %d, %q, by %q, unsure %q",
					got.Verdict, got.Reason, got.By, got.Unsure, tc.verdict, tc.reason, tc.by, tc.unsure)
			}
		})
	}
}
