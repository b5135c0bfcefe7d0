package config

import (
	"regexp"
	"strings"
)

// Lists of accounts (bot-accounts, reviewers, escalation-reviewers, ...)
// are compared with logins as GitHub writes them: an item that cannot be
// one ("@alice", "alice bob", "team:core") would never match, without a
// word, so it is refused.
var (
	// loginRE is a GitHub login (letters, digits, hyphens; underscores and
	// dots for Enterprise Managed Users and GHES), or a GitHub App's bot
	// account (dependabot[bot]).
	loginRE = regexp.MustCompile(`(?i)^[a-z0-9_.-]+(\[bot\])?$`)
	// loginGlobRE is a login where * matches any characters (*[bot]).
	loginGlobRE = regexp.MustCompile(`(?i)^[a-z0-9_.*-]+(\[bot\])?$`)
	// teamRE is a team as org/team-slug.
	teamRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
)

// accountForm says which items a list of accounts accepts.
type accountForm int

const (
	loginsOnly     accountForm = iota // alice, dependabot[bot]
	loginsAndTeams                    // alice, org/team
	loginGlobs                        // alice, *[bot]
)

// want is what the form accepts, for the error.
func (f accountForm) want() string {
	switch f {
	case loginsAndTeams:
		return "want logins without @ (alice) or teams as org/team (octo-org/reviewers)"
	case loginGlobs:
		return "want logins without @ (alice, dependabot[bot]), * matching any characters (*[bot])"
	}
	return "want logins without @ (alice, dependabot[bot])"
}

func (f accountForm) accepts(item string) bool {
	switch f {
	case loginsAndTeams:
		return loginRE.MatchString(item) || teamRE.MatchString(item)
	case loginGlobs:
		return loginGlobRE.MatchString(item)
	}
	return loginRE.MatchString(item)
}

// checkAccounts refuses, in one error naming them all, the items of the
// input name's list that form does not accept.
func (p *parser) checkAccounts(name string, items []string, form accountForm) bool {
	var bad []string
	for _, it := range items {
		if !form.accepts(it) {
			bad = append(bad, quote(it))
		}
	}
	if len(bad) == 0 {
		return true
	}
	p.fail(name, "holds %s: %s", strings.Join(bad, ", "), form.want())
	return false
}

// accounts reads a comma-separated list of accounts of form.
func accounts(form accountForm, field func(*Config) *[]string) target {
	return store(List, field, func(p *parser, in Input) ([]string, bool) {
		items, ok := p.list(in)
		return items, ok && p.checkAccounts(in.Name, items, form)
	})
}

// teamsOfOwner refuses a team of another organisation than the
// repository's owner in the lists that take teams (reviewers,
// escalation-reviewers). GitHub names a pull request's teams by slug
// within the repository's own organisation: a review request takes the
// slug alone, and REST's events carry it alone, so other-org/core would
// stand for owner/core, a team no input named. Organisations compare
// ignoring case, as GitHub's names do.
func (p *parser) teamsOfOwner(c *Config) {
	if c.Owner == "" {
		return // the repository input is refused already
	}
	for _, l := range []struct {
		name  string
		items []string
	}{
		{inputReviewers, c.Policy.Reviewers},
		{inputEscalationReviewers, c.Policy.EscalationReviewers},
	} {
		var other []string
		for _, it := range l.items {
			if org, _, team := strings.Cut(it, "/"); team && !strings.EqualFold(org, c.Owner) {
				other = append(other, quote(it))
			}
		}
		if len(other) > 0 && !p.failed(l.name) {
			p.fail(l.name, "holds %s, a team of another organisation than %s, which owns the repository: GitHub requests only %s's teams, by slug; "+
				"want logins (alice) or teams of %s as %s/team", strings.Join(other, ", "), c.Owner, c.Owner, c.Owner, c.Owner)
		}
	}
}
