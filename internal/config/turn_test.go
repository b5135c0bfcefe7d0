package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestParseTurnInputs(t *testing.T) {
	t.Parallel()
	c := mustParse(t, map[string]string{"stale-clock": "Author-Turn", "days-before-review-nudge": "7",
		"review-nudge-label": "waiting-on-review", "review-nudge-message": "{{reviewers}}: {{days-waiting}} days"})
	if c.Policy.StaleClock != lifecycle.ClockAuthorTurn || c.Policy.DaysBeforeReviewNudge != 7 ||
		c.Policy.NudgeLabel != "waiting-on-review" || c.NudgeMessage != "{{reviewers}}: {{days-waiting}} days" {
		t.Errorf("got %+v", c)
	}
	// The default stays the input's: the text true of each mark is
	// notice's (Text), by the reason the mark is made for.
	if c.StaleMessage != lifecycle.DefaultStale {
		t.Errorf("author-turn with the default stale-pr-message: %q, want it as set", c.StaleMessage)
	}
	if own := mustParse(t, map[string]string{"stale-clock": "author-turn", "stale-pr-message": "mine"}); own.StaleMessage != "mine" {
		t.Errorf("author-turn replaced the user's own stale-pr-message: %q", own.StaleMessage)
	}
}

func TestParseTurnErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		inputs map[string]string
		name   string
		says   string
	}{
		{map[string]string{"stale-clock": "turn"}, "stale-clock", `want inactivity or author-turn, got "turn"`},
		{map[string]string{"days-before-review-nudge": "soon"}, "days-before-review-nudge", "want a whole number of days"},
		{map[string]string{"review-nudge-message": "{{assignee}}"}, "review-nudge-message", "unknown placeholder {{assignee}}"},
		{map[string]string{"review-nudge-label": "Stale"}, "review-nudge-label", "the same label as stale-pr-label"},
		{map[string]string{"days-before-review-nudge": "3", "review-nudge-message": ""}, "review-nudge-message", "the nudge is a comment"},
		{map[string]string{"days-before-review-escalation": "7"}, "days-before-review-escalation", "an escalation follows a nudge"},
		{map[string]string{"days-before-review-nudge": "7", "days-before-review-escalation": "7", "escalation-reviewers": "lead,@boss"},
			"escalation-reviewers", `holds "@boss"`},
		{map[string]string{"days-before-review-nudge": "7", "days-before-review-escalation": "7", "escalation-reviewers": "octo/"},
			"escalation-reviewers", `holds "octo/"`},
		{map[string]string{"stale-pr-message": "Waiting {{waiting-on-author}}."}, "stale-pr-message", "stale-clock: author-turn"},
		{map[string]string{"close-pr-message": "Waited {{waiting-on-author}}."}, "close-pr-message", "stale-clock: author-turn"},
		{map[string]string{"author-turn-label": "STALE"}, "author-turn-label", "the same label as stale-pr-label"},
		{map[string]string{"reviewers-turn-label": "w", "review-nudge-label": "W"}, "reviewers-turn-label", "the same label as review-nudge-label"},
		{map[string]string{"author-turn-label": "turn", "reviewers-turn-label": "Turn"}, "reviewers-turn-label", "one label cannot show both turns"},
		// triagebot's setting: stalepr's own label would hand the turn.
		{map[string]string{"author-turn-label": "S-waiting-on-author", "author-turn-when-labeled": "needs-rebase,s-waiting-on-author"},
			"author-turn-when-labeled", `lists "S-waiting-on-author", the author-turn-label that stalepr adds and removes itself`},
		{map[string]string{"reviewers-turn-label": "S-waiting-on-review", "author-turn-when-labeled": "S-waiting-on-review"},
			"author-turn-when-labeled", "the reviewers-turn-label that stalepr adds and removes itself"},
		// A refused value is not checked against the other inputs too.
		{map[string]string{"days-before-review-escalation": "1.5"}, "days-before-review-escalation", "want a whole number of days"},
		{map[string]string{"days-before-review-escalation": "99999"}, "days-before-review-escalation", "want at most 36500 days"},
		{map[string]string{"audit-closed-days": "2w", "reopen-wrongly-closed": "true"}, "audit-closed-days", `got "2w"`},
		// Labels stalepr adds itself put nothing on the author's turn.
		{map[string]string{"author-turn-when-labeled": "needs-rebase,Stale"},
			"author-turn-when-labeled", `lists "stale", the stale-pr-label that stalepr adds and removes itself`},
		{map[string]string{"review-nudge-label": "nudged", "author-turn-when-labeled": "nudged"},
			"author-turn-when-labeled", `lists "nudged", the review-nudge-label that stalepr adds and removes itself`},
		// close-pr-label is taken off open pull requests.
		{map[string]string{"close-pr-label": "closed", "review-nudge-label": "Closed"}, "review-nudge-label", "the same label as close-pr-label"},
		{map[string]string{"close-pr-label": "closed", "author-turn-label": "closed"}, "author-turn-label", "the same label as close-pr-label"},
		{map[string]string{"close-pr-label": "closed", "reviewers-turn-label": "closed"}, "reviewers-turn-label", "the same label as close-pr-label"},
		{map[string]string{"close-pr-label": "merge-conflict"}, "conflict-label", "the same label as close-pr-label"},
		{map[string]string{"conflict-label": "Stale"}, "conflict-label", "the same label as stale-pr-label"},
		{map[string]string{"author-turn-label": "conflicted", "conflict-label": "Conflicted"}, "conflict-label", "the same label as author-turn-label"},
		// An escalation never asks a bot nor an agent: listed, one is refused.
		{map[string]string{"days-before-review-nudge": "7", "days-before-review-escalation": "7", "escalation-reviewers": "lead,github-actions[bot]"},
			"escalation-reviewers", `holds "github-actions[bot]": a bot, a coding agent or one of bot-accounts`},
		{map[string]string{"days-before-review-nudge": "7", "days-before-review-escalation": "7", "escalation-reviewers": "copilot, ci-user", "bot-accounts": "ci-user"},
			"escalation-reviewers", `holds "copilot", "ci-user": a bot`},
		{map[string]string{"days-before-review-nudge": "7", "days-before-review-escalation": "7", "escalation-reviewers": "team:core"},
			"escalation-reviewers", `holds "team:core": want logins without @ (alice) or teams as org/team`},
	} {
		_, err := Parse(source(tt.inputs, nil))
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Name != tt.name || !strings.Contains(errs[0].Msg, tt.says) {
			t.Errorf("Parse(%v) = %v, want one error on %s saying %q", tt.inputs, err, tt.name, tt.says)
		}
	}
}

// TestParseWhoCountsInputs: bot-accounts, reviewers and
// author-turn-when-labeled are comma-separated lists, empty by default.
func TestParseWhoCountsInputs(t *testing.T) {
	t.Parallel()
	c := mustParse(t, map[string]string{"bot-accounts": "project-ci, release-robot", "reviewers": "docs-lead",
		"author-turn-when-labeled": "needs-rebase,S-waiting-on-author", "author-turn-label": "waiting-on-author", "reviewers-turn-label": "waiting-on-review"})
	p := c.Policy
	if !slices.Equal(p.BotAccounts, []string{"project-ci", "release-robot"}) || !slices.Equal(p.Reviewers, []string{"docs-lead"}) ||
		!slices.Equal(p.AuthorTurnLabels, []string{"needs-rebase", "S-waiting-on-author"}) {
		t.Errorf("got bots %q, reviewers %q, labels %q", p.BotAccounts, p.Reviewers, p.AuthorTurnLabels)
	}
	if p.AuthorTurnLabel != "waiting-on-author" || p.ReviewersTurnLabel != "waiting-on-review" {
		t.Errorf("turn labels %q, %q", p.AuthorTurnLabel, p.ReviewersTurnLabel)
	}
	d := mustParse(t, map[string]string{}).Policy
	if len(d.BotAccounts)+len(d.Reviewers)+len(d.AuthorTurnLabels) != 0 || d.AuthorTurnLabel+d.ReviewersTurnLabel != "" {
		t.Errorf("defaults not empty: %+v", d)
	}
}

// TestConflictLabelEmptyIsOff: conflict-label is on by default; set empty
// (conflict-label: ”) it is off, as its description says, not the default.
func TestConflictLabelEmptyIsOff(t *testing.T) {
	t.Parallel()
	if got := mustParse(t, map[string]string{"conflict-label": ""}).Policy.ConflictLabel; got != "" {
		t.Errorf("conflict-label '' gives %q, want off", got)
	}
	if got := mustParse(t, map[string]string{}).Policy.ConflictLabel; got != "merge-conflict" {
		t.Errorf("conflict-label unset gives %q, want merge-conflict", got)
	}
}
