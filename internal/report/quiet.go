package report

import (
	"fmt"
	"strings"

	"github.com/stalepr/stalepr/internal/sweep"
)

// writeQuietNote says that the run fell in a quiet period, and what waits
// for its end: the first screen must not read as a run that found nothing
// to do.
func writeQuietNote(b *strings.Builder, r sweep.Result) {
	if r.QuietUntil.IsZero() {
		return
	}
	verb := "marked, closed and nudged"
	if r.DryRun {
		verb = "would mark, close and nudge"
	}
	fmt.Fprintf(b, "> [!NOTE]\n> **Quiet period** (`quiet-periods`) until %s: this run %s nothing, and the clocks do not count its days.", mdDay(r.QuietUntil), verb)
	if r.QuietHeld > 0 {
		fmt.Fprintf(b, " Marks and closes already due that wait for its end: %d.", r.QuietHeld)
	}
	b.WriteString(" Un-stales and label clean-ups go on.\n\n")
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
