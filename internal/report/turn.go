package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

var turnCap = sectionCap{rows: 300, bytes: 60_000}

// writeTurns is the section of whose turn it is: counts by turn, the
// review nudges, and each PR whose turn the run read with the days in it.
func writeTurns(b *strings.Builder, r sweep.Result) {
	if len(r.Turns) == 0 && len(r.Nudged()) == 0 {
		return
	}
	nudged := "nudged"
	if r.DryRun {
		nudged = "would be nudged"
	}
	fmt.Fprintf(b, "<details><summary>Whose turn: %d on the reviewers', %d on the author's, %d on the maintainers' (approved); %d %s</summary>\n\n",
		r.TurnCounts[lifecycle.TurnReviewers], r.TurnCounts[lifecycle.TurnAuthor], r.TurnCounts[lifecycle.TurnMaintainers],
		len(r.Nudged()), nudged)
	writeTable(b, []string{"PR", "Title", "Turn", "Days in it"}, len(r.Turns), func(i int) []string {
		it := r.Turns[i]
		return []string{prLink(it.Number, it.URL), md(it.Title, maxTitleRunes), it.Turn.String(), strconv.Itoa(it.TurnDays)}
	}, turnCap, nil)
	b.WriteString("</details>\n\n")
}
