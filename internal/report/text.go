package report

import (
	"fmt"
	"strconv"
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
		fmt.Fprintf(&b, "Failed (%d), %s; the next run retries them:\n", len(failed), untouched(failed))
		groups := failGroups(failed)
		textRows(&b, len(groups), func(i int) string {
			g := groups[i]
			return fmt.Sprintf("#%d %q: %s%s%s", g.first.Number, oneLine(g.first.Title, maxTitleRunes), halfDone(g.first), oneLine(g.first.Err, maxErrRunes), g.same())
		})
	}

	if note := unreadNote(r); note != "" {
		b.WriteString(note + "\n\n")
	}
	b.WriteString(tallyLine(r) + ".\n\n")
	b.WriteString(dashboardNote(r, func(it sweep.Item) string { return "#" + strconv.Itoa(it.Number) }, oneLine))
	writeTextTurns(&b, r)
	writeTextAudit(&b, r)

	if acted := actedRows(r); len(acted) > 0 {
		b.WriteString(wordActedOn.title(dry) + ":\n")
		textRows(&b, len(acted), func(i int) string { return PRLine(acted[i].it, dry) })
	}
	if len(stale) > 0 {
		fmt.Fprintf(&b, "Still stale (%d):\n", len(stale))
		textRows(&b, len(stale), func(i int) string {
			it := stale[i]
			return fmt.Sprintf("#%d %s, closes %s — %q", it.Number, inactiveDays(it), closeDate(it.CloseAt), oneLine(it.Title, maxTitleRunes))
		})
	}
	switch {
	case len(cleaned) == 0:
	case len(cleaned) == len(r.With(sweep.LabelCleaned)) && sameReason(cleaned):
		fmt.Fprintf(&b, "%s (%s):\n", wordLabelRemoved.title(dry), oneLine(string(cleaned[0].Reason), maxReasonRunes))
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
	b.WriteString(apiUsage(r) + "\n")
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

// writeTextTurns is the queue by turn for a terminal, as the job summary's
// "Whose turn it is": the counts by turn, then each turn's PRs, longest in
// turn first.
func writeTextTurns(b *strings.Builder, r sweep.Result) {
	if !knowsTurns(r) && len(r.Nudged()) == 0 {
		return
	}
	groups, unknown := turnGroups(r)
	b.WriteString("Whose turn it is:\n")
	for _, g := range groups {
		longest := ""
		if len(g.items) > 0 {
			longest = ", longest " + plural(daysIn(g.items[0].TurnSince, r.Now), "day")
		}
		fmt.Fprintf(b, "  %s: %d%s\n", party(g.whose), len(g.items), longest)
	}
	if len(r.Nudged()) > 0 {
		fmt.Fprintf(b, "  %s: %d\n", wordNudged.title(r.DryRun), len(r.Nudged()))
	}
	b.WriteString(turnsCovered(r, unknown, "these counts") + "\n\n")
	for _, g := range groups {
		if len(g.items) == 0 {
			continue
		}
		fmt.Fprintf(b, "%s (%d):\n", waitingOn(g.whose), len(g.items))
		textRows(b, len(g.items), func(i int) string {
			it := g.items[i]
			return fmt.Sprintf("#%d %s in turn — %q", it.Number, plural(daysIn(it.TurnSince, r.Now), "day"), oneLine(it.Title, maxTitleRunes))
		})
	}
}
