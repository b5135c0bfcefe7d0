package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/sweep"
)

// quietTitle begins quietWords; the job summary writes it in bold.
const quietTitle = "Quiet period"

// quietWords says that the run fell in a quiet period, and what waits for
// its end, with day writing the date for where the words go; "" outside
// one. The first screen must not read as a run that found nothing to do.
func quietWords(r sweep.Result, day func(time.Time) string, code func(string) string) string {
	if r.QuietUntil.IsZero() {
		return ""
	}
	verb := "marked, closed and nudged"
	if r.DryRun {
		verb = "would mark, close and nudge"
	}
	s := fmt.Sprintf(quietTitle+" (%s) until %s: this run %s nothing, and the clocks do not count its days.", code("quiet-periods"), day(r.QuietUntil), verb)
	if r.QuietHeld > 0 {
		s += fmt.Sprintf(" Marks and closes already due that wait for its end: %d.", r.QuietHeld)
	}
	return s + " Un-stales and label clean-ups go on."
}

// writeQuietNote is quietWords for the job summary, in a note box.
func writeQuietNote(b *strings.Builder, r sweep.Result) {
	if s := quietWords(r, mdDay, func(s string) string { return "`" + s + "`" }); s != "" {
		b.WriteString("> [!NOTE]\n> **" + quietTitle + "**" + strings.TrimPrefix(s, quietTitle) + "\n\n")
	}
}

// dashQuiet is the dashboard's line in a quiet period: its dates are the
// shifted ones already.
func dashQuiet(r sweep.Result) string {
	if r.QuietUntil.IsZero() {
		return ""
	}
	return fmt.Sprintf("**Quiet period** (`quiet-periods`) until %s: nothing is marked, closed or nudged, and the clocks do not count its days; "+
		"the dates below are after it.\n\n", mdDay(r.QuietUntil))
}
