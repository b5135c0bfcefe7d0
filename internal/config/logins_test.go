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
		{"reviewers", "docs-lead, octo/docs", ""},
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
	c := mustParse(t, map[string]string{"reviewers": "docs-lead , octo/docs,,", "away-reviewers": "bob"})
	if !slices.Equal(c.Policy.Reviewers, []string{"docs-lead", "octo/docs"}) || !slices.Equal(c.Policy.AwayReviewers, []string{"bob"}) {
		t.Errorf("reviewers %q, away-reviewers %q", c.Policy.Reviewers, c.Policy.AwayReviewers)
	}
}

// TestParseTeamsOfTheOwner: GitHub names a pull request's teams by slug
// within the repository's organisation, so a team of another one in
// reviewers or escalation-reviewers would stand for the owner's team of
// the same slug: it is refused, naming the input, the value and what it
// takes; the owner's own teams pass, in any letter case.
func TestParseTeamsOfTheOwner(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"reviewers", "escalation-reviewers"} {
		for _, tt := range []struct {
			value string
			want  string // "" for accepted
		}{
			{"alice, octo/core", ""},
			{"OCTO/core, Octo/docs", ""},
			{"other-org/core", `holds "other-org/core", a team of another organisation than octo, which owns the repository`},
			{"alice, octo/docs, other-org/core, acme/core", `holds "other-org/core", "acme/core", a team of another organisation than octo`},
			{"other-org/core", "want logins (alice) or teams of octo as octo/team"},
		} {
			_, err := Parse(source(map[string]string{name: tt.value}, nil))
			var errs Errors
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%s: %q: %v", name, tt.value, err)
			case tt.want != "" && (!errors.As(err, &errs) || len(errs) != 1 || errs[0].Name != name || !strings.Contains(errs[0].Msg, tt.want)):
				t.Errorf("%s: %q: %v, want one error on %s saying %q", name, tt.value, err, name, tt.want)
			}
		}
	}
	// The owner comes from the repository input as from GITHUB_REPOSITORY.
	c, err := Parse(source(map[string]string{"repository": "acme/tools", "escalation-reviewers": "acme/core"}, nil))
	if err != nil || !slices.Equal(c.Policy.EscalationReviewers, []string{"acme/core"}) {
		t.Errorf("acme/core on acme/tools: %v, %q", err, c.Policy.EscalationReviewers)
	}
	if _, err := Parse(source(map[string]string{"repository": "acme/tools", "escalation-reviewers": "octo/core"}, nil)); err == nil {
		t.Error("octo/core on acme/tools (GITHUB_REPOSITORY octo/hello) accepted")
	}
}
