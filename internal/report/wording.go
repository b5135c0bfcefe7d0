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

// The words of the outcomes. The log line of a PR, the counts line of the
// log, the job summary and the terminal's text summary all take their words
// from outcomes below, so a dry run reads the same everywhere.
var (
	wordMarked    = words{"marked stale", "would mark stale"}
	wordNotified  = words{"stale notice posted", "would post stale notice"}
	wordUnstaled  = words{"un-staled", "would un-stale"}
	wordClosed    = words{"closed", "would close"}
	wordCleaned   = words{"labels cleaned", "labels to clean"}
	wordStale     = words{"still stale", "still stale"}
	wordSkipped   = words{"skipped", "skipped"}
	wordFailed    = words{"failed", "failed"}
	wordNudged    = words{"nudged", "would nudge"} // the reviewers, or on an approved PR the mergers
	wordAskedBack = words{"reviews requested again", "would request reviews again"}
	wordEscalated = words{"reviews escalated", "would escalate reviews"}
	wordReopened  = words{"reopened", "would reopen"}
	wordCommanded = words{"reopened on command", "would reopen on command"}
	wordAnswered  = words{"reopen commands answered", "reopen commands to answer"}
	wordLabeled   = words{"turn labels updated", "turn labels to update"}
	wordDeduped   = words{"duplicate notices deleted", "duplicate notices to delete"}
	wordIntake    = words{"intake notices posted", "intake notices to post"}

	// Headings over the PRs of a run.
	wordActedOn      = words{"acted on", "would act on"}
	wordLabelRemoved = words{"stale label removed", "stale label would be removed"}
)

// outcomeRow is how the reports word one outcome: the PR's log line and
// table cell (words), the counts line's entry it counts under (count: nil
// for none; the order of tallied says where it goes), the step output
// that lists it ("" for none), and what a PR left for the next run was to
// get ("to mark"; "" for an outcome that writes nothing).
type outcomeRow struct {
	words  words
	count  *words
	output string
	left   string
}

// outcomes is the one table of outcome words, keyed by sweep.Outcome. A new
// outcome gets its row here; TestEveryOutcomeWorded fails until it does.
var outcomes = map[sweep.Outcome]outcomeRow{
	sweep.Marked:            {wordMarked, &wordMarked, OutputStaled, "to mark"},
	sweep.Notified:          {wordNotified, &wordMarked, OutputStaled, "to mark"},
	sweep.IntakeNotified:    {words{"intake notice posted", "would post intake notice"}, &wordIntake, "", "to tell"},
	sweep.Unstaled:          {wordUnstaled, &wordUnstaled, OutputUnstaled, "to un-stale"},
	sweep.Closed:            {wordClosed, &wordClosed, OutputClosed, "to close"},
	sweep.StillStale:        {wordStale, &wordStale, "", ""},
	sweep.Skipped:           {wordSkipped, &wordSkipped, "", ""},
	sweep.Failed:            {wordFailed, &wordFailed, "", ""},
	sweep.LabelCleaned:      {words{"stale label removed", "would remove stale label"}, &wordCleaned, "", "to clean up"},
	sweep.BranchFinished:    {words{"branch deletion finished", "would finish branch deletion"}, &wordCleaned, "", "to clean up"},
	sweep.CloseLabelCleaned: {words{"close-pr-label removed", "would remove close-pr-label"}, &wordCleaned, "", "to clean up"},
	sweep.Nudged:            {wordNudged, &wordNudged, "", "to nudge"},
	sweep.Escalated:         {words{"review escalated", "would escalate the review"}, &wordEscalated, "", "to escalate"},
	sweep.Rerequested:       {words{"review requested again", "would request the review again"}, &wordAskedBack, "", "to request reviews again"},
	sweep.Reopened:          {wordReopened, &wordReopened, "", "to reopen"},
	sweep.ReopenedOnCommand: {wordCommanded, &wordCommanded, "", "to reopen on command"},
	sweep.CommandAnswered:   {words{"reopen command answered: its branch is gone", "would answer the reopen command: its branch is gone"}, &wordAnswered, "", "to answer"},
	sweep.NudgeLabeled:      {words{"review-nudge-label updated", "would update review-nudge-label"}, &wordLabeled, "", "to relabel"},
	sweep.TurnLabeled:       {words{"turn labels updated", "would update the turn labels"}, &wordLabeled, "", "to relabel"},
	sweep.DuplicateDeleted:  {words{"duplicate notice deleted", "would delete duplicate notice"}, &wordDeduped, "", ""},

	// The dashboard issue's: its line (dashLine) and the summary's.
	sweep.DashboardCreated:         {words{"created", "would be created"}, nil, "", ""},
	sweep.DashboardEdited:          {words{"updated", "would be updated"}, nil, "", ""},
	sweep.DashboardDuplicateClosed: {words{"closed", "would be closed"}, nil, "", ""},
	sweep.DashboardUpToDate:        {words{"up to date", "up to date"}, nil, "", ""},
	sweep.DashboardLeftAlone:       {words{"left alone", "left alone"}, nil, "", ""},
}

// wordsOf is an outcome's phrase.
func wordsOf(o sweep.Outcome) words { return outcomes[o].words }

// tallied is the counts line's entries, in the order every report lists
// them. An entry in occasional shows only when it counts something: most
// runs nudge nobody.
var (
	tallied    = []*words{&wordMarked, &wordUnstaled, &wordClosed, &wordStale, &wordSkipped, &wordFailed, &wordCleaned, &wordAskedBack, &wordNudged, &wordEscalated, &wordLabeled, &wordReopened, &wordCommanded, &wordAnswered, &wordDeduped, &wordIntake}
	occasional = map[*words]bool{&wordAskedBack: true, &wordEscalated: true, &wordNudged: true, &wordLabeled: true, &wordReopened: true,
		&wordCommanded: true, &wordAnswered: true, &wordDeduped: true, &wordIntake: true}
)

// tallyRow is one entry of the counts and how many PRs it counts.
type tallyRow struct {
	words words
	n     int
}

// tally is the end-of-run counts: each item counts under its outcome's
// entry.
func tally(r sweep.Result) []tallyRow {
	n := map[*words]int{}
	for _, it := range r.Items {
		n[outcomes[it.Outcome].count]++
	}
	rows := make([]tallyRow, 0, len(tallied))
	for _, w := range tallied {
		if n[w] > 0 || !occasional[w] {
			rows = append(rows, tallyRow{*w, n[w]})
		}
	}
	return rows
}

// withOutput is the items a step output lists. A PR closed in the run
// that found it stale (days-before-close 0) was found stale too: it is in
// both lists, as actions/stale lists it.
func withOutput(r sweep.Result, name string) []sweep.Item {
	var items []sweep.Item
	for _, it := range r.Items {
		if outcomes[it.Outcome].output == name || name == OutputStaled && it.Outcome == sweep.Closed && it.Unmarked {
			items = append(items, it)
		}
	}
	return items
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
