package report

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/stalepr/stalepr/internal/sweep"
)

// Output names, as declared in action.yml.
const (
	OutputStaled   = "staled-issues-prs"
	OutputClosed   = "closed-issues-prs"
	OutputUnstaled = "unstaled-prs"
)

// outputPR is all an output tells about a PR.
type outputPR struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// Outputs returns the step outputs: for each name a single-line JSON array of
// {"number","title","url"} objects ("[]" when empty). Marked includes PRs
// whose stale notice was posted late (Notify). The lists say what the run did,
// or in a dry run what it would have done.
//
// The values are safe for go-githubactions' SetOutput, which writes them
// between fixed heredoc delimiters: the JSON holds no line break (encoding/json
// escapes control characters and U+2028/U+2029), HTML escaping turns '<', '>'
// and '&' into \u escapes, and every '_' is written as \u005f, so the
// delimiter "_GitHubActionsFileCommandDelimeter_" cannot appear in the value.
func Outputs(r sweep.Result) map[string]string {
	return map[string]string{
		OutputStaled:   jsonList(r.Marked),
		OutputClosed:   jsonList(r.Closed),
		OutputUnstaled: jsonList(r.Unstaled),
	}
}

func jsonList(items []sweep.Item) string {
	prs := make([]outputPR, len(items))
	for i, it := range items {
		prs[i] = outputPR{Number: it.Number, Title: it.Title, URL: it.URL}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(prs); err != nil {
		// Cannot happen: ints and strings always encode (invalid UTF-8
		// becomes U+FFFD).
		return "[]"
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	// Outside string values this JSON holds only punctuation, digits and
	// the keys above, none with '_': every '_' is inside a string value,
	// where \u005f is a valid escape for it.
	return strings.ReplaceAll(s, "_", `\u005f`)
}
