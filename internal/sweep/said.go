package sweep

import (
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// said is what an operation's text says of the PR's people, found once
// where the operation is planned: the writer fills its template from it
// and decides nothing again. A PR decided on its listing alone whose text
// needs its history (writer.detailSteps) has it found once that is read.
type said struct {
	// author is whom the text addresses: on a coding agent's PR its human
	// of record, when its history names one; authorBot, a bot or an agent,
	// named without the @ (a mention of an agent can start a paid run).
	author    string
	authorBot bool
	// The days of the policy For the PR: an agent's PR may run on its own
	// clock; daysBeforeClose, those of the rule that decided (a rule's own
	// close counts its own days: Rule.DaysToClose).
	daysBeforeStale, daysBeforeClose int
	// reviewers are those the PR waits on whom its nudge asks; away, busy
	// and withdrew those it does not ask, and why (away-reviewers, their
	// GitHub status as the run read it, their own withdrawal).
	reviewers, away, busy, withdrew []string
}

// sayOf is what the texts on pr say under pol at now of the decision of
// rule; act is its activity, nil when only the listing is known.
func sayOf(pr lifecycle.PR, act *lifecycle.Activity, rule lifecycle.RuleName, now time.Time, pol lifecycle.Policy) said {
	p := pol.For(pr)
	r, _ := lifecycle.RuleNamed(rule)
	s := said{author: pr.Author, authorBot: pr.AuthorBot || pol.IsBotOrAgent(pr.Author),
		daysBeforeStale: p.DaysBeforeStale, daysBeforeClose: r.DaysToClose(p)}
	if act == nil {
		return s
	}
	if act.HumanOfRecord != "" {
		s.author, s.authorBot = act.HumanOfRecord, false
	}
	s.reviewers, s.away, s.busy = pol.Available(pr, act, now)
	s.withdrew = act.Withdrew
	return s
}
