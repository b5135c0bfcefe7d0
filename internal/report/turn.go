package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The queue by turn (stale-clock: author-turn, or the review nudge on):
// whose turn each open PR is on and for how long, from sweep.QueueItem's
// Turn. The job summary shows it on its first screen, the dashboard issue
// groups by it under author-turn.

// Row and byte caps of each turn's table in the job summary. Three of them
// fit beside the other tables' budgets under maxSummaryBytes.
var turnCap = sectionCap{rows: 150, bytes: 30_000}

// turnGroup is the open PRs on one party's turn.
type turnGroup struct {
	whose lifecycle.Whose
	items []sweep.QueueItem
}

// turnOrder is the order the turn views list the parties in.
var turnOrder = []lifecycle.Whose{lifecycle.TurnReviewers, lifecycle.TurnAuthor, lifecycle.TurnMaintainers}

// turnGroups splits the queue by turn, each group longest in turn first;
// unknown counts the PRs whose turn the run did not read.
func turnGroups(r sweep.Result) (groups []turnGroup, unknown int) {
	by := map[lifecycle.Whose][]sweep.QueueItem{}
	for _, it := range r.Queue {
		if it.Turn == lifecycle.TurnUnknown {
			unknown++
			continue
		}
		by[it.Turn] = append(by[it.Turn], it)
	}
	for _, w := range turnOrder {
		items := by[w]
		sort.SliceStable(items, func(i, j int) bool { return items[i].TurnSince.Before(items[j].TurnSince) })
		groups = append(groups, turnGroup{whose: w, items: items})
	}
	return groups, unknown
}

// knowsTurns reports whether the run read any PR's turn: the turn views
// show only then.
func knowsTurns(r sweep.Result) bool {
	for _, it := range r.Queue {
		if it.Turn != lifecycle.TurnUnknown {
			return true
		}
	}
	return false
}

// turnWords names each party: as the turn views' headings do, and in
// their counts.
var turnWords = map[lifecycle.Whose]struct{ heading, party string }{
	lifecycle.TurnReviewers:   {"Waiting on reviewers", "reviewers"},
	lifecycle.TurnAuthor:      {"Waiting on the author", "author"},
	lifecycle.TurnMaintainers: {"Approved, waiting to be merged", "maintainers, to merge"},
}

func waitingOn(w lifecycle.Whose) string { return turnWords[w].heading }
func party(w lifecycle.Whose) string     { return turnWords[w].party }

// nudgeCell says where a PR on the reviewers' turn stands with its nudge:
// nudged by this run (the outcome's words; dated instead, where the text
// outlives the run), or earlier in this turn, due on a date, or "—" (the
// nudge is off, or the PR exempt).
func nudgeCell(it sweep.QueueItem, dry, dated, paced bool) string {
	switch {
	case it.Nudged && (dry || !dated):
		return wordNudged.in(dry)
	case !it.NudgedAt.IsZero():
		return "nudged " + mdDay(it.NudgedAt)
	case !it.NudgeDue.IsZero() && paced:
		// review-nudges-per-run holds some back: the date is the earliest.
		return "due from " + mdDay(it.NudgeDue)
	case !it.NudgeDue.IsZero():
		return "due " + mdDay(it.NudgeDue)
	}
	return "—"
}

// askedBackCell adds to a nudge cell the reviewers whose review this run
// requested again, named without a mention: the dashboard is an issue, and
// a mention there would notify them a second time.
func askedBackCell(it sweep.QueueItem, dry bool) string {
	if len(it.Rerequested) == 0 {
		return ""
	}
	return "; " + outcomes[sweep.Rerequested].words.in(dry) + " (" + md(strings.Join(it.Rerequested, ", "), maxTitleRunes) + ")"
}

// nextCell is the next step of a PR on its author's turn: its close when
// stale, its mark, or "—".
func nextCell(it sweep.QueueItem) string {
	switch {
	case it.Due.IsZero():
		return "—"
	case it.State == sweep.QueueStale, it.State == sweep.QueueIntake:
		return "closes " + mdDay(it.Due)
	}
	return "marked stale " + mdDay(it.Due)
}

// turnsCovered says which PRs the turn views cover (in: "these counts",
// "these groups"): only those whose timeline the run read have a turn. (A
// stop is said where the view says how the run ended.)
func turnsCovered(r sweep.Result, unknown int, in string) string {
	if unknown == 0 {
		return fmt.Sprintf("The turn is known for all %s: this run read each one's timeline.", plural(len(r.Queue), "open pull request"))
	}
	return fmt.Sprintf("The turn is known for the %d of %s whose timeline this run read: the other %d "+
		"(too recent for the turn to matter, exempt, or not reached) are not in %s.", len(r.Queue)-unknown,
		plural(len(r.Queue), "open pull request"), unknown, in)
}

// writeTurns is the job summary's queue by turn: counts by turn with the
// longest wait and the nudges, then per turn the PRs with their days in it
// (folded when long).
func writeTurns(b *strings.Builder, r sweep.Result) {
	if !knowsTurns(r) && len(r.Nudged()) == 0 {
		return
	}
	dry := r.DryRun
	groups, unknown := turnGroups(r)
	b.WriteString("### Whose turn it is\n\n| Waiting on | Pull requests | Longest in turn |\n| --- | ---: | ---: |\n")
	for _, g := range groups {
		longest := "—"
		if len(g.items) > 0 {
			longest = plural(daysIn(g.items[0].TurnSince, r.Now), "day")
		}
		fmt.Fprintf(b, "| %s | %d | %s |\n", capitalise(party(g.whose)), len(g.items), longest)
	}
	b.WriteString("\n")
	if len(r.Nudged()) > 0 {
		fmt.Fprintf(b, "%s: %d. ", wordNudged.title(dry), len(r.Nudged()))
	}
	b.WriteString(turnsCovered(r, unknown, "these counts") + "\n\n")
	for _, g := range groups {
		if len(g.items) == 0 {
			continue
		}
		headers, row := turnTable(g.whose, r.Now, dry, false, r.NudgesPaced > 0)
		fmt.Fprintf(b, "#### %s (%d)\n\n", waitingOn(g.whose), len(g.items))
		folded(b, len(g.items), turnCap, func(b *strings.Builder) {
			writeTable(b, headers, len(g.items), func(i int) []string { return row(g.items[i]) }, turnCap, nil)
		})
	}
}

// turnTable is the headers and rows of one turn's table in the job summary.
// dated: a nudge of this run is dated, for the dashboard issue; paced: the
// run held nudges back (review-nudges-per-run), so a nudge's date is its
// earliest.
func turnTable(w lifecycle.Whose, now time.Time, dry, dated, paced bool) ([]string, func(sweep.QueueItem) []string) {
	headers := []string{"PR", "Title", "Days in turn"}
	base := func(it sweep.QueueItem) []string {
		return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), strconv.Itoa(daysIn(it.TurnSince, now))}
	}
	switch w {
	case lifecycle.TurnReviewers:
		return append(headers, "Nudge"), func(it sweep.QueueItem) []string {
			return append(base(it), nudgeCell(it, dry, dated, paced)+askedBackCell(it, dry))
		}
	case lifecycle.TurnAuthor:
		return append(headers, "Next"), func(it sweep.QueueItem) []string { return append(base(it), nextCell(it)) }
	}
	return headers, base
}
