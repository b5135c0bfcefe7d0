package report

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// maxSummaryBytes bounds what Summary returns. GitHub refuses a step summary
// over 1 MiB (1,048,576 bytes); the margin leaves room for the newline
// AddStepSummary appends and for anything else a later step adds.
const maxSummaryBytes = 1_000_000

// Row and byte caps per table. Their byte budgets add up to well under
// maxSummaryBytes, so each table shows as much as it can without starving the
// sections after it (API usage, skipped PRs).
var (
	failedCap  = sectionCap{rows: 200, bytes: 120_000}
	actedCap   = sectionCap{rows: 1000, bytes: 350_000}
	staleCap   = sectionCap{rows: 500, bytes: 180_000}
	skippedCap = sectionCap{rows: 300, bytes: 90_000}
	cleanedCap = sectionCap{rows: 200, bytes: 50_000}
	routeCap   = sectionCap{rows: 50, bytes: 10_000}
)

type sectionCap struct{ rows, bytes int }

// collapseRows is the size past which a table of PRs is folded into a
// <details> block: the first screen keeps what happened and what comes next.
const collapseRows = 20

// Summary renders the job summary for one run on repo ("owner/name") as
// GitHub-flavoured markdown, never longer than maxSummaryBytes.
//
// The first screen says what happened and what comes next: the banner of a
// dry run, the run line, a stop, failures, the counts, then the queue (the
// age histogram, the next 14 days, and whose turn it is when the run read
// turns). The PR tables follow, folded when
// long, and the API usage, folded.
func Summary(r sweep.Result, repo string) string {
	var b strings.Builder
	dry := r.DryRun

	fmt.Fprintf(&b, "## stalepr: %s\n\n", md(repo, 200))
	if dry {
		// GitHub's alert syntax: a coloured box nobody scrolls past.
		b.WriteString("> [!WARNING]\n> **Dry run: nothing was changed.** `debug-only` is on: the outcomes below are what a real run would do.\n\n")
	}
	b.WriteString(runLine(r, mdStamp))
	writeQuietNote(&b, r)

	if r.Stopped != nil {
		writeStopNote(&b, r)
	}
	writeFailed(&b, r.Failed())

	if note := unreadNote(r); note != "" {
		b.WriteString("> [!CAUTION]\n> " + note + "\n\n")
	}
	writeCounts(&b, r)
	b.WriteString(dashboardNote(r, func(it sweep.Item) string { return prLink(it.Number, it.URL) }, md))

	if len(r.Queue) > 0 && r.EventPR == 0 { // an event run's one PR is no queue
		b.WriteString("### Open pull requests by last activity\n\n")
		writeHistogram(&b, r)
		fmt.Fprintf(&b, "### Next %d days\n\n", horizon)
		writeNextDays(&b, r)
	}
	writeTurns(&b, r) // the queue by turn, when the run read turns (turn.go)
	writeAudit(&b, r, "###")

	writeActed(&b, r)
	writeStale(&b, r)
	writeCleaned(&b, r.Cleaned(), dry)
	writeSkipped(&b, r.Skipped())

	writeAPIUsage(&b, r)
	return capSize(b.String(), maxSummaryBytes)
}

// writeFailed lists the failed PRs first among the tables, one row per
// error: the step fails for them, so they are what the reader came for.
func writeFailed(b *strings.Builder, failed []sweep.Item) {
	if len(failed) == 0 {
		return
	}
	fmt.Fprintf(b, "### ❌ Failed (%d)\n\n", len(failed))
	fmt.Fprintf(b, "These pull requests were %s because a request failed; the step fails so this gets noticed. The next run retries them.\n\n", untouched(failed))
	groups := failGroups(failed)
	writeTable(b, []string{"PR", "Title", "Error"}, len(groups), func(i int) []string {
		g := groups[i]
		return []string{prLink(g.first.Number, g.first.URL), md(g.first.Title, maxTitleRunes), halfDone(g.first) + md(g.first.Err, maxErrRunes) + g.same()}
	}, failedCap, nil)
}

// writeActed lists what the run did (or would do, in a dry run), folded
// when long; the Reason column shows only when some row's reason tells
// more than its outcome.
func writeActed(b *strings.Builder, r sweep.Result) {
	acted := actedRows(r)
	if len(acted) == 0 {
		return
	}
	dry := r.DryRun
	fmt.Fprintf(b, "### %s (%d)\n\n", wordActedOn.title(dry), len(acted))
	headers := []string{"PR", "Title", "Outcome", daysHeader(r), "Closes"}
	reasons := anyReasonSaysMore(acted)
	if reasons {
		headers = []string{"PR", "Title", "Outcome", "Reason", daysHeader(r), "Closes"}
	}
	folded(b, len(acted), actedCap, func(b *strings.Builder) {
		writeTable(b, headers, len(acted), func(i int) []string {
			return actedCells(acted[i], dry, reasons)
		}, actedCap, func(from int) string {
			return hiddenByOutcome(acted[from:], dry)
		})
	})
}

// actedCells is one row of the acted-on table; only a mark or a notice
// has a close date to show.
func actedCells(a actedRow, dry, reasons bool) []string {
	closes := "—"
	if a.it.Outcome == sweep.Marked || a.it.Outcome == sweep.Notified {
		closes = mdCloseDate(a.it.CloseAt)
	}
	row := []string{prLink(a.it.Number, a.it.URL), md(a.it.Title, maxTitleRunes), outcome(a.it, dry) + branchDeleted(a.it)}
	if reasons {
		reason := ""
		if saysMore(a) {
			reason = md(string(a.it.Reason), maxReasonRunes)
		}
		row = append(row, reason)
	}
	return append(row, strconv.Itoa(a.it.InactiveDays), closes)
}

// writeStale lists the PRs still stale, each with the date it closes.
func writeStale(b *strings.Builder, r sweep.Result) {
	stale := r.Stale()
	if len(stale) == 0 {
		return
	}
	fmt.Fprintf(b, "### Still stale (%d)\n\n", len(stale))
	folded(b, len(stale), staleCap, func(b *strings.Builder) {
		writeTable(b, []string{"PR", "Title", daysHeader(r), "Closes"}, len(stale), func(i int) []string {
			it := stale[i]
			return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), strconv.Itoa(it.InactiveDays), mdCloseDate(it.CloseAt)}
		}, staleCap, nil)
	})
}

// writeSkipped lists the skipped PRs, always folded: they are why a PR the
// reader expected is missing, rarely what they came for.
func writeSkipped(b *strings.Builder, skipped []sweep.Item) {
	if len(skipped) == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>Skipped %s (exempt or filtered out)</summary>\n\n", plural(len(skipped), "pull request"))
	writeTable(b, []string{"PR", "Title", "Reason"}, len(skipped), func(i int) []string {
		it := skipped[i]
		return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), md(string(it.Reason), maxReasonRunes)}
	}, skippedCap, nil)
	b.WriteString("</details>\n\n")
}

// failGroup is a failure and the PRs that failed after it with the same
// error (Item.SameAs): one row, not one per PR.
type failGroup struct {
	first sweep.Item
	more  []int
}

// untouched says what became of failed PRs: left untouched, or, when a
// write of one went through before its failure (its label on, its notice
// not posted), half done too; halfDone marks that one's row.
func untouched(failed []sweep.Item) string {
	for _, it := range failed {
		if it.Partial || it.MaybeWritten {
			return "left untouched or half done"
		}
	}
	return "left untouched"
}

func halfDone(it sweep.Item) string {
	switch {
	case it.Partial:
		return "half done: "
	case it.MaybeWritten:
		return "perhaps half done: "
	}
	return ""
}

// failGroups groups failed items by the first PR of their error, in the
// run's order.
func failGroups(failed []sweep.Item) []failGroup {
	var groups []failGroup
	at := map[int]int{}
	for _, it := range failed {
		if i, ok := at[it.SameAs]; ok && it.SameAs != 0 {
			groups[i].more = append(groups[i].more, it.Number)
			continue
		}
		at[it.Number] = len(groups)
		groups = append(groups, failGroup{first: it})
	}
	return groups
}

// maxSameShown is how many PR numbers a failure's row names of those that
// failed the same way.
const maxSameShown = 10

// same says which PRs failed the same way; "" when
// none did.
func (g failGroup) same() string {
	if len(g.more) == 0 {
		return ""
	}
	nums := make([]string, 0, maxSameShown)
	for _, n := range g.more[:min(len(g.more), maxSameShown)] {
		nums = append(nums, "#"+strconv.Itoa(n))
	}
	list := strings.Join(nums, ", ")
	if len(g.more) > maxSameShown {
		list += ", …"
	}
	return fmt.Sprintf(" (the same for %s: %s)", plural(len(g.more), "more pull request"), list)
}

// writeCleaned lists the clean-ups, folded: under one title when they are
// one kind for one reason (the stale label off PRs a person closed), else
// each with its outcome and reason (merged, closed by an earlier run of
// ours, a branch deletion finished, close-pr-label off a reopened PR).
func writeCleaned(b *strings.Builder, cleaned []sweep.Item, dry bool) {
	if len(cleaned) == 0 {
		return
	}
	if len(cleaned) == len(sweep.Result{Items: cleaned}.With(sweep.LabelCleaned)) && sameReason(cleaned) {
		fmt.Fprintf(b, "<details><summary>%s from %s: %s</summary>\n\n",
			wordLabelRemoved.title(dry), plural(len(cleaned), "pull request"), md(string(cleaned[0].Reason), maxReasonRunes))
		writeTable(b, []string{"PR", "Title"}, len(cleaned), func(i int) []string {
			it := cleaned[i]
			return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes)}
		}, cleanedCap, nil)
	} else {
		fmt.Fprintf(b, "<details><summary>%s on %s</summary>\n\n", wordCleaned.title(dry), plural(len(cleaned), "pull request"))
		writeTable(b, []string{"PR", "Title", "Outcome", "Reason"}, len(cleaned), func(i int) []string {
			it := cleaned[i]
			return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), wordsOf(it.Outcome).in(dry) + branchDeleted(it), md(string(it.Reason), maxReasonRunes)}
		}, cleanedCap, nil)
	}
	b.WriteString("</details>\n\n")
}

// sameReason reports whether every item has the first one's reason.
func sameReason(items []sweep.Item) bool {
	for _, it := range items {
		if it.Reason != items[0].Reason {
			return false
		}
	}
	return true
}

// folded writes a table of n rows, capped by c, inside a <details> block
// when it is longer than a screen; the block's title says how many rows it
// holds, not more.
func folded(b *strings.Builder, n int, c sectionCap, table func(*strings.Builder)) {
	if n <= collapseRows {
		table(b)
		return
	}
	if n > c.rows {
		fmt.Fprintf(b, "<details><summary>Show the first %d of %d</summary>\n\n", c.rows, n)
	} else {
		fmt.Fprintf(b, "<details><summary>Show all %d</summary>\n\n", n)
	}
	table(b)
	b.WriteString("</details>\n\n")
}

// saysMore reports whether a row's reason tells more than its outcome:
// "inactive" on a mark, or "activity by a person after the mark" on an
// un-stale, only repeats it.
func saysMore(a actedRow) bool {
	switch a.it.Reason {
	case "", lifecycle.ReasonInactive, lifecycle.ReasonOpenTooLong, lifecycle.ReasonWaitingOnAuthor, lifecycle.ReasonCloseDue, lifecycle.ReasonCloseDueAuthorTurn, lifecycle.ReasonPersonActivity:
		return false
	}
	return true
}

func anyReasonSaysMore(rows []actedRow) bool {
	for _, a := range rows {
		if saysMore(a) {
			return true
		}
	}
	return false
}

func writeStopNote(b *strings.Builder, r sweep.Result) {
	head, rest := stopNote(r, md, func(s string) string { return "`" + s + "`" })
	fmt.Fprintf(b, "> ⚠️ **%s**%s\n\n", head, rest)
}

// stopNote words how a run ended early, in sentences true for the way it
// stopped: a limit leaves PRs for the next run; a failed listing fails the
// step and says whether anything was changed before it. esc escapes
// untrusted text and code marks an input's name for where the note goes.
func stopNote(r sweep.Result, esc func(string, int) string, code func(string) string) (head, rest string) {
	head, rest = stopped(r, esc, code)
	return head, rest + notDone(r)
}

// notDone names the parts of the run the stop left out: " The closure
// audit was not done; the next run does it."
func notDone(r sweep.Result) string {
	if len(r.NotDone) == 0 {
		return ""
	}
	names := make([]string, len(r.NotDone))
	for i, p := range r.NotDone {
		names[i] = string(p)
	}
	list := strings.Join(names, " and ")
	if len(names) > 2 {
		list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	verb, it := "was", "it"
	if len(names) > 1 {
		verb, it = "were", "them"
	}
	return " " + capitalise(list) + " " + verb + " not done; the next run does " + it + "."
}

// stopped is stopNote without the parts not done.
func stopped(r sweep.Result, esc func(string, int) string, code func(string) string) (head, rest string) {
	var b strings.Builder
	var le *sweep.ListingError
	if errors.As(r.Stopped, &le) {
		head = "A listing of pull requests failed, so the step fails."
		b.WriteString(" Error: " + strings.TrimRight(esc(le.Err.Error(), maxErrRunes), ".") + ".")
		switch n := changed(r); {
		case r.DryRun:
			b.WriteString(" Nothing was changed (dry run).")
		case n == 0:
			b.WriteString(" Nothing was changed.")
		case n == 1:
			b.WriteString(" 1 pull request was changed before it, as listed here.")
		default:
			fmt.Fprintf(&b, " %d pull requests were changed before it, as listed here.", n)
		}
		b.WriteString(" The next run lists them again.")
		return head, b.String()
	}
	if r.WriteRefused() != nil {
		// The error, with what to do, is the Failed table's one row, just
		// below: not said twice on the first screen.
		head = "GitHub refused this token's first write, so the run stopped there and the step fails."
		b.WriteString(" The failed pull request below says why and what permission to grant.")
		switch {
		case r.Left == 1:
			b.WriteString(" 1 other pull request that needs work was not tried;")
		case r.Left > 1:
			fmt.Fprintf(&b, " %d other pull requests that need work were not tried;", r.Left)
		default:
			b.WriteString(" Nothing else was tried;")
		}
		b.WriteString(" the next run takes them up once the token may write.")
		return head, b.String()
	}
	if errors.Is(r.Stopped, context.Canceled) {
		head = "This run was cancelled before it finished."
		switch {
		case r.Left == 0:
			b.WriteString(" The pull requests it did not reach are left for the next run.")
		case r.Left == 1:
			b.WriteString(" 1 pull request that needs work was not reached; the next run takes it up.")
		default:
			fmt.Fprintf(&b, " %d pull requests that need work were not reached; the next run takes them up.", r.Left)
		}
		return head, b.String()
	}
	head = fmt.Sprintf("This run stopped early: %s.", esc(StopReason(r.Stopped), maxReasonRunes))
	switch {
	case r.Left == 1:
		fmt.Fprintf(&b, " 1 pull request that needs work%s was left for the next run.", leftKinds(r))
	case r.Left > 1:
		fmt.Fprintf(&b, " %d pull requests that need work%s were left for the next run.", r.Left, leftKinds(r))
	default:
		b.WriteString(" Pull requests it did not reach are left for the next run.")
	}
	if r.Unlisted && r.Left > 0 {
		b.WriteString(" So are those it had not listed yet.")
	}
	switch err := r.Stopped; {
	case errors.Is(err, api.Budget):
		b.WriteString(" Raise " + code("operations-per-run") + " or run more often to get through them sooner.")
	case errors.Is(err, api.Deadline):
		b.WriteString(" GitHub answered slowly; raise " + code("run-timeout") + " if runs often stop here.")
	case errors.Is(err, api.RateReserve), errors.Is(err, api.RateLimit), errors.Is(err, api.Secondary):
		b.WriteString(" The next run continues once the rate limit allows.")
	}
	return head, b.String()
}

// StopReason names why a run stopped, in a few words: the limit, the
// cancellation or the failed listing.
func StopReason(err error) string {
	var le *sweep.ListingError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, api.Budget):
		return api.Budget.Error()
	case errors.Is(err, api.RateReserve):
		return api.RateReserve.Error()
	case errors.Is(err, api.Secondary):
		return api.Secondary.Error()
	case errors.Is(err, api.RateLimit):
		return api.RateLimit.Error()
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.As(err, &le):
		return "listing failed"
	case errors.Is(err, api.ErrWriteRefused):
		return "a write refused for want of permission"
	}
	return err.Error()
}

// runLine says when the run was and what it looked at, for both summaries;
// stamp words the time for where the line goes.
func runLine(r sweep.Result, stamp func(time.Time) string) string {
	var at string
	if !r.Now.IsZero() {
		at = fmt.Sprintf("Run at %s. ", stamp(r.Now))
	}
	return at + lookedAt(r) + "\n\n"
}

// lookedAt says how many pull requests are open and how many the run
// looked at: a total only when the run knows it (Result.OpenTotal), and
// why it looked at fewer.
func lookedAt(r sweep.Result) string {
	if r.EventPR != 0 {
		// An event run lists nothing: it read its one PR.
		return fmt.Sprintf("Looked at #%d alone, the pull request its event concerns; the scheduled run looks at the others.", r.EventPR)
	}
	why := ""
	if w := unlistedWhy(r); w != "" {
		why = " (" + w + ")"
	}
	switch {
	case r.OpenTotalKnown && r.Considered >= r.OpenTotal && r.OpenTotal > 1:
		return fmt.Sprintf("Looked at all %d open pull requests.", r.OpenTotal)
	case r.OpenTotalKnown && r.Considered < r.OpenTotal:
		return fmt.Sprintf("%s open; looked at %d of them%s.", plural(r.OpenTotal, "pull request"), r.Considered, why)
	case why != "":
		return fmt.Sprintf("Looked at %s%s; how many are open in all was not counted.", plural(r.Considered, "open pull request"), why)
	}
	return fmt.Sprintf("Looked at %s.", plural(r.Considered, "open pull request"))
}

// unlistedWhy says why the run did not list every open PR, in a few
// words; "" when it did, or when a failed listing says it elsewhere.
func unlistedWhy(r sweep.Result) string {
	switch {
	case r.ListedAll || r.ListingFailed():
		return ""
	case r.Unlisted && r.Stopped != nil:
		return "the run stopped while listing: " + StopReason(r.Stopped)
	case r.ListedUntil.IsZero():
		return "only those labelled stale: marking is disabled"
	case !r.StaleCutoff.IsZero() && r.ListedUntil.Before(r.StaleCutoff):
		return "the longest inactive, as many as this run's requests could act on"
	}
	return "the longest inactive, up to the stale cutoff: nothing falls due on the others yet"
}

// changed counts the PRs the run wrote to (or would have, in a dry run).
func changed(r sweep.Result) int {
	return len(r.Marked()) + len(r.Unstaled()) + len(r.Closed()) + len(r.Cleaned())
}

func writeCounts(b *strings.Builder, r sweep.Result) {
	b.WriteString("| Outcome | Pull requests |\n| --- | ---: |\n")
	for _, row := range tally(r) {
		fmt.Fprintf(b, "| %s | %d |\n", row.words.title(r.DryRun), row.n)
	}
	b.WriteString("\n")
	for _, note := range pacedNotes(r) {
		b.WriteString(capitalise(note) + ".\n\n")
	}
}

// pacedNotes are pacedNote and escalationsNote, those not empty.
func pacedNotes(r sweep.Result) []string {
	var out []string
	for _, note := range []string{pacedNote(r), escalationsNote(r)} {
		if note != "" {
			out = append(out, note)
		}
	}
	return out
}

// escalationsNote says how many review escalations due escalations-per-run
// left for the next runs, and when they go; "" for none.
func escalationsNote(r sweep.Result) string {
	n := r.EscalationsPaced
	if n == 0 || r.EscalationsPerRun <= 0 {
		return ""
	}
	head := plural(n, "review escalation") + " due wait"
	if n == 1 {
		head += "s"
	}
	when, runs := escalationsWhen(r)
	if runs == 1 {
		head += " for the next run"
	} else {
		head += ": " + when
	}
	return fmt.Sprintf("%s (escalations-per-run: %d a run, the longest waiting first)", head, r.EscalationsPerRun)
}

// escalationsWhen says when the review escalations escalations-per-run
// held back go, at its pace if no other falls due meanwhile ("5 go next
// run, the last 2 in 3 runs"), and in how many runs the last goes.
func escalationsWhen(r sweep.Result) (string, int) {
	n, per := r.EscalationsPaced, r.EscalationsPerRun
	runs := (n + per - 1) / per
	if runs == 1 {
		return "all go next run", 1
	}
	return fmt.Sprintf("%d go next run, the last %d in %d runs", per, n-(runs-1)*per, runs), runs
}

// pacedNote says how many nudges due review-nudges-per-run left for the
// next runs; "" for none.
func pacedNote(r sweep.Result) string {
	if r.NudgesPaced == 0 {
		return ""
	}
	verb := "wait"
	if r.NudgesPaced == 1 {
		verb = "waits"
	}
	return fmt.Sprintf("%s due %s for the next runs (review-nudges-per-run: the longest waiting go first)", plural(r.NudgesPaced, "review nudge"), verb)
}

// writeAPIUsage writes the request counts, folded: they matter when a run
// stops early, and the stop note says so on the first screen.
func writeAPIUsage(b *strings.Builder, r sweep.Result) {
	line := apiUsage(r)
	if len(r.ByRoute) == 0 {
		b.WriteString(line + "\n")
		return
	}
	fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", line)
	defer b.WriteString("</details>\n")
	type route struct {
		name string
		n    int
	}
	routes := make([]route, 0, len(r.ByRoute))
	for k, v := range r.ByRoute {
		routes = append(routes, route{k, v})
	}
	sort.Slice(routes, func(i, j int) bool {
		if routes[i].n != routes[j].n {
			return routes[i].n > routes[j].n
		}
		return routes[i].name < routes[j].name
	})
	writeTable(b, []string{"Route", "Requests"}, len(routes), func(i int) []string {
		return []string{md(routes[i].name, maxReasonRunes), strconv.Itoa(routes[i].n)}
	}, routeCap, nil)
}

// requests is "23 requests (5 writes)"; a dry run adds what the real run
// would send, refused writes included: "9 requests (0 writes; a real run
// would send 30)".
func requests(r sweep.Result) string {
	s := fmt.Sprintf("%s (%s", plural(r.Requests, "request"), plural(r.Writes, "write"))
	if r.DryRun && r.WouldSend > 0 {
		s += fmt.Sprintf("; a real run would send %d", r.Requests+r.WouldSend)
	}
	return s + ")"
}

// rateLeft is "977 of 1000 left", "977 left" when the limit is unknown, or
// "unknown". A dry run counts the requests it did not send (the writes, and
// the reads only a write makes true) as sent, so it stops where the real
// run would: what is left is then after them, and it says so.
func rateLeft(r sweep.Result) string {
	s := left(r.RateRemaining, r.RateLimit, "", "unknown")
	if r.DryRun && r.WouldSend > 0 && r.RateRemaining >= 0 {
		s += fmt.Sprintf(", counting the %s a real run would send that this dry run did not", plural(r.WouldSend, "request"))
	}
	return s
}

// pointsLeft is the GraphQL points bucket as rateLeft words the REST one.
func pointsLeft(r sweep.Result) string {
	return left(r.PointsRemaining, r.PointsLimit, " points", "points left unknown")
}

// left words what is left of a bucket: remaining < 0 is unknown, limit <= 0
// a limit GitHub did not tell.
func left(remaining, limit int, unit, unknown string) string {
	switch {
	case remaining < 0:
		return unknown
	case limit <= 0:
		return fmt.Sprintf("%d%s left", remaining, unit)
	}
	return fmt.Sprintf("%d of %d%s left", remaining, limit, unit)
}

// unreadNote says how many PRs GitHub's answers gave in error or left out
// with nothing to name them by; "" when none.
func unreadNote(r sweep.Result) string {
	if r.Unread == 0 {
		return ""
	}
	return fmt.Sprintf("GitHub's answers left out %s or gave them in error without their numbers: "+
		"left untouched, and the step fails so this gets noticed; the next run reads them again.", plural(r.Unread, "pull request"))
}

// apiUsage is the API line: the requests, the REST rate limit, and the
// GraphQL queries among the requests with their points.
func apiUsage(r sweep.Result) string {
	line := fmt.Sprintf("API usage: %s. Rate limit: %s.", requests(r), rateLeft(r))
	if r.Queries > 0 {
		queries := "1 query"
		if r.Queries != 1 {
			queries = fmt.Sprintf("%d queries", r.Queries)
		}
		line += fmt.Sprintf(" GraphQL: %s of them, %s; %s.", queries, plural(r.Points, "point"), pointsLeft(r))
	}
	return line + whoMayPush(r)
}

// whoMayPush says how the run learnt who may push, and what it cost: the
// collaborator listing, accounts' permissions read one by one, or both
// (the listing refused or unsure of some); "" when it needed neither.
func whoMayPush(r sweep.Result) string {
	switch {
	case r.CollaboratorPages > 0 && r.PermissionReads > 0:
		return fmt.Sprintf(" Who may push: the collaborator listing (%s) and %s.", plural(r.CollaboratorPages, "request"), plural(r.PermissionReads, "permission read"))
	case r.CollaboratorPages > 0:
		return fmt.Sprintf(" Who may push: the collaborator listing, %s.", plural(r.CollaboratorPages, "request"))
	case r.PermissionReads > 0:
		return fmt.Sprintf(" Who may push: %s, one per account.", plural(r.PermissionReads, "permission read"))
	}
	return ""
}

// plural is "1 pull request" or "2 pull requests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func closeDate(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02")
}

// mdCloseDate is closeDate for markdown: a date that never wraps.
func mdCloseDate(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return mdDay(t)
}

type actedRow struct {
	it sweep.Item
}

// actedRows is the PRs marked (and notified), un-staled and closed, in
// that order.
func actedRows(r sweep.Result) []actedRow {
	var rows []actedRow
	// Every write a PR gets is listed: the rules' first, then the turn's
	// (nudges, turn labels) and the copies of notices deleted.
	for _, outs := range [][]sweep.Outcome{{sweep.Marked, sweep.Notified}, {sweep.Unstaled}, {sweep.Closed},
		{sweep.Rerequested}, {sweep.Nudged}, {sweep.Escalated}, {sweep.TurnLabeled, sweep.NudgeLabeled}, {sweep.DuplicateDeleted}} {
		for _, it := range r.With(outs...) {
			rows = append(rows, actedRow{it})
		}
	}
	return rows
}

// branchDeleted is what a row's outcome adds when the run deleted the PR's
// branch: ", branch fix-x deleted"; "" when it did not.
func branchDeleted(it sweep.Item) string {
	if it.Branch == "" {
		return ""
	}
	return ", branch " + md(it.Branch, maxReasonRunes) + " deleted"
}

// outcome words what happened to a PR, or what would have in a dry run.
func outcome(it sweep.Item, dry bool) string { return wordsOf(it.Outcome).in(dry) }

// hiddenByOutcome counts the rows left out of the acted-on table by their
// outcome: "3 marked stale, 1 closed".
func hiddenByOutcome(rows []actedRow, dry bool) string {
	var order []string
	n := map[string]int{}
	for _, a := range rows {
		w := outcome(a.it, dry)
		if n[w] == 0 {
			order = append(order, w)
		}
		n[w]++
	}
	parts := make([]string, len(order))
	for i, w := range order {
		parts[i] = fmt.Sprintf("%d %s", n[w], w)
	}
	return strings.Join(parts, ", ")
}

// writeTable writes a markdown table of n rows, stopping after c.rows rows or
// before the table would grow past c.bytes, and then says how many rows were
// left out. Cells must already be escaped. more, if set, details the rows
// from the first hidden one on.
func writeTable(b *strings.Builder, headers []string, n int, row func(i int) []string, c sectionCap, more func(from int) string) {
	var t strings.Builder
	t.WriteString("| " + strings.Join(headers, " | ") + " |\n|")
	t.WriteString(strings.Repeat(" --- |", len(headers)))
	t.WriteString("\n")
	shown := 0
	for i := 0; i < n && i < c.rows; i++ {
		line := "| " + strings.Join(row(i), " | ") + " |\n"
		if t.Len()+len(line) > c.bytes {
			break
		}
		t.WriteString(line)
		shown++
	}
	if shown == 0 && n > 0 {
		// Nothing fits: keep the header out of it and only say how many.
		fmt.Fprintf(b, "%d not shown: too long for the job summary.\n\n", n)
		return
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	if hidden := n - shown; hidden > 0 {
		fmt.Fprintf(b, "… and %d more", hidden)
		if more != nil {
			if d := more(shown); d != "" {
				fmt.Fprintf(b, " (%s)", d)
			}
		}
		b.WriteString(" not shown.\n\n")
	}
}

// capSize is a last guard: should s be longer than max bytes, it is cut at a
// line break and says so.
func capSize(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const note = "\n\n… the rest of this summary was cut to keep it under GitHub's 1 MiB limit.\n"
	cut := max - len(note)
	if i := strings.LastIndexByte(s[:cut], '\n'); i >= 0 {
		cut = i
	}
	return s[:cut] + note
}
