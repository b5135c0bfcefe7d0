package lifecycle_test

import (
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

func TestClassOf(t *testing.T) {
	pol := lifecycle.Policy{BotAccounts: []string{"project-ci"}, AgentAccounts: []string{"acme-agent[bot]"}}
	for _, tc := range []struct {
		pr   lifecycle.PR
		want lifecycle.AuthorClass
	}{
		{lifecycle.PR{Author: "alice", AuthorAssociation: "CONTRIBUTOR"}, lifecycle.AuthorPerson},
		{lifecycle.PR{Author: "newbie", AuthorAssociation: "FIRST_TIME_CONTRIBUTOR"}, lifecycle.AuthorFirstTime},
		{lifecycle.PR{Author: "Copilot", AuthorBot: true}, lifecycle.AuthorAgent},
		{lifecycle.PR{Author: "copilot-swe-agent[bot]", AuthorBot: true}, lifecycle.AuthorAgent},
		{lifecycle.PR{Author: "devin-ai-integration[bot]", AuthorBot: true}, lifecycle.AuthorAgent},
		{lifecycle.PR{Author: "google-labs-jules[bot]", AuthorBot: true}, lifecycle.AuthorAgent},
		{lifecycle.PR{Author: "Acme-Agent[bot]", AuthorBot: true}, lifecycle.AuthorAgent}, // agent-accounts, any case
		{lifecycle.PR{Author: "dependabot[bot]", AuthorBot: true}, lifecycle.AuthorBot},
		{lifecycle.PR{Author: "project-ci", AuthorAssociation: "MEMBER"}, lifecycle.AuthorBot}, // listed in bot-accounts
	} {
		if got := pol.ClassOf(tc.pr); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.pr.Author, got, tc.want)
		}
	}
}
