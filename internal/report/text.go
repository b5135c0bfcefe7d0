package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/sweep"
)

// maxTextRows caps each list of the plain-text summary: a terminal shows the
// first screens, and the log above it already has a line per PR acted on.
const maxTextRows = 100

// Text renders the summary of one run on repo for a terminal: the same facts
// as Summary in plain lines, no markdown. Untrusted text is flattened to one
// line with control characters (terminal escapes included) removed.
func Text(r sweep.Result, repo string) string {
	var b strings.Builder
	dry := r.DryRun
	fmt.Fprintf(&b, "stalepr: %s\n", oneLine(repo, 200))
	if dry {
		b.WriteString("Dry run: nothing was changed. The outcomes below are what a real run would do.\n")
	}
	b.WriteString(runLine(r, func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }))

	if r.Stopped != nil {
		head, rest := stopNote(r, oneLine, func(s string) string { return s })
		b.WriteString(head + rest + "\n\n")
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(&b, "Failed (%d), left untouched; the next run retries them:\n", len(r.Failed))
		textRows(&b, len(r.Failed), func(i int) string {
			it := r.Failed[i]
			return fmt.Sprintf("#%d %q: %s", it.Number, oneLine(it.Title, maxTitleRunes), oneLine(it.Err, maxErrRunes))
		})
	}

	b.WriteString(tallyLine(r) + ".\n\n")

	if acted := actedRows(r); len(acted) > 0 {
		b.WriteString(wordActedOn.title(dry) + ":\n")
		textRows(&b, len(acted), func(i int) string { return PRLine(acted[i].it, dry) })
	}
	if len(r.Stale) > 0 {
		fmt.Fprintf(&b, "Still stale (%d):\n", len(r.Stale))
		textRows(&b, len(r.Stale), func(i int) string {
			it := r.Stale[i]
			return fmt.Sprintf("#%d inactive %d days, closes %s — %q", it.Number, it.InactiveDays, closeDate(it.CloseAt), oneLine(it.Title, maxTitleRunes))
		})
	}
	if len(r.Cleaned) > 0 {
		fmt.Fprintf(&b, "%s (closed or merged by a person):\n", wordLabelRemoved.title(dry))
		textRows(&b, len(r.Cleaned), func(i int) string {
			it := r.Cleaned[i]
			return fmt.Sprintf("#%d %q", it.Number, oneLine(it.Title, maxTitleRunes))
		})
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "Skipped (%d, exempt or filtered out):\n", len(r.Skipped))
		textRows(&b, len(r.Skipped), func(i int) string {
			it := r.Skipped[i]
			return fmt.Sprintf("#%d %s — %q", it.Number, oneLine(string(it.Reason), maxReasonRunes), oneLine(it.Title, maxTitleRunes))
		})
	}
	fmt.Fprintf(&b, "API usage: %s (%s). Rate limit: %s.\n", plural(r.Requests, "request"), plural(r.Writes, "write"), rateLeft(r))
	return b.String()
}

// textRows writes up to maxTextRows indented lines, then how many it left
// out, and a blank line.
func textRows(b *strings.Builder, n int, row func(i int) string) {
	for i := 0; i < n && i < maxTextRows; i++ {
		b.WriteString("  " + row(i) + "\n")
	}
	if n > maxTextRows {
		fmt.Fprintf(b, "  … and %d more\n", n-maxTextRows)
	}
	b.WriteString("\n")
}
