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
	failed, stale, cleaned, skipped := r.Failed(), r.Stale(), r.Cleaned(), r.Skipped()
	fmt.Fprintf(&b, "stalepr: %s\n", oneLine(repo, 200))
	if dry {
		b.WriteString("Dry run: nothing was changed. The outcomes below are what a real run would do.\n")
	}
	b.WriteString(runLine(r, func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }))
	if s := quietWords(r, func(t time.Time) string { return t.UTC().Format("2006-01-02") }, func(s string) string { return s }); s != "" {
		b.WriteString(s + "\n\n")
	}

	if r.Stopped != nil {
		head, rest := stopNote(r, oneLine, func(s string) string { return s })
		b.WriteString(head + rest + "\n\n")
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "Failed (%d), left untouched; the next run retries them:\n", len(failed))
		textRows(&b, len(failed), func(i int) string {
			it := failed[i]
			return fmt.Sprintf("#%d %q: %s", it.Number, oneLine(it.Title, maxTitleRunes), oneLine(it.Err, maxErrRunes))
		})
	}

	b.WriteString(tallyLine(r) + ".\n\n")

	if acted := actedRows(r); len(acted) > 0 {
		b.WriteString(wordActedOn.title(dry) + ":\n")
		textRows(&b, len(acted), func(i int) string { return PRLine(acted[i].it, dry) })
	}
	if len(stale) > 0 {
		fmt.Fprintf(&b, "Still stale (%d):\n", len(stale))
		textRows(&b, len(stale), func(i int) string {
			it := stale[i]
			return fmt.Sprintf("#%d inactive %d days, closes %s — %q", it.Number, it.InactiveDays, closeDate(it.CloseAt), oneLine(it.Title, maxTitleRunes))
		})
	}
	switch {
	case len(cleaned) == 0:
	case len(cleaned) == len(r.With(sweep.LabelCleaned)):
		fmt.Fprintf(&b, "%s (closed or merged by a person):\n", wordLabelRemoved.title(dry))
		textRows(&b, len(cleaned), func(i int) string {
			it := cleaned[i]
			return fmt.Sprintf("#%d %q", it.Number, oneLine(it.Title, maxTitleRunes))
		})
	default:
		b.WriteString(wordCleaned.title(dry) + ":\n")
		textRows(&b, len(cleaned), func(i int) string { return PRLine(cleaned[i], dry) })
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "Skipped (%d, exempt or filtered out):\n", len(skipped))
		textRows(&b, len(skipped), func(i int) string {
			it := skipped[i]
			return fmt.Sprintf("#%d %s — %q", it.Number, oneLine(string(it.Reason), maxReasonRunes), oneLine(it.Title, maxTitleRunes))
		})
	}
	fmt.Fprintf(&b, "API usage: %s. Rate limit: %s.\n", requests(r), rateLeft(r))
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
