package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParseAccountLists: a list of accounts takes logins as GitHub writes
// them (and teams as org/team where a team can be asked); an item that can
// never match a login ("@alice", a space, team:core) is refused, all of an
// input's in one error, instead of matching nobody without a word.
func TestParseAccountLists(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, value string
		want        string // "" for accepted
	}{
		{"bot-accounts", "project-ci, release-robot[bot], alice_acme", ""},
		{"bot-accounts", "@project-ci", `holds "@project-ci": want logins without @ (alice, dependabot[bot])`},
		{"agent-accounts", "acme-agent[bot], Our-Agent", ""},
		{"agent-accounts", "@acme-agent, ok-agent, our agent", `holds "@acme-agent", "our agent": want logins without @`},
		{"reviewers", "docs-lead, octo-org/docs", ""},
		{"reviewers", "@docs-lead", `holds "@docs-lead": want logins without @ (alice) or teams as org/team (octo-org/reviewers)`},
		{"reviewers", "@octo-org/docs", `holds "@octo-org/docs": want logins without @ (alice) or teams as org/team`},
		{"reviewers", "octo-org/", `holds "octo-org/"`},
		{"away-reviewers", "alice, bob", ""},
		{"away-reviewers", "@alice", `holds "@alice": want logins without @`},
		{"away-reviewers", "octo-org/docs", `holds "octo-org/docs": want logins without @`}, // a team is never away
		{"exempt-pr-authors", "*[bot], renovate, Alice", ""},
		{"exempt-pr-authors", "@alice", `holds "@alice": want logins without @ (alice, dependabot[bot]), * matching any characters (*[bot])`},
		{"exempt-assignees", "alice", ""},
		{"exempt-pr-assignees", "@alice", `holds "@alice": want logins without @`},
	} {
		_, err := Parse(source(map[string]string{tt.name: tt.value}, nil))
		var errs Errors
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %q: %v", tt.name, tt.value, err)
		case tt.want != "" && (!errors.As(err, &errs) || len(errs) != 1 || errs[0].Name != tt.name || !strings.Contains(errs[0].Msg, tt.want)):
			t.Errorf("%s: %q: %v, want one error on %s saying %q", tt.name, tt.value, err, tt.name, tt.want)
		}
	}
	c := mustParse(t, map[string]string{"reviewers": "docs-lead , octo-org/docs,,", "away-reviewers": "bob"})
	if !slices.Equal(c.Policy.Reviewers, []string{"docs-lead", "octo-org/docs"}) || !slices.Equal(c.Policy.AwayReviewers, []string{"bob"}) {
		t.Errorf("reviewers %q, away-reviewers %q", c.Policy.Reviewers, c.Policy.AwayReviewers)
	}
}
