package config

import (
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/notice"
)

// turn checks the inputs of whose turn it is (stale-clock and the review
// nudge) against each other, in one place; the table has parsed them.
func (p *parser) turn(c *Config) {
	pol := &c.Policy
	if pol.StaleClock != lifecycle.ClockAuthorTurn {
		// Under the inactivity clock a PR is marked whoever's turn it is,
		// often from the listing alone: {{waiting-on-author}} would say
		// "on its author, as a draft" of a PR that is neither.
		for _, m := range []struct{ name, text string }{{"stale-pr-message", c.StaleMessage}, {"close-pr-message", c.CloseMessage}} {
			if notice.Uses(m.text, "waiting-on-author") {
				p.fail(m.name, "uses {{waiting-on-author}}, which is known only under stale-clock: author-turn; set that, or take the placeholder out")
			}
		}
	}
	if l := pol.NudgeLabel; l != "" && strings.EqualFold(l, pol.StaleLabel) {
		p.fail(inputReviewNudgeLabel, "is %s, the same label as stale-pr-label: a nudged pull request would read as stale; choose another label", quote(l))
	}
	p.turnLabels(pol)
	p.closeLabelApart(c)
	p.escalation(pol)
	if pol.DaysBeforeReviewNudge >= 0 && c.NudgeMessage == "" {
		// The nudge's hidden marker is what keeps it to one per turn.
		p.fail(inputReviewNudgeMessage, "is empty, but the nudge is a comment; set a message, or days-before-review-nudge to -1")
	}
}

// turnLabels checks that each turn label is a label of its own, so that keeping one
// right never undoes another label stalepr keeps.
func (p *parser) turnLabels(pol *lifecycle.Policy) {
	for _, l := range []struct{ name, label string }{{inputAuthorTurnLabel, pol.AuthorTurnLabel}, {inputReviewersTurnLabel, pol.ReviewersTurnLabel}, {inputConflictLabel, pol.ConflictLabel}} {
		switch {
		case l.label == "":
		case strings.EqualFold(l.label, pol.StaleLabel):
			p.fail(l.name, "is %s, the same label as stale-pr-label; choose another label", quote(l.label))
		case strings.EqualFold(l.label, pol.NudgeLabel):
			p.fail(l.name, "is %s, the same label as review-nudge-label; choose another label", quote(l.label))
		}
	}
	// stalepr writes its turn labels itself: one that author-turn-when-labeled
	// also lists would hand the turn on stalepr's own word (its
	// waiting-on-author label putting a PR waiting on review on its author's
	// clock, and closing it).
	for _, l := range []struct{ name, label, why string }{
		{inputAuthorTurnLabel, pol.AuthorTurnLabel, "a person adding it by hand already hands the turn to the author"},
		{inputReviewersTurnLabel, pol.ReviewersTurnLabel, "stalepr adds it on the reviewers' turn, which would pass the turn to the author"},
	} {
		if l.label != "" && lifecycle.ContainsFold(pol.AuthorTurnLabels, l.label) {
			p.fail(inputAuthorTurnWhenLabeled, "lists %s, the %s that stalepr adds and removes itself: %s; take it out of author-turn-when-labeled", quote(l.label), l.name, l.why)
		}
	}
	// So are the stale and nudge labels: stalepr adds them itself.
	for _, l := range []struct{ name, label, why string }{
		{inputStaleLabel, pol.StaleLabel, "marking a pull request stale would put it on its author's turn"},
		{inputReviewNudgeLabel, pol.NudgeLabel, "stalepr adds it on the reviewers' turn, which would pass the turn to the author"},
	} {
		if l.label != "" && lifecycle.ContainsFold(pol.AuthorTurnLabels, l.label) {
			p.fail(inputAuthorTurnWhenLabeled, "lists %s, the %s that stalepr adds and removes itself: %s; take it out of author-turn-when-labeled", quote(l.label), l.name, l.why)
		}
	}
	if a := pol.AuthorTurnLabel; a != "" && strings.EqualFold(a, pol.ReviewersTurnLabel) {
		p.fail(inputReviewersTurnLabel, "is %s, the same label as author-turn-label: one label cannot show both turns", quote(a))
	}
	for _, l := range []struct{ name, label string }{{inputAuthorTurnLabel, pol.AuthorTurnLabel}, {inputReviewersTurnLabel, pol.ReviewersTurnLabel}} {
		if c := pol.ConflictLabel; c != "" && strings.EqualFold(c, l.label) {
			p.fail(inputConflictLabel, "is %s, the same label as %s: the conflict's record would come and go with the turn; choose another label", quote(c), l.name)
		}
	}
}

// escalation checks the escalation's inputs: it counts from the nudge, and
// asks people by name.
func (p *parser) escalation(pol *lifecycle.Policy) {
	if pol.DaysBeforeEscalation >= 0 && pol.DaysBeforeReviewNudge < 0 && !p.failed(inputEscalationDays) && !p.failed(inputReviewNudgeDays) {
		p.fail(inputEscalationDays, "is %d, but days-before-review-nudge is off: an escalation follows a nudge nobody answered; set both, or this to -1",
			pol.DaysBeforeEscalation)
	}
	// An escalation never asks a bot nor a coding agent (EscalationTo):
	// listed, one would be skipped without a word.
	var bots []string
	for _, r := range pol.EscalationReviewers {
		if pol.IsBotOrAgent(r) {
			bots = append(bots, quote(r))
		}
	}
	if len(bots) > 0 {
		p.fail(inputEscalationReviewers, "holds %s: a bot, a coding agent or one of bot-accounts, which an escalation never asks; list people and teams only", strings.Join(bots, ", "))
	}
}

// closeLabelApart refuses a label stalepr keeps on open pull requests
// (review-nudge-label, the turn labels) that is close-pr-label: stalepr
// takes close-pr-label off every open pull request (a stale close
// reopened), so each run would undo the other's label.
func (p *parser) closeLabelApart(c *Config) {
	if c.CloseLabel == "" {
		return
	}
	pol := &c.Policy
	for _, l := range []struct{ name, label string }{
		{inputReviewNudgeLabel, pol.NudgeLabel}, {inputAuthorTurnLabel, pol.AuthorTurnLabel}, {inputReviewersTurnLabel, pol.ReviewersTurnLabel},
		{inputConflictLabel, pol.ConflictLabel},
	} {
		if strings.EqualFold(l.label, c.CloseLabel) {
			p.fail(l.name, "is %s, the same label as close-pr-label, which stalepr takes off open pull requests; choose another label", quote(l.label))
		}
	}
}
