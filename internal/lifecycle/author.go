package lifecycle

import "strings"

// AuthorClass is who a pull request comes from, as the queue views count
// the open ones: where the queue comes from.
type AuthorClass int

const (
	AuthorPerson    AuthorClass = iota // a person with a history in the repository
	AuthorFirstTime                    // a first-time contributor (FIRST_TIMER, FIRST_TIME_CONTRIBUTOR)
	AuthorAgent                        // a coding agent (Agents)
	AuthorBot                          // another bot: a dependency bot, a CI account
)

func (c AuthorClass) String() string {
	return [...]string{"people", "first-time contributors", "coding agents", "bots"}[c]
}

// Agents are the coding agents' accounts as stalepr names a PR's author:
// the Copilot coding agent is the bot REST calls Copilot and GraphQL
// either Copilot or copilot-swe-agent (its app), Devin the app
// devin-ai-integration.
var Agents = []string{"Copilot", "copilot-swe-agent[bot]", "devin-ai-integration[bot]"}

// ClassOf is the class of pr's author; bots are bot-accounts' logins,
// bots whatever GitHub says.
func ClassOf(pr PR, bots []string) AuthorClass {
	switch {
	case ContainsFold(Agents, pr.Author):
		return AuthorAgent
	case pr.AuthorBot || IsBotLogin(pr.Author) || ContainsFold(bots, pr.Author):
		return AuthorBot
	}
	switch strings.ToUpper(pr.AuthorAssociation) {
	case "FIRST_TIMER", "FIRST_TIME_CONTRIBUTOR":
		return AuthorFirstTime
	}
	return AuthorPerson
}
