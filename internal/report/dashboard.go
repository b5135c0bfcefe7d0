package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

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
// it), so a run that finds nothing changed has nothing to write.
func Dashboard(r sweep.Result) string {
	var b strings.Builder
	now := r.Now
	days := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return plural(max(int(now.Sub(t)/(24*time.Hour)), 0), "day")
	}
	link := func(it sweep.QueueItem) string { return prLink(it.Number, it.URL) }
	title := func(it sweep.QueueItem) string { return md(it.Title, maxTitleRunes) }

	var stale, marks, revived []sweep.QueueItem
	end := now.Add(horizon * 24 * time.Hour)
	for _, it := range r.Queue {
		switch {
		case it.State == sweep.QueueStale:
			stale = append(stale, it)
		case it.State == sweep.QueueRevived:
			revived = append(revived, it)
		case it.State == sweep.QueueFresh && !it.Due.IsZero() && it.Due.Before(end):
			marks = append(marks, it)
		}
	}
	// The groups of the default clock. With stale-clock: author-turn (issue
	// 17) the groups are whose turn it is instead: reviewers, author,
	// merge, each with its days in turn.
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
				return []string{link(it), title(it), days(it.Since), mdDay(later(it.Due, now))}
			}},
		{title: "Revived by the last run", intro: "A person acted after the mark, so the stale label came off.",
			headers: []string{"PR", "Title", "Last activity"}, items: revived, cap: dashRevivedCap,
			row: func(it sweep.QueueItem) []string {
				return []string{link(it), title(it), days(it.Since) + " ago"}
			}},
	}
	fmt.Fprintf(&b, "### Pull requests waiting\n\n%s\n\n", dashCounts(r, len(stale), len(marks), len(revived)))
	for _, g := range groups {
		if len(g.items) == 0 {
			continue
		}
		sort.SliceStable(g.items, func(i, j int) bool { return dueFirst(g.items[i].Due, g.items[j].Due) })
		fmt.Fprintf(&b, "#### %s (%d)\n\n%s\n\n", g.title, len(g.items), g.intro)
		writeTable(&b, g.headers, len(g.items), func(i int) []string { return g.row(g.items[i]) }, g.cap, nil)
	}
	if !r.ListedAll && !r.ListingFailed() && !r.MarksKnownUntil.IsZero() && r.MarksKnownUntil.Before(end) {
		fmt.Fprintf(&b, "Marks are known up to %s: later ones show in later runs.\n\n", mdDay(r.MarksKnownUntil))
	}
	b.WriteString("#### Open pull requests by last activity\n\n")
	writeHistogram(&b, r)
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

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
