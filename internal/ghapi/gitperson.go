package ghapi

import (
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// gitPerson is a commit's git author or committer: a name and an e-mail,
// no GitHub account.
type gitPerson struct {
	Name  string
	Email string
}

// isBot reports whether g is an app: apps commit as "NAME[bot]" with ID+NAME[bot]@users.noreply.github.com.
// GitHub's own web-flow committer ("GitHub", noreply@github.com) is not a
// bot: it commits what a person did in the web interface.
func (g *gitPerson) isBot() bool {
	if g == nil {
		return false
	}
	email := strings.ToLower(g.Email)
	return lifecycle.IsBotLogin(g.Name) || strings.HasSuffix(email, "[bot]@users.noreply.github.com")
}
