package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stalepr/stalepr/internal/sweep"
)

// words is one phrase as a run that changed GitHub says it and as a dry run
// says it. A phrase that does not depend on the mode has done == dry.
type words struct{ done, dry string }

// in picks the phrase for the run's mode.
func (w words) in(dry bool) string {
	if dry {
		return w.dry
	}
	return w.done
}

// title is in, capitalised for a heading or the start of a sentence.
func (w words) title(dry bool) string { return capitalise(w.in(dry)) }

// The one table of outcome words. The log line of a PR, the counts line of
// the log, the job summary and the terminal's text summary all take their
// words from here, so a dry run reads the same everywhere.
var (
	wordMarked   = words{"marked stale", "would mark stale"}
	wordNotified = words{"stale notice posted", "would post stale notice"}
	wordUnstaled = words{"un-staled", "would un-stale"}
	wordClosed   = words{"closed", "would close"}
	wordCleaned  = words{"labels cleaned", "labels to clean"}
	wordStale    = words{"still stale", "still stale"}
	wordSkipped  = words{"skipped", "skipped"}
	wordFailed   = words{"failed", "failed"}

	// Headings over the PRs of a run.
	wordActedOn      = words{"acted on", "would act on"}
	wordLabelRemoved = words{"stale label removed", "stale label would be removed"}
)

// tallyRow is one outcome and how many PRs had it.
type tallyRow struct {
	words words
	n     int
}

// tally is the end-of-run counts, in the order every report lists them.
func tally(r sweep.Result) []tallyRow {
	return []tallyRow{
		{wordMarked, len(r.Marked)},
		{wordUnstaled, len(r.Unstaled)},
		{wordClosed, len(r.Closed)},
		{wordStale, len(r.Stale)},
		{wordSkipped, len(r.Skipped)},
		{wordFailed, len(r.Failed)},
		{wordCleaned, len(r.Cleaned)},
	}
}

// tallyLine is the counts as one line: "marked stale 3, un-staled 1, ...".
func tallyLine(r sweep.Result) string {
	rows := tally(r)
	parts := make([]string, len(rows))
	for i, row := range rows {
		parts[i] = fmt.Sprintf("%s %d", row.words.in(r.DryRun), row.n)
	}
	return strings.Join(parts, ", ")
}

// capitalise upper-cases the first letter of s.
func capitalise(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
