package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/sweep"
)

// Output names, as declared in action.yml.
const (
	OutputStaled   = "staled-issues-prs"
	OutputClosed   = "closed-issues-prs"
	OutputUnstaled = "unstaled-prs"
	OutputWrongly  = "wrongly-closed-prs"
)

// MaxOutputBytes caps each output's value. GitHub documents 1 MiB for all of
// a job's outputs together; three lists of at most 64 KiB leave the rest of
// that room to the workflow's other steps.
const MaxOutputBytes = 64 << 10

// Output is one step output: a JSON list of PRs, cut to whole items when the
// full list would pass MaxOutputBytes.
type Output struct {
	Name  string
	Value string
	Total int // PRs in the run's list
	Kept  int // PRs in Value
}

// Truncated reports whether Value lists fewer PRs than the run's list.
func (o Output) Truncated() bool { return o.Kept < o.Total }

// outputPR is all an output tells about a PR.
type outputPR struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// Outputs returns the step outputs, in action.yml's order: for each a
// single-line JSON array of {"number","title","url"} objects ("[]" when
// empty), and the closure audit's of PR numbers. Marked includes PRs whose stale notice was posted late (Notify).
// The lists say what the run did, or in a dry run what it would have done.
//
// The values are single lines (encoding/json escapes control characters and
// U+2028/U+2029), HTML escaping turns '<', '>' and '&' into \u escapes, and
// every '_' is written as \u005f: a value can hold neither a line break nor
// any heredoc delimiter of the GITHUB_OUTPUT file, ours (OutputFile) or
// go-githubactions' fixed "_GitHubActionsFileCommandDelimeter_".
func Outputs(r sweep.Result) []Output {
	return []Output{
		jsonList(OutputStaled, withOutput(r, OutputStaled), MaxOutputBytes),
		jsonList(OutputClosed, withOutput(r, OutputClosed), MaxOutputBytes),
		jsonList(OutputUnstaled, withOutput(r, OutputUnstaled), MaxOutputBytes),
		jsonNumbers(OutputWrongly, r.WronglyClosed(), MaxOutputBytes),
	}
}

// jsonList encodes items one by one and stops before the array would pass
// max bytes, so a cut list is still valid JSON made of whole items.
func jsonList(name string, items []sweep.Item, max int) Output {
	return jsonArray(name, len(items), func(i int) string {
		return jsonItem(outputPR{Number: items[i].Number, Title: items[i].Title, URL: items[i].URL})
	}, max)
}

// jsonNumbers is a JSON array of PR numbers, cut to max bytes as jsonList is.
func jsonNumbers(name string, numbers []int, max int) Output {
	return jsonArray(name, len(numbers), func(i int) string { return strconv.Itoa(numbers[i]) }, max)
}

// jsonArray writes the n encoded elements, as many as fit in max bytes.
func jsonArray(name string, n int, elem func(i int) string, max int) Output {
	var b strings.Builder
	b.WriteByte('[')
	kept := 0
	for i := range n {
		v := elem(i)
		if b.Len()+len(",")+len(v)+len("]") > max {
			break
		}
		if kept > 0 {
			b.WriteByte(',')
		}
		b.WriteString(v)
		kept++
	}
	b.WriteByte(']')
	return Output{Name: name, Value: b.String(), Total: n, Kept: kept}
}

func jsonItem(pr outputPR) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(pr); err != nil {
		// Cannot happen: ints and strings always encode (invalid UTF-8
		// becomes U+FFFD).
		return "{}"
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	// Outside string values this JSON holds only punctuation, digits and
	// the keys above, none with '_': every '_' is inside a string value,
	// where \u005f is a valid escape for it.
	return strings.ReplaceAll(s, "_", `\u005f`)
}

// OutputFile is the text to append to the GITHUB_OUTPUT file: each output
// as "name<<DELIM", its value, "DELIM", with a fresh random delimiter (as
// GitHub's own toolkit writes it) that no value holds.
func OutputFile(outs []Output) string {
	var b strings.Builder
	for _, o := range outs {
		delim := "ghadelimiter_" + newToken()
		for strings.Contains(o.Value, delim) || strings.Contains(o.Name, delim) {
			delim = "ghadelimiter_" + newToken() // a value that guessed it: practically never
		}
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.Name, delim, o.Value, delim)
	}
	return b.String()
}

// TruncationNote says which outputs were cut to fit GitHub's limits, as one
// paragraph that reads the same as plain text and as markdown; "" when none
// was.
func TruncationNote(outs []Output) string {
	var parts []string
	for _, o := range outs {
		if o.Truncated() {
			parts = append(parts, fmt.Sprintf("%s lists the first %d of %d pull requests", o.Name, o.Kept, o.Total))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("Outputs cut to GitHub's size limits (%d KiB each): %s. The log names every pull request acted on.\n\n",
		MaxOutputBytes>>10, strings.Join(parts, "; "))
}
