package lifecycle

// rules are the lifecycle's rules in the order Decide asks them: the
// first that answers decides a PR. A rule is a file of its own,
// rule_<name>.go (its Rule value: name, Needs, Decide, Words, Closes, and
// a closing comment's kind and days or a clock of its own when they are not
// the stale clocks'), with its table test beside it; a new rule is that
// file and its line here.
var rules = []Rule{
	exemptRule,      // rule_exempt.go: exempt and filtered out, whatever the clocks say
	closedSinceRule, // rule_closed_since.go: closed since it was listed
	intakeRule,      // rule_intake.go: the intake clock, before the stale clocks
	inactivityRule,  // rule_inactivity.go: the stale clock, stale-clock: inactivity
	authorTurnRule,  // rule_author_turn.go: the stale clock, stale-clock: author-turn
}

// commands are the commands on closed PRs (Command), each a file of its
// own as a rule is; the sweep's commander asks each in this order.
var commands = []Command{
	reopenCommand, // rule_reopen.go: the reopen command (reopen-command)
}

// Commands is the commands on closed PRs, in the order the sweep asks
// them: notice.Text finds their words through it.
func Commands() []Command { return append([]Command(nil), commands...) }

// Rules is the rules in the order Decide asks them: notice.Text finds each
// rule's words through it, so a rule's texts are in its file.
func Rules() []Rule { return append([]Rule(nil), rules...) }
