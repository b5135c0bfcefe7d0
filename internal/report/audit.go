package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The closure audit's section, in the job summary and the dashboard: the
// PRs a stale bot closed while they waited on the reviewers or the
// maintainers (sweep.AuditResult).

// auditCap keeps the section well inside the dashboard's room.
var auditCap = sectionCap{rows: 100, bytes: 12_000}

// waitedOn names the turn a wrongly closed PR was on at its close.
var waitedOn = map[lifecycle.Whose]string{
	lifecycle.TurnReviewers:   "the reviewers",
	lifecycle.TurnMaintainers: "the maintainers, to merge",
}

// closedBy words how a close shows a stale bot's.
var closedBy = map[lifecycle.CloseKind]string{
	lifecycle.ClosedWithLabel:  "close-pr-label",
	lifecycle.ClosedByStalepr:  "stalepr",
	lifecycle.ClosedByStaleBot: "a stale bot's comment",
}

// writeAudit writes the section, when the audit ran; heading is its
// markdown heading's level ("###" in the summary, "####" in the dashboard).
func writeAudit(b *strings.Builder, r sweep.Result, heading string) {
	a := r.Audit
	if a == nil {
		if slices.Contains(r.NotDone, sweep.PartAudit) {
			fmt.Fprintf(b, "%s Closure audit: not done this run\n\nThe run stopped before it (%s); the next run does it.\n\n",
				heading, md(StopReason(r.Stopped), maxReasonRunes))
		}
		return
	}
	fmt.Fprintf(b, "%s Closure audit: %s closed on the reviewers' or maintainers' turn\n\n", heading, plural(len(a.Wrong), "pull request"))
	fmt.Fprintf(b, "Of %s by a stale bot in the last %s (since %s), %d closed a pull request while it waited on its reviewers or its maintainers, not on its author.",
		plural(a.Closes, "close"), plural(a.Days, "day"), mdDay(a.Since), len(a.Wrong))
	if !a.Complete {
		b.WriteString(" The run stopped before the window's start: only the most recent closes were replayed.")
	}
	b.WriteString("\n\n")
	if len(a.Wrong) == 0 {
		return
	}
	reopen := reopenWords(r)
	writeTable(b, []string{"PR", "Title", "Closed", "By", "Waiting on", "Days waiting", "Reopened"}, len(a.Wrong), func(i int) []string {
		w := a.Wrong[i]
		return []string{prLink(w.Number, w.URL), md(w.Title, maxTitleRunes), mdDay(w.ClosedAt), closedBy[w.Kind],
			waitedOn[w.Whose], strconv.Itoa(w.Waited), md(reopen(w), maxReasonRunes)}
	}, auditCap, nil)
}

// reopenWords says, for a wrongly closed PR, what the run did about it:
// reopened (or would), why not, or "—" with reopen-wrongly-closed off.
func reopenWords(r sweep.Result) func(sweep.Audited) string {
	by := map[int]sweep.Item{}
	for _, it := range r.Items {
		if it.Outcome == sweep.Reopened || (it.Outcome == sweep.Skipped || it.Outcome == sweep.Failed) && it.Reason == sweep.ReasonWronglyClosed {
			by[it.Number] = it
		}
	}
	return func(w sweep.Audited) string {
		if w.Kept != "" {
			return "no: " + string(w.Kept)
		}
		it, ok := by[w.Number]
		switch {
		case !ok:
			return "—"
		case it.Outcome == sweep.Failed:
			return "failed: " + it.Err
		}
		return outcome(it, r.DryRun)
	}
}

// writeTextAudit is the section in the terminal's text summary.
func writeTextAudit(b *strings.Builder, r sweep.Result) {
	a := r.Audit
	if a == nil {
		if slices.Contains(r.NotDone, sweep.PartAudit) {
			fmt.Fprintf(b, "Closure audit: not done, the run stopped before it (%s); the next run does it.\n\n",
				oneLine(StopReason(r.Stopped), maxReasonRunes))
		}
		return
	}
	fmt.Fprintf(b, "Closure audit, last %s: %d of %s by a stale bot made on the reviewers' or maintainers' turn", plural(a.Days, "day"), len(a.Wrong), plural(a.Closes, "close"))
	if !a.Complete {
		b.WriteString(" (the most recent only: the run stopped)")
	}
	if len(a.Wrong) == 0 {
		b.WriteString(".\n\n")
		return
	}
	b.WriteString(":\n")
	reopen := reopenWords(r)
	textRows(b, len(a.Wrong), func(i int) string {
		w := a.Wrong[i]
		return fmt.Sprintf("#%d closed %s by %s, waiting on %s for %s; reopened: %s — %q", w.Number, w.ClosedAt.UTC().Format("2006-01-02"),
			closedBy[w.Kind], waitedOn[w.Whose], plural(w.Waited, "day"), oneLine(reopen(w), maxReasonRunes), oneLine(w.Title, maxTitleRunes))
	})
}
