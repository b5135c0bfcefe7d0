package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The queue views: what the open PRs wait for and what comes next, from the
// facts the sweep carries in Result.Queue. The job summary and the dashboard
// issue both show them.

// nbHyphen is U+2011, a hyphen no renderer breaks a line at: a date in a
// narrow table column stays on one line ("2026‑12‑31", never "2026‑12‑" /
// "31"). It is a character, so GitHub's HTML sanitiser has nothing to strip
// (it removes tags such as <nobr> that are not on its allowlist).
const nbHyphen = "\u2011"

// mdDay is t's UTC date for markdown, unbreakable.
func mdDay(t time.Time) string {
	return strings.ReplaceAll(t.UTC().Format("2006-01-02"), "-", nbHyphen)
}

// mdStamp is t's UTC date and minute for markdown, unbreakable.
func mdStamp(t time.Time) string {
	return mdDay(t) + "\u00A0" + t.UTC().Format("15:04") + "\u00A0UTC"
}

// ageBucket is one row of the age histogram: PRs whose last activity is at
// least from days ago (and less than the next bucket's).
type ageBucket struct {
	from  int
	label string
}

var ageBuckets = []ageBucket{
	{0, "under 1 week"},
	{7, "1–4 weeks"},
	{30, "1–3 months"},
	{90, "3–6 months"},
	{180, "6–12 months"},
	{365, "1–2 years"},
	{730, "over 2 years"},
}

// barWidth is the length of the longest bar of the histogram, in blocks.
const barWidth = 20

// histogram counts the queue by time since last activity.
func histogram(r sweep.Result) []int {
	n := make([]int, len(ageBuckets))
	for _, it := range r.Queue {
		if it.LastActivity.IsZero() {
			continue
		}
		days := daysIn(it.LastActivity, r.Now)
		i := sort.Search(len(ageBuckets), func(i int) bool { return ageBuckets[i].from > days }) - 1
		n[max(i, 0)]++
	}
	return n
}

// writeHistogram writes the age histogram as a table with text bars, which
// renders the same everywhere markdown does (no image, no chart syntax). A
// row the listing did not count whole says "not counted", with no number
// and no bar: a part of it would make its bar say the row is short.
func writeHistogram(b *strings.Builder, r sweep.Result) {
	counts := histogram(r)
	top, all := 0, 0
	for i, n := range counts {
		all += n
		if !uncounted(r, i) {
			top = max(top, n)
		}
	}
	if all == 0 {
		return
	}
	what := "Open PRs"
	if onlyStaleListed(r) {
		what = "Stale PRs"
	}
	fmt.Fprintf(b, "| Last activity | %s | |\n| --- | ---: | --- |\n", what)
	for i, n := range counts {
		cell, bar := "not counted", 0
		if !uncounted(r, i) {
			cell = fmt.Sprint(n)
			if n > 0 {
				bar = max(1, (n*barWidth+top/2)/top)
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", ageBuckets[i].label, cell, strings.Repeat("█", bar))
	}
	b.WriteString("\n")
	if note := listedNote(r); note != "" {
		b.WriteString(note + "\n\n")
	}
	writeAuthors(b, r)
}

// writeAuthors says where the open queue comes from: how many of its PRs
// people, first-time contributors, coding agents and other bots opened;
// nothing when people opened them all.
func writeAuthors(b *strings.Builder, r sweep.Result) {
	var n [4]int
	for _, it := range r.Queue {
		n[it.Author]++
	}
	if n[lifecycle.AuthorPerson] == len(r.Queue) {
		return
	}
	parts := make([]string, 0, len(n))
	for c, k := range n {
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%d from %s", k, lifecycle.AuthorClass(c)))
		}
	}
	fmt.Fprintf(b, "By author: %s.\n\n", strings.Join(parts, ", "))
}

// onlyStaleListed reports a run that listed the stale PRs alone (marking
// disabled): the histogram counts every one of them, and nothing else.
func onlyStaleListed(r sweep.Result) bool {
	return !r.ListedAll && !r.ListingFailed() && r.ListedUntil.IsZero()
}

// uncounted reports whether bucket i may hold open PRs the listing did
// not return: those without the stale label active after ListedUntil.
// When the stale PRs alone were listed, each bucket counts them all.
func uncounted(r sweep.Result, i int) bool {
	if r.ListedAll || r.ListingFailed() || onlyStaleListed(r) {
		return false
	}
	newest := r.Now.Add(-time.Duration(ageBuckets[i].from) * lifecycle.Day)
	return newest.After(r.ListedUntil)
}

// listedNote says which open PRs the queue views leave out, and why, when
// the listing did not return them all: how many, when GitHub said how many
// are open, and the PRs looked at that the rows not counted leave out too;
// and the PRs looked at that the histogram leaves out (closed by this run).
func listedNote(r sweep.Result) string {
	var note string
	switch {
	case r.ListedAll || r.ListingFailed():
	case onlyStaleListed(r):
		note = "Only the stale pull requests are counted: with marking disabled, the others are not listed."
	default:
		note = fmt.Sprintf("Not counted: pull requests without the stale label that were active after %s, which this run did not list: %s.",
			mdDay(r.ListedUntil), listingStop(r))
		if r.OpenTotalKnown && r.OpenTotal > r.Considered {
			note += fmt.Sprintf(" That is %d of the %d open.", r.OpenTotal-r.Considered, r.OpenTotal)
		}
		if n := inUncounted(r); n > 0 {
			note += fmt.Sprintf(" The rows they fall in show no number and no bar, though this run looked at %d there: a bar for part of a row would say it is short.", n)
		}
	}
	if gone := r.Considered - len(r.Queue); gone > 0 {
		closed := "closed by this run"
		if r.DryRun {
			closed = "that a real run would close"
		}
		are := "are"
		if gone == 1 {
			are = "is"
		}
		note = strings.TrimSpace(note + " " + fmt.Sprintf("Of the %d looked at, the %d %s %s not in it.", r.Considered, gone, closed, are))
	}
	return note
}

// inUncounted counts the PRs looked at that fall in a row not counted.
func inUncounted(r sweep.Result) int {
	n := 0
	for i, k := range histogram(r) {
		if uncounted(r, i) {
			n += k
		}
	}
	return n
}

// listingStop says why the listing of open PRs stopped at ListedUntil:
// the stale cutoff, the budget, or a stop while listing.
func listingStop(r sweep.Result) string {
	switch {
	case r.Unlisted && r.Stopped != nil:
		return "the run stopped while listing them (" + md(StopReason(r.Stopped), maxReasonRunes) + ")"
	case !r.StaleCutoff.IsZero() && r.ListedUntil.Before(r.StaleCutoff):
		return "the listing stopped once it had found as much work as this run's requests could do, before the stale cutoff (" +
			mdDay(r.StaleCutoff) + "); the next run lists on from there"
	}
	return "the listing stops past the stale cutoff, where nothing falls due, to save requests"
}

// horizon is how far "next 14 days" looks.
const horizon = 14

// horizonEnd is the end of the next horizon days.
func horizonEnd(now time.Time) time.Time { return now.Add(horizon * lifecycle.Day) }

// marksCutShort reports whether the open listing stopped past the stale cutoff, so marks
// are known only up to r.MarksKnownUntil, short of the horizon.
func marksCutShort(r sweep.Result) bool {
	return !r.ListedAll && !r.ListingFailed() && !r.MarksKnownUntil.IsZero() && r.MarksKnownUntil.Before(horizonEnd(r.Now))
}

// daysIn is the whole days from since to now, never below 0.
func daysIn(since, now time.Time) int {
	return max(int(now.Sub(since)/lifecycle.Day), 0)
}

// dueDay is one date of the next 14 days and what falls due on it; now:
// the row of what was already due when the run ended (day is zero).
type dueDay struct {
	day                                time.Time
	now                                bool
	closes, marks, nudges, escalations []sweep.QueueItem
}

// nextDays groups what falls due from the run's day on, for horizon days. A
// step already due at the run's time (a run stopped before it, or left it)
// has a row of its own, first: the run's day holds only what falls due
// later that day, so the first row's count is the one a stop says it left.
func nextDays(r sweep.Result) []dueDay {
	today := r.Now.UTC().Truncate(24 * time.Hour)
	end := horizonEnd(today)
	byDay := map[time.Time]*dueDay{}
	var overdue *dueDay
	add := func(due time.Time, it sweep.QueueItem, to func(*dueDay) *[]sweep.QueueItem) {
		if due.IsZero() || !due.Before(end) {
			return
		}
		if due.Before(r.Now) {
			if overdue == nil {
				overdue = &dueDay{now: true}
			}
			*to(overdue) = append(*to(overdue), it)
			return
		}
		d := due.UTC().Truncate(24 * time.Hour)
		dd := byDay[d]
		if dd == nil {
			dd = &dueDay{day: d}
			byDay[d] = dd
		}
		*to(dd) = append(*to(dd), it)
	}
	for _, it := range r.Queue {
		if it.State == sweep.QueueStale || it.State == sweep.QueueIntake {
			add(it.Due, it, func(d *dueDay) *[]sweep.QueueItem { return &d.closes })
		} else {
			add(it.Due, it, func(d *dueDay) *[]sweep.QueueItem { return &d.marks })
		}
		// A nudge sorts by its own date: the cell orders by Due.
		nudge := it
		nudge.Due = it.NudgeDue
		add(it.NudgeDue, nudge, func(d *dueDay) *[]sweep.QueueItem { return &d.nudges })
		esc := it
		esc.Due = escalationDue(it)
		add(esc.Due, esc, func(d *dueDay) *[]sweep.QueueItem { return &d.escalations })
	}
	out := make([]dueDay, 0, len(byDay)+1)
	if overdue != nil {
		out = append(out, *overdue)
	}
	days := make([]dueDay, 0, len(byDay))
	for _, dd := range byDay {
		days = append(days, *dd)
	}
	sort.Slice(days, func(i, j int) bool { return days[i].day.Before(days[j].day) })
	return append(out, days...)
}

// nextDaysWhat names what the next 14 days list.
func nextDaysWhat(nudges, escalations bool) string {
	switch {
	case nudges && escalations:
		return "Closes, marks, review nudges and escalations"
	case nudges:
		return "Closes, marks and review nudges"
	case escalations:
		return "Closes, marks and review escalations"
	}
	return "Closes and marks"
}

// escalationDue is the date an escalation of it falls due, when one will
// be posted; zero otherwise.
func escalationDue(it sweep.QueueItem) time.Time {
	if it.Escalate {
		return time.Time{} // nobody to ask: nothing is posted
	}
	return it.EscalationDue
}

// dueNowLabel is the date cell of the row of what was already due.
const dueNowLabel = "due now"

// overdueNote says why the first row holds steps already due, when it
// does: the run stopped before them, or left them (a write that failed).
func overdueNote(r sweep.Result) string {
	for _, it := range r.Queue {
		for _, due := range []time.Time{it.Due, it.NudgeDue, escalationDue(it)} {
			if !due.IsZero() && due.Before(r.Now) {
				if r.Stopped != nil {
					return " (what was already due is on the first row, " + dueNowLabel + ": this run stopped before it)"
				}
				return " (what was already due is on the first row, " + dueNowLabel + ": this run left it for the next)"
			}
		}
	}
	return ""
}

// maxDueLinks is how many PRs a cell of the next 14 days names.
const maxDueLinks = 8

// dueCell is "3: #12, #14, #20", naming at most maxDueLinks PRs.
func dueCell(items []sweep.QueueItem) string {
	if len(items) == 0 {
		return "—"
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Due.Before(items[j].Due) })
	links := make([]string, 0, min(len(items), maxDueLinks))
	for _, it := range items[:min(len(items), maxDueLinks)] {
		links = append(links, prLink(it.Number, it.URL))
	}
	more := ""
	if len(items) > maxDueLinks {
		more = ", …"
	}
	return fmt.Sprintf("%d: %s%s", len(items), strings.Join(links, ", "), more)
}

// writeNextDays writes what falls due in the next 14 days, by date: the
// review nudges and escalations too, each in a column of its own when any
// is due.
func writeNextDays(b *strings.Builder, r sweep.Result) {
	days := nextDays(r)
	if len(days) == 0 {
		fmt.Fprintf(b, "Nothing falls due in the next %d days.\n\n", horizon)
	} else {
		nudges, escalations := dueKinds(days)
		b.WriteString(nextDaysLead(r, nudges, escalations))
		writeDueTable(b, days, nudges, escalations)
		writePacingNotes(b, r, nudges, escalations)
	}
	if marksCutShort(r) {
		b.WriteString(marksKnownNote(r) + "\n\n")
	}
}

// dueKinds reports whether any day has a review nudge or an escalation
// due: a column shows only for a kind that has one.
func dueKinds(days []dueDay) (nudges, escalations bool) {
	for _, d := range days {
		nudges = nudges || len(d.nudges) > 0
		escalations = escalations || len(d.escalations) > 0
	}
	return nudges, escalations
}

// nextDaysLead is the sentence above the table: what falls due, and what
// would stop it.
func nextDaysLead(r sweep.Result, nudges, escalations bool) string {
	verb := "fall due"
	if r.DryRun {
		verb = "would fall due"
	}
	what, unless := nextDaysWhat(nudges, escalations), "nobody acts"
	if r.StaleClock == lifecycle.ClockAuthorTurn {
		// Only the author's turn marks and closes; a nudge waits on
		// the reviewers' turn.
		unless = "the turn does not pass"
	}
	return fmt.Sprintf("%s that %s if %s%s.\n\n", what, verb, unless, overdueNote(r))
}

// writeDueTable writes one row per day, with the nudges and escalations
// columns only when some are due.
func writeDueTable(b *strings.Builder, days []dueDay, nudges, escalations bool) {
	headers := []string{"Date", "Closes", "Marks"}
	if nudges {
		headers = append(headers, "Nudges")
	}
	if escalations {
		headers = append(headers, "Escalations")
	}
	b.WriteString("| " + strings.Join(headers, " | ") + " |\n|" + strings.Repeat(" --- |", len(headers)) + "\n")
	for _, d := range days {
		date := dueNowLabel
		if !d.now {
			date = mdDay(d.day)
		}
		cells := []string{date, dueCell(d.closes), dueCell(d.marks)}
		if nudges {
			cells = append(cells, dueCell(d.nudges))
		}
		if escalations {
			cells = append(cells, dueCell(d.escalations))
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n")
}

// writePacingNotes says when the per-run limits hold nudges or
// escalations back: the table's date is then the earliest one comes, not
// the day it comes.
func writePacingNotes(b *strings.Builder, r sweep.Result, nudges, escalations bool) {
	if nudges && r.NudgesPaced > 0 {
		b.WriteString("Review nudges are paced (review-nudges-per-run), the longest waiting first: a nudge's date is the earliest it comes.\n\n")
	}
	if escalations && r.EscalationsPaced > 0 {
		when, _ := escalationsWhen(r)
		fmt.Fprintf(b, "Review escalations are paced (escalations-per-run: %d a run, the longest waiting first): of the %d due that wait, %s; an escalation's date is the earliest it comes.\n\n",
			r.EscalationsPerRun, r.EscalationsPaced, when)
	}
}

// marksKnownNote says how far marks are known and why no further: the
// listing stopped at the PRs last active at ListedUntil, and a PR active
// since falls due a mark after MarksKnownUntil at the soonest. The closes
// are all known: the stale PRs were listed first, by their label.
func marksKnownNote(r sweep.Result) string {
	return fmt.Sprintf("Marks are known up to %s only: this run listed the pull requests without the stale label last active up to %s (%s); "+
		"one active since falls due a mark from %s on, and shows in a later run's forecast. The closes are all known: every stale pull request was listed.",
		mdDay(r.MarksKnownUntil), mdDay(r.ListedUntil), listingStop(r), mdDay(r.MarksKnownUntil))
}
