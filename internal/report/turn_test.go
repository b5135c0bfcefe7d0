package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// turnRun builds the Result of a typical run under stale-clock: author-turn
// (30 days before stale, 14 before close) with review nudges after 7 days:
// 25 PRs on the reviewers' turn (the two longest waiting nudged by this run,
// those 4 to 6 days in due for one), 5 on the author's (two stale, one of
// them marked now; the others' marks due), 3 approved, and 4 too young for
// their turn to be read. One was un-staled: its author pushed.
func turnRun() sweep.Result {
	day := 24 * time.Hour
	r := sweep.Result{Now: runAt, StaleClock: lifecycle.ClockAuthorTurn, ListedAll: true, RateLimit: 1000, RateRemaining: 900,
		Requests: 44, Writes: 4,
		ByRoute: map[string]int{"GET /repos/{owner}/{repo}/pulls": 1, "GET /repos/{owner}/{repo}/issues": 1,
			"GET /repos/{owner}/{repo}/issues/{issue_number}/timeline": 33, "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": 3,
			"POST /repos/{owner}/{repo}/issues/{issue_number}/labels": 1}}
	n := 2000
	add := func(it sweep.QueueItem, ago float64) sweep.QueueItem {
		n++
		it.Number, it.Title, it.URL = n, fmt.Sprintf("Change %d", n), fmt.Sprintf("https://github.com/o/r/pull/%d", n)
		it.LastActivity = runAt.Add(-time.Duration(ago * float64(day)))
		if it.State == sweep.QueueFresh && it.Since.IsZero() {
			it.Since = it.LastActivity
		}
		if it.Turn != lifecycle.TurnUnknown && it.TurnSince.IsZero() {
			it.TurnSince = it.LastActivity
		}
		r.Queue = append(r.Queue, it)
		return it
	}
	for i := 0; i < 25; i++ {
		ago := float64(60 - 2*i)
		if i >= 20 {
			ago = float64(25 - i) // 5 to 1 days
		}
		it := sweep.QueueItem{State: sweep.QueueFresh, Turn: lifecycle.TurnReviewers}
		switch since := runAt.Add(-time.Duration(ago) * day); {
		case i < 2:
			it.Nudged, it.NudgedAt = true, runAt
		case i < 20:
			it.NudgedAt = since.Add(7 * day) // by an earlier run, in this turn
		case ago >= 1 && ago < 7 && i%2 == 0:
			it.NudgeDue = since.Add(7 * day)
		}
		if it = add(it, ago); it.Nudged {
			r.Items = append(r.Items, sweep.Item{Outcome: sweep.Nudged, Number: it.Number, Title: it.Title, URL: it.URL, Action: lifecycle.Keep,
				Reason: lifecycle.ReasonReviewNudge})
		}
	}
	// The author's turn: a stale PR closing in 3 days, one marked now, two
	// whose marks fall due, one due after the next 14 days.
	add(sweep.QueueItem{State: sweep.QueueStale, Since: runAt.Add(-11 * day), Due: runAt.Add(3 * day), Turn: lifecycle.TurnAuthor,
		TurnSince: runAt.Add(-41 * day)}, 41)
	marked := add(sweep.QueueItem{State: sweep.QueueStale, Since: runAt, Due: runAt.Add(14 * day), Turn: lifecycle.TurnAuthor}, 30)
	r.Items = append(r.Items, sweep.Item{Outcome: sweep.Marked, Number: marked.Number, Title: marked.Title, URL: marked.URL, Action: lifecycle.Mark,
		Reason: lifecycle.ReasonInactive, InactiveDays: 30, CloseAt: marked.Due})
	for _, ago := range []float64{25, 20, 10} {
		add(sweep.QueueItem{State: sweep.QueueFresh, Due: runAt.Add(time.Duration(30-ago) * day), Turn: lifecycle.TurnAuthor}, ago)
	}
	for _, ago := range []float64{45, 12, 3} {
		add(sweep.QueueItem{State: sweep.QueueFresh, Turn: lifecycle.TurnMaintainers}, ago)
	}
	for _, ago := range []float64{9, 5, 2, 0.5} {
		add(sweep.QueueItem{State: sweep.QueueFresh}, ago) // too young: turn not read, nothing known due
	}
	revived := add(sweep.QueueItem{State: sweep.QueueRevived, Turn: lifecycle.TurnReviewers, NudgeDue: runAt.Add(6 * day)}, 1)
	r.Items = append(r.Items, sweep.Item{Outcome: sweep.Unstaled, Number: revived.Number, Title: revived.Title, URL: revived.URL, Action: lifecycle.Unstale,
		Reason: lifecycle.ReasonAuthorActed, InactiveDays: 1})
	r.Considered = len(r.Queue)
	return r
}

// The job summary's first screen shows the queue by turn, once: counts by
// turn with the longest wait, the nudges by their outcome words, what the
// counts cover, and per turn the PRs with their days in it (folded past 20
// rows); the next 14 days list the nudges due. Golden: a typical run.
func TestSummaryAuthorTurn(t *testing.T) {
	t.Parallel()
	r := turnRun()
	s := Summary(r, "o/r")
	checkMarkdown(t, s)
	testenv.Golden(t, filepath.Join("testdata", "golden", "summary", "author-turn.md"), s)

	order := []string{"### Next 14 days", "### Whose turn it is", "| Reviewers | 26 | 60 days |", "| Author | 5 | 41 days |",
		"| Maintainers, to merge | 3 | 45 days |", "Nudged: 2.", "known for the 34 of 38 open pull requests whose timeline this run read: the other 4",
		"#### Waiting on reviewers (26)\n\n<details><summary>Show all 26</summary>", "#### Waiting on the author (5)\n\n| PR |",
		"#### Approved, waiting to be merged (3)", "### Acted on"}
	at := -1
	for _, w := range order {
		i := strings.Index(s, w)
		if i < 0 || i < at {
			t.Fatalf("%q missing or out of order (at %d, previous at %d):\n%s", w, i, at, s)
		}
		at = i
	}
	if c := strings.Count(s, "Whose turn"); c != 1 {
		t.Errorf("%d sections of whose turn it is, want one", c)
	}
	for _, want := range []string{
		"| [#2001](https://github.com/o/r/pull/2001) | Change 2001 | 60 | nudged |",
		"| [#2026](https://github.com/o/r/pull/2026) | Change 2026 | 41 | closes 2026‑12‑04 |",
		"| [#2028](https://github.com/o/r/pull/2028) | Change 2028 | 25 | marked stale 2026‑12‑06 |",
		"| [#2023](https://github.com/o/r/pull/2023) | Change 2023 | 3 | due 2026‑12‑05 |",
		"| Date | Closes | Marks | Nudges |",
		"Closes, marks and review nudges that fall due if the turn does not pass",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	// Longest in turn first.
	if a, b := strings.Index(s, "[#2001]"), strings.Index(s, "[#2020]"); a > b {
		t.Errorf("reviewers' turn not longest first")
	}
	r.DryRun = true
	if s = Summary(r, "o/r"); !strings.Contains(s, "Would nudge: 2.") || !strings.Contains(s, "| 60 | would nudge |") {
		t.Errorf("a dry run's nudges are not worded as such:\n%s", s)
	}
	plain := queueRun(60, 3, 4, 100)
	if s = Summary(plain, "o/r"); strings.Contains(s, "Whose turn") || strings.Contains(s, "Nudges") || strings.Contains(s, "turn does not pass") {
		t.Errorf("a run that read no turn shows turns:\n%s", s)
	}
}

// The dashboard under author-turn groups the open PRs by whose turn it is,
// each linked with its days in that turn, and says which PRs the groups
// cover. Golden: the typical run.
func TestDashboardAuthorTurn(t *testing.T) {
	t.Parallel()
	r := turnRun()
	d := Dashboard(r)
	testenv.Golden(t, filepath.Join("testdata", "golden", "dashboard", "author-turn.md"), d)
	for _, want := range []string{
		"38 open pull requests looked at: 26 on the reviewers' turn; 5 on the author's turn; 3 on the maintainers' turn to merge.",
		"Grouped by whose turn it is (`stale-clock: author-turn`).", "the other 4 (too recent for the turn to matter, exempt, or not reached) are not in these groups.",
		"#### Waiting on reviewers (26)", "#### Waiting on the author (5)", "#### Approved, waiting to be merged (3)",
		"| [#2001](https://github.com/o/r/pull/2001) | Change 2001 | 60 days | nudged 2026‑12‑01 |",
		"| [#2026](https://github.com/o/r/pull/2026) | Change 2026 | 41 days | closes 2026‑12‑04 |",
		"| Last activity | Open PRs |",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("dashboard lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "Stale, closing soonest first") || strings.Contains(d, "To be marked stale within") {
		t.Errorf("author-turn dashboard shows the inactivity clock's groups:\n%s", d)
	}
	// The author's turn, where the stale clock runs: soonest due first.
	if a, b := strings.Index(d, "closes 2026‑12‑04"), strings.Index(d, "marked stale 2026‑12‑06"); a < 0 || b < 0 || a > b {
		t.Errorf("author's group not ordered by what falls due first")
	}
	// Printed by a dry run, a nudge this run would post is not dated.
	r.DryRun = true
	if d = Dashboard(r); !strings.Contains(d, "| 60 days | would nudge |") {
		t.Errorf("a dry run's dashboard dates a nudge never posted:\n%s", d)
	}
}

// 50,000 PRs under author-turn with the longest hostile titles: the job
// summary stays under its cap with the API usage kept, the dashboard under
// 45,000 bytes.
func TestTurnViewsWithinCaps(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	r := queueRun(50_000, 1, 200, 40)
	r.StaleClock = lifecycle.ClockAuthorTurn
	whose := []lifecycle.Whose{lifecycle.TurnReviewers, lifecycle.TurnAuthor, lifecycle.TurnMaintainers}
	for i := range r.Queue {
		it := &r.Queue[i]
		it.Title = strings.Repeat("|<@_`", 40)
		it.URL = "https://github.com/" + strings.Repeat("(", maxURLBytes-19)
		it.Turn, it.TurnSince = whose[i%3], it.LastActivity
	}
	s := Summary(r, "o/r")
	if len(s) > maxSummaryBytes || !strings.Contains(s, "API usage:") || !strings.Contains(s, "### Whose turn it is") {
		t.Errorf("summary of 50,000 PRs by turn: %d bytes (cap %d), API usage or turns missing", len(s), maxSummaryBytes)
	}
	if d := Dashboard(r); len(d) > 45_000 || !strings.Contains(d, "more not shown") {
		t.Errorf("dashboard of 50,000 PRs by turn is %d bytes, over 45,000, or does not say what it left out", len(d))
	}
}

// TestPacedNudgeIsDatedFrom: while review-nudges-per-run holds nudges
// back, a nudge's date is its earliest, and the turn tables say so.
func TestPacedNudgeIsDatedFrom(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	it := sweep.QueueItem{Number: 7, Turn: lifecycle.TurnReviewers, TurnSince: now.AddDate(0, 0, -10), NudgeDue: now.AddDate(0, 0, -2), LastActivity: now}
	r := sweep.Result{Now: now, StaleClock: lifecycle.ClockAuthorTurn, Queue: []sweep.QueueItem{it}}
	if s := Summary(r, "o/r"); !strings.Contains(s, "due "+mdDay(it.NudgeDue)) || strings.Contains(s, "due from") {
		t.Errorf("unpaced: want the plain due date:\n%s", s)
	}
	r.NudgesPaced = 3
	if s := Summary(r, "o/r"); !strings.Contains(s, "due from "+mdDay(it.NudgeDue)) {
		t.Errorf("paced: want the date said to be the earliest:\n%s", s)
	}
}
