package sweep_test

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// No text stalepr posts ever mentions a bot author: a mention of @Copilot
// can start a paid run of the coding agent. A message's {{author}} names
// the agent without the @.
func TestNoTextMentionsAnAgent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	agent := fakegithub.Bot("Copilot")
	toMark := w.pr(100, func(is *fakegithub.Issue) { is.User = agent })
	toClose := w.markedPR(40, func(is *fakegithub.Issue) { is.User = agent })
	w.run(map[string]string{"stale-pr-message": "{{author}}: no activity for {{days-inactive}} days.",
		"close-pr-message": "Closing, {{author}}.", "write-interval": "0s"})
	for _, n := range []int{toMark, toClose} {
		var texts []string
		for _, c := range w.fake.Comments(n) {
			texts = append(texts, c.Body)
		}
		all := strings.Join(texts, "\n")
		if !strings.Contains(all, "Copilot") || strings.Contains(all, "@Copilot") {
			t.Errorf("#%d: want the agent named without a mention:\n%s", n, all)
		}
	}
}
