package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Row and byte caps of the dashboard's groups. With the histogram and the
// words around them, Dashboard stays under 45,000 bytes: GitHub refuses an
// issue body over 65,536 characters (a character is at least a byte), and
// the block shares the body with what people wrote outside it.
var (
	dashStaleCap   = sectionCap{rows: 150, bytes: 22_000}
	dashMarkCap    = sectionCap{rows: 100, bytes: 12_000}
	dashRevivedCap = sectionCap{rows: 50, bytes: 6_000}
)

// dashGroup is one group of the dashboard: the PRs waiting for the same
// thing, in the order they fall due.
type dashGroup struct {
	title, intro string
	headers      []string
	items        []sweep.QueueItem
	cap          sectionCap
	row          func(it sweep.QueueItem) []string
}

// Dashboard renders what the dashboard issue's marked block holds: the open
// PRs grouped by what they wait for, each linked, with its age in that
// state, and the age histogram. Untrusted titles are escaped as in the job
// summary. The time of the update is not part of it (package dashboard adds
// it), so a run that finds nothing changed has nothing to write. In a
// quiet period it says so first.
func Dashboard(r sweep.Result) string { return dashQuiet(r) + dashboard(r) + dashAudit(r) }

// dashAudit is the closure audit's section, when it ran.
func dashAudit(r sweep.Result) string {
	var b strings.Builder
	writeAudit(&b, r, "####")
	return b.String()
}

func dashboard(r sweep.Result) string {
	var b strings.Builder
	now := r.Now
	days := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return plural(daysIn(t, now), "day")
	}
	link := func(it sweep.QueueItem) string { return prLink(it.Number, it.URL) }
	title := func(it sweep.QueueItem) string { return md(it.Title, maxTitleRunes) }

	var stale, marks, revived, intake []sweep.QueueItem
	end := horizonEnd(now)
	for _, it := range r.Queue {
		switch {
		case it.State == sweep.QueueStale:
			stale = append(stale, it)
		case it.State == sweep.QueueIntake && !it.Due.IsZero():
			intake = append(intake, it)
		case it.State == sweep.QueueRevived:
			revived = append(revived, it)
		case it.State == sweep.QueueFresh && !it.Due.IsZero() && it.Due.Before(end):
			marks = append(marks, it)
		}
	}
	if r.StaleClock == lifecycle.ClockAuthorTurn {
		return dashboardByTurn(r)
	}
	// The groups of the default clock; under stale-clock: author-turn they
	// are whose turn it is instead (dashboardByTurn).
	groups := []dashGroup{
		{title: "Stale, closing soonest first", intro: "Labelled stale: they close on the date shown unless someone comments, reviews or pushes.",
			headers: []string{"PR", "Title", "Stale for", "Closes"}, items: stale, cap: dashStaleCap,
			row: func(it sweep.QueueItem) []string {
				closes := mdCloseDate(it.Due)
				if it.Since.IsZero() {
					closes = "not read this run" // the budget ran out before its activity was read
				}
				return []string{link(it), title(it), days(it.Since), closes}
			}},
		{title: fmt.Sprintf("To be marked stale within %d days", horizon), intro: "No activity for a while: marked stale on the date shown unless someone acts first.",
			headers: []string{"PR", "Title", "Inactive for", "Marked on"}, items: marks, cap: dashMarkCap,
			row: func(it sweep.QueueItem) []string {
				return []string{link(it), title(it), days(it.Since), mdDay(lifecycle.Later(it.Due, now))}
			}},
		{title: "Linking no accepted issue, closing soonest first", intro: "Told how to get an issue accepted: they close on the date shown unless a maintainer takes them up or they link one.",
			headers: []string{"PR", "Title", "Told", "Closes"}, items: intake, cap: dashStaleCap,
			row: func(it sweep.QueueItem) []string {
				return []string{link(it), title(it), days(it.Since) + " ago", mdCloseDate(it.Due)}
			}},
		{title: "Revived by the last run", intro: "A person acted after the mark, so the stale label came off.",
			headers: []string{"PR", "Title", "Last activity"}, items: revived, cap: dashRevivedCap,
			row: func(it sweep.QueueItem) []string {
				return []string{link(it), title(it), days(it.Since) + " ago"}
			}},
	}
	fmt.Fprintf(&b, "### Pull requests waiting\n\n%s\n\n", dashCounts(r, len(stale), len(marks), len(revived)))
	for _, g := range groups {
		sort.SliceStable(g.items, func(i, j int) bool { return dueFirst(g.items[i].Due, g.items[j].Due) })
	}
	writeDashGroups(&b, groups)
	dashTail(&b, r)
	return b.String()
}

// writeDashGroups writes each group that holds a PR, in its order.
func writeDashGroups(b *strings.Builder, groups []dashGroup) {
	for _, g := range groups {
		if len(g.items) == 0 {
			continue
		}
		fmt.Fprintf(b, "#### %s (%d)\n\n%s\n\n", g.title, len(g.items), g.intro)
		writeTable(b, g.headers, len(g.items), func(i int) []string { return g.row(g.items[i]) }, g.cap, nil)
	}
}

// dashTail is what ends the dashboard whatever the clock: the escalated
// PRs, how far marks are known, and the histogram.
func dashTail(b *strings.Builder, r sweep.Result) {
	writeDashGroups(b, []dashGroup{escalatedGroup(r)})
	if line := dashCommands(r); line != "" {
		b.WriteString(line + "\n\n")
	}
	if marksCutShort(r) {
		b.WriteString(marksKnownNote(r) + "\n\n")
	}
	b.WriteString("#### Open pull requests by last activity\n\n")
	writeHistogram(b, r)
}

// turnOwner names whose turn it is in the dashboard's counts line.
var turnOwner = map[lifecycle.Whose]string{
	lifecycle.TurnReviewers:   "the reviewers' turn",
	lifecycle.TurnAuthor:      "the author's turn",
	lifecycle.TurnMaintainers: "the maintainers' turn to merge",
}

// dashTurnCap is the row and byte cap of each turn's group: three of them,
// with the histogram, stay under the dashboard's 45,000 bytes.
var dashTurnCap = sectionCap{rows: 100, bytes: 12_000}

// dashboardByTurn is the dashboard under stale-clock: author-turn: the open
// PRs whose turn the run read, grouped by whose turn it is (reviewers,
// author, merge), each with its days in that turn; the author's, where the
// stale clock runs, soonest due first, the others longest waiting first.
func dashboardByTurn(r sweep.Result) string {
	var b strings.Builder
	now, dry := r.Now, r.DryRun
	turns, unknown := turnGroups(r)
	intro := map[lifecycle.Whose]string{
		lifecycle.TurnReviewers: "Opened, marked ready, or answered by the author since the last review: " +
			"theirs to review. Never marked stale while it lasts.",
		lifecycle.TurnAuthor: "A maintainer reviewed or commented after the author's last action, or it is a draft: " +
			"the stale clock runs only here. A push, a reply or a re-requested review hands it back.",
		lifecycle.TurnMaintainers: "An approval stands and no change request: the maintainers' turn to merge. Never marked stale while it lasts.",
	}
	groups := make([]dashGroup, 0, len(turns))
	counts := make([]string, 0, len(turns))
	for _, g := range turns {
		headers, row := turnTable(g.whose, now, dry, true, r.NudgesPaced > 0)
		headers[2] = "Waiting for"
		days := func(it sweep.QueueItem) []string {
			cells := row(it)
			cells[2] = plural(daysIn(it.TurnSince, now), "day")
			return cells
		}
		if g.whose == lifecycle.TurnAuthor {
			sort.SliceStable(g.items, func(i, j int) bool { return dueFirst(g.items[i].Due, g.items[j].Due) })
		}
		groups = append(groups, dashGroup{title: waitingOn(g.whose), intro: intro[g.whose], headers: headers,
			items: g.items, cap: dashTurnCap, row: days})
		counts = append(counts, fmt.Sprintf("%d on %s", len(g.items), turnOwner[g.whose]))
	}
	line := fmt.Sprintf("%s looked at: %s.", capitalise(plural(len(r.Queue), "open pull request")), strings.Join(counts, "; "))
	if r.Stopped != nil {
		line += " The last run stopped early (" + md(StopReason(r.Stopped), maxReasonRunes) + "): some may be missing."
	}
	fmt.Fprintf(&b, "### Pull requests waiting\n\n%s\n\nGrouped by whose turn it is (`stale-clock: author-turn`). %s\n\n", line, turnsCovered(r, unknown, "these groups"))
	writeDashGroups(&b, groups)
	dashTail(&b, r)
	return b.String()
}

// dashCounts is the dashboard's first line: how many PRs wait for what.
func dashCounts(r sweep.Result, stale, marks, revived int) string {
	s := fmt.Sprintf("%s looked at: %d stale, %d to be marked within %d days, %d revived.",
		capitalise(plural(len(r.Queue), "open pull request")), stale, marks, horizon, revived)
	if r.Stopped != nil {
		s += " The last run stopped early (" + md(StopReason(r.Stopped), maxReasonRunes) + "): some may be missing."
	}
	return s
}

// dueFirst orders by due time, the soonest first and "never" last.
func dueFirst(a, b time.Time) bool {
	switch {
	case a.IsZero():
		return false
	case b.IsZero():
		return true
	}
	return a.Before(b)
}

// dashboardNote is what the summaries say of the dashboard issue: each item
// of r.Dashboard in its outcome's words, its number shown by link and its
// reason or error made safe by text; "" when dashboard-issue is off.
func dashboardNote(r sweep.Result, link func(sweep.Item) string, text func(string, int) string) string {
	if len(r.Dashboard) == 0 {
		return ""
	}
	parts := make([]string, 0, len(r.Dashboard))
	for _, it := range r.Dashboard {
		verb, detail := describe(it, r.DryRun)
		part := verb
		if it.Number > 0 {
			part = link(it) + " " + verb
		}
		if detail != "" {
			part += " (" + text(detail, maxReasonRunes) + ")"
		}
		parts = append(parts, part)
	}
	return "Dashboard issue: " + strings.Join(parts, "; ") + ".\n\n"
}

// notAsked says which reviewers the PR waits on were not asked, and why:
// away (away-reviewers) or busy on GitHub (their status). Named without a
// mention; "" when none.
func notAsked(it sweep.QueueItem) string {
	var parts []string
	for _, l := range it.Away {
		parts = append(parts, md(l, maxTitleRunes)+" (away)")
	}
	for _, l := range it.Busy {
		parts = append(parts, md(l, maxTitleRunes)+" (busy on GitHub)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "; not asked: " + strings.Join(parts, ", ")
}

// inRuns says which later run an escalation held back goes in, at
// escalations-per-run's pace if no other falls due meanwhile.
func inRuns(run int) string {
	if run == 1 {
		return "goes next run"
	}
	return fmt.Sprintf("goes in %d runs", run)
}

// escalatedGroup is the dashboard's Escalated section: the PRs on the
// reviewers' turn whose nudge went unanswered days-before-review-escalation
// days, escalated to escalation-reviewers in this turn (by this run or an
// earlier one), due with nobody to ask, which this section is the
// escalation of, or due and held back for a later run by
// escalations-per-run. Names are never mentioned: the dashboard is an issue.
func escalatedGroup(r sweep.Result) dashGroup {
	var items []sweep.QueueItem
	for _, it := range r.Queue {
		if it.Escalate || !it.EscalatedAt.IsZero() || it.EscalationWaits > 0 {
			items = append(items, it)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].TurnSince.Before(items[j].TurnSince) })
	intro := "Their review nudge went unanswered for `days-before-review-escalation` days, longest waiting first."
	for _, it := range items {
		if it.NudgedAt.IsZero() {
			// Escalated with no nudge: every reviewer it waits on was away or busy.
			intro = "Their review nudge went unanswered for `days-before-review-escalation` days, " +
				"or none was posted, every reviewer they wait on being away or busy; longest waiting first."
			break
		}
	}
	return dashGroup{title: "Escalated", items: items, cap: dashTurnCap,
		intro:   intro,
		headers: []string{"PR", "Title", "Waiting for", "Escalation"},
		row: func(it sweep.QueueItem) []string {
			cell := "asked " + mdDay(it.EscalatedAt)
			switch {
			case it.EscalatedAt.IsZero() && it.Escalate:
				cell = "due " + mdDay(it.EscalationDue) + ": nobody to ask (`escalation-reviewers` is empty, or all in it are away or busy)"
			case it.EscalatedAt.IsZero():
				cell = "due " + mdDay(it.EscalationDue) + ": held back by `escalations-per-run`, " + inRuns(it.EscalationWaits)
			}
			cell += notAsked(it)
			return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), plural(daysIn(it.TurnSince, r.Now), "day"), cell}
		}}
}

// dashCommands is the dashboard's line on the reopen commands the last
// run answered: the PRs reopened on command, and those it could not
// reopen (their branch gone); "" when none.
func dashCommands(r sweep.Result) string {
	var parts []string
	for _, o := range []sweep.Outcome{sweep.ReopenedOnCommand, sweep.CommandAnswered} {
		items := r.With(o)
		if len(items) == 0 {
			continue
		}
		links := make([]string, len(items))
		for i, it := range items {
			links[i] = prLink(it.Number, it.URL)
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", wordsOf(o).in(r.DryRun), len(items), strings.Join(links, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Reopen commands, by the last run: " + strings.Join(parts, "; ") + "."
}
