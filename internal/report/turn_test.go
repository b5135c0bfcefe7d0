package report

import (
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

func TestSummaryShowsTurns(t *testing.T) {
	t.Parallel()
	a, b := item(1, "waits on review"), item(2, "waits on its author")
	a.Turn, a.TurnDays = lifecycle.TurnReviewers, 9
	b.Turn, b.TurnDays = lifecycle.TurnAuthor, 3
	r := sweep.Result{Turns: []sweep.Item{a, b}, Items: as(sweep.Nudged, a), RateRemaining: -1,
		TurnCounts: map[lifecycle.Whose]int{lifecycle.TurnReviewers: 1, lifecycle.TurnAuthor: 1}}
	got := Summary(r, "o/r")
	for _, want := range []string{"1 on the reviewers', 1 on the author's, 0 on the maintainers' (approved); 1 nudged",
		"| reviewers | 9 |", "| author | 3 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(Summary(sweep.Result{RateRemaining: -1}, "o/r"), "Whose turn") {
		t.Error("a run that read no turn shows a turn section")
	}
}
