package lifecycle

import "strings"

// AuthorClass is who a pull request comes from, as the queue views count
// the open ones: where the queue comes from.
type AuthorClass int

const (
	AuthorPerson    AuthorClass = iota // a person with a history in the repository
	AuthorFirstTime                    // a first-time contributor (FIRST_TIMER, FIRST_TIME_CONTRIBUTOR)
	AuthorAgent                        // a coding agent (Agents, agent-accounts)
	AuthorBot                          // another bot: a dependency bot, a CI account
)

func (c AuthorClass) String() string {
	return [...]string{"people", "first-time contributors", "coding agents", "bots"}[c]
}

// Agents are the coding agents' accounts known without agent-accounts, as
// stalepr names a PR's author (REST's login; GraphQL's Bot login gets its
// "[bot]" back in ghapi):
//   - the Copilot coding agent: REST names it Copilot (type Bot), GraphQL
//     the Bot copilot-swe-agent (its app); its PRs are drafts until a
//     person marks them ready, and it assigns them to the person who
//     delegated the work;
//   - Devin: the app devin-ai-integration[bot];
//   - Google's Jules: the app google-labs-jules[bot];
//   - Cursor's background agents: the app cursor[bot].
var Agents = []string{"Copilot", "copilot-swe-agent[bot]", "devin-ai-integration[bot]", "google-labs-jules[bot]", "cursor[bot]"}

// isAgent reports whether login is a coding agent's: one of Agents or of
// more (agent-accounts), compared ignoring case.
func isAgent(login string, more []string) bool {
	return login != "" && (ContainsFold(Agents, login) || ContainsFold(more, login))
}

// IsAgent reports whether login is a coding agent's account (Agents and
// agent-accounts).
func (p Policy) IsAgent(login string) bool { return isAgent(login, p.AgentAccounts) }

// IsBotOrAgent reports whether login is no person stalepr may ask or
// mention: a GitHub App, one of bot-accounts, or a coding agent (a
// mention of an agent can start a paid run of it).
func (p Policy) IsBotOrAgent(login string) bool {
	return IsBotLogin(login) || ContainsFold(p.BotAccounts, login) || p.IsAgent(login)
}

// ClassOf is the class of pr's author; bots are bot-accounts' logins,
// bots whatever GitHub says, agents Agents' and agent-accounts'.
func (p Policy) ClassOf(pr PR) AuthorClass {
	switch {
	case p.IsAgent(pr.Author):
		return AuthorAgent
	case pr.AuthorBot || IsBotLogin(pr.Author) || ContainsFold(p.BotAccounts, pr.Author):
		return AuthorBot
	}
	switch strings.ToUpper(pr.AuthorAssociation) {
	case "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR":
		return AuthorFirstTime
	}
	return AuthorPerson
}

// AgentClock is the clock of coding agents' PRs
// (days-before-agent-pr-stale, days-before-agent-pr-close): when On, an
// agent's PR is marked and closed on these days instead of everyone's,
// drafts included (see Policy.For).
type AgentClock struct {
	On              bool
	DaysBeforeStale int // -1: never mark
	DaysBeforeClose int // -1: never close
}

// For is the policy the rules apply to pr: everyone's, or for a coding
// agent's PR with the agent clock on, that clock's days, and exempt-draft-pr
// does not exempt its drafts (the Copilot coding agent's PRs stay drafts
// until a person marks them ready: exempt, they would never be clocked).
// It is idempotent: the policy it returns has the clock applied and off.
func (p Policy) For(pr PR) Policy {
	if !p.AgentClock.On || !p.IsAgent(pr.Author) {
		return p
	}
	p.DaysBeforeStale, p.DaysBeforeClose = p.AgentClock.DaysBeforeStale, p.AgentClock.DaysBeforeClose
	p.ExemptDraft = false
	p.AgentClock.On = false
	return p
}
