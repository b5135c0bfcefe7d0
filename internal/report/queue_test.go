package report

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

var runAt = time.Date(2026, 12, 1, 3, 17, 0, 0, time.UTC)

// queueRun builds the Result of a run over open PRs whose last activity was
// 0, 1, 2, ... days ago (stride days apart), as the sweep reports it with
// the default policy (90 days to stale, 30 to close): the oldest are stale,
// those past 90 days get marked until marks run out (a capped budget), every
// tenth is exempt, and the ones marked earlier close when due, until closes
// run out (the rest stay overdue).
func queueRun(open, stride, marks, closes int) sweep.Result {
	day := 24 * time.Hour
	r := sweep.Result{Now: runAt, Considered: open, ListedAll: true, RateLimit: 1000, RateRemaining: 500,
		Requests: 12, Writes: 2 * marks,
		ByRoute: map[string]int{"GET /repos/{owner}/{repo}/pulls": 2, "GET /repos/{owner}/{repo}/issues": 1,
			"POST /repos/{owner}/{repo}/issues/{issue_number}/labels": marks, "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": marks}}
	closed, marked := 0, 0 // counted here: r.Closed() in the loop would make it quadratic
	// Room for every PR at once: growing slices of 50,000 items cost more than the run's summary.
	r.Queue, r.Items = make([]sweep.QueueItem, 0, open), make([]sweep.Item, 0, open)
	for i := 0; i < open; i++ {
		n := open - i + 1000
		ago := time.Duration(i*stride) * day / time.Duration(max(1, open/400))
		last := runAt.Add(-ago)
		it := sweep.QueueItem{Number: n, Title: fmt.Sprintf("Change %d", n), URL: fmt.Sprintf("https://github.com/o/r/pull/%d", n),
			State: sweep.QueueFresh, Since: last, LastActivity: last, Due: last.Add(90 * day)}
		item := sweep.Item{Number: n, Title: it.Title, URL: it.URL, LastActivity: last, InactiveDays: int(ago / day)}
		switch markedAgo := ago - 90*day; {
		case i%10 == 3:
			it.State, it.Due = sweep.QueueExempt, time.Time{}
			item.Action, item.Reason = lifecycle.Skip, lifecycle.ReasonExemptLabel
			r.Items = append(r.Items, as(sweep.Skipped, item)...)
		case markedAgo >= 30*day && closed < closes:
			closed++
			item.Action, item.Reason = lifecycle.Close, lifecycle.ReasonCloseDue
			r.Items = append(r.Items, as(sweep.Closed, item)...)
			continue // closed: out of the queue
		case markedAgo >= 0 && markedAgo < day && marked < marks:
			marked++
			it.State, it.Since, it.Due = sweep.QueueStale, runAt, runAt.Add(30*day)
			item.Action, item.Reason, item.CloseAt = lifecycle.Mark, lifecycle.ReasonInactive, it.Due
			r.Items = append(r.Items, as(sweep.Marked, item)...)
		case markedAgo >= day:
			marked := last.Add(90 * day)
			it.State, it.Since, it.Due = sweep.QueueStale, marked, marked.Add(30*day)
			item.Action, item.Reason, item.CloseAt = lifecycle.Keep, lifecycle.ReasonStaleWaiting, it.Due
			r.Items = append(r.Items, as(sweep.StillStale, item)...)
		}
		r.Queue = append(r.Queue, it)
	}
	return r
}

// A typical run, its dry run and a 50,000-PR run: golden files.
func TestSummaryQueueGolden(t *testing.T) {
	t.Parallel()
	typical := queueRun(60, 3, 4, 100)
	typical.Items = append(typical.Items, sweep.Item{Outcome: sweep.Unstaled, Number: 77, Title: "Revived by a review", URL: "https://github.com/o/r/pull/77",
		Action: lifecycle.Unstale, Reason: lifecycle.ReasonPersonActivity, InactiveDays: 1})
	typical.Items = append(typical.Items, sweep.Item{Outcome: sweep.Notified, Number: 78, Title: "Labelled by hand", URL: "https://github.com/o/r/pull/78",
		Action: lifecycle.Notify, Reason: lifecycle.ReasonNoticeMissing, InactiveDays: 95, CloseAt: runAt.Add(30 * 24 * time.Hour)})
	dry := typical
	dry.DryRun, dry.Writes = true, 0
	cases := []struct {
		name string
		r    sweep.Result
	}{{"typical", typical}, {"typical-dry-run", dry}}
	if !testing.Short() { // 50,000 PRs: a load test
		big := queueRun(50_000, 1, 200, 40)
		big.Stopped, big.Left = api.Budget, 9_000
		cases = append(cases, struct {
			name string
			r    sweep.Result
		}{"fifty-thousand", big})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Summary(tc.r, "o/r")
			checkMarkdown(t, s)
			if len(s) > maxSummaryBytes {
				t.Fatalf("summary is %d bytes, over the cap of %d", len(s), maxSummaryBytes)
			}
			testenv.Golden(t, filepath.Join("testdata", "golden", "summary", tc.name+".md"), s)
		})
	}
}

// The first screen: counts, the histogram and the next 14 days come before
// any table of PRs.
func TestSummaryFirstScreenSaysWhatComesNext(t *testing.T) {
	t.Parallel()
	r := queueRun(60, 3, 4, 100)
	s := Summary(r, "o/r")
	order := []string{"| Outcome | Pull requests |", "### Open pull requests by last activity", "| under 1 week |",
		"### Next 14 days", "| Date | Closes | Marks |", "### Acted on", "### Still stale"}
	at := -1
	for _, w := range order {
		i := strings.Index(s, w)
		if i < 0 || i < at {
			t.Fatalf("%q missing or out of order (at %d, previous at %d):\n%s", w, i, at, s)
		}
		at = i
	}
	// Every open PR looked at is in the histogram.
	total := 0
	for _, m := range regexp.MustCompile(`(?m)^\| [^|]+ \| (\d+) \| █*`).FindAllStringSubmatch(s[strings.Index(s, "| Last activity"):strings.Index(s, "### Next")], -1) {
		var n int
		fmt.Sscan(m[1], &n)
		total += n
	}
	if total != len(r.Queue) {
		t.Errorf("histogram counts %d PRs, the queue has %d", total, len(r.Queue))
	}
}

// The next 14 days list the closes and marks due, by date; what is due
// later is not there, and a step overdue is on the first row, due now.
func TestSummaryNextDays(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	r := sweep.Result{Now: runAt, ListedAll: true, Queue: []sweep.QueueItem{
		{Number: 1, URL: "https://github.com/o/r/pull/1", State: sweep.QueueStale, Due: runAt.Add(2 * day), LastActivity: runAt.Add(-100 * day)},
		{Number: 2, URL: "https://github.com/o/r/pull/2", State: sweep.QueueFresh, Due: runAt.Add(2*day + time.Hour), LastActivity: runAt.Add(-88 * day)},
		{Number: 3, URL: "https://github.com/o/r/pull/3", State: sweep.QueueFresh, Due: runAt.Add(20 * day), LastActivity: runAt.Add(-70 * day)},
		{Number: 4, URL: "https://github.com/o/r/pull/4", State: sweep.QueueStale, Due: runAt.Add(-3 * day), LastActivity: runAt.Add(-130 * day)},
		{Number: 5, URL: "https://github.com/o/r/pull/5", State: sweep.QueueExempt, LastActivity: runAt.Add(-300 * day)},
	}}
	s := Summary(r, "o/r")
	for _, want := range []string{
		"| due now | 1: [#4](https://github.com/o/r/pull/4) | — |\n| 2026‑12‑03 |",
		"| 2026‑12‑03 | 1: [#1](https://github.com/o/r/pull/1) | 1: [#2](https://github.com/o/r/pull/2) |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "pull/3)") || strings.Contains(s, "pull/5)") {
		t.Errorf("a PR due after 14 days, or exempt, is in the next 14 days:\n%s", s)
	}
	// A listing that stopped at the cutoff says how far marks are known.
	r.ListedAll, r.ListedUntil, r.MarksKnownUntil = false, runAt.Add(-85*day), runAt.Add(5*day)
	s = Summary(r, "o/r")
	for _, want := range []string{"Marks are known up to 2026‑12‑06 only: this run listed the pull requests without the stale label last active up to 2026‑09‑07",
		"falls due a mark from 2026‑12‑06 on", "The closes are all known", "active after 2026‑09‑07, which this run did not list"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary of a listing stopped early lacks %q:\n%s", want, s)
		}
	}
}

// Tables past about 20 rows are folded, the API table always; dates never
// wrap; the Reason column shows only where it says more than the outcome;
// a dry run's banner is GitHub's warning alert.
func TestSummaryLayout(t *testing.T) {
	t.Parallel()
	long := queueRun(400, 1, 30, 30)
	s := Summary(long, "o/r")
	n := len(long.Marked()) + len(long.Closed())
	for _, h := range []string{fmt.Sprintf("### Acted on (%d)\n\n<details><summary>Show all %d</summary>", n, n), "<details><summary>API usage:"} {
		if !strings.Contains(s, h) {
			t.Errorf("summary lacks %q", h)
		}
	}
	short := queueRun(60, 3, 4, 100)
	s = Summary(short, "o/r")
	if strings.Contains(s, "### Acted on (5)\n\n<details>") {
		t.Errorf("a table of 5 rows is folded")
	}
	if m := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`).FindString(s); m != "" {
		t.Errorf("date %q with breakable hyphens in the summary", m)
	}
	if !strings.Contains(s, "2026‑12‑31") {
		t.Errorf("no date with non-breaking hyphens (U+2011) in the summary:\n%s", s)
	}
	if strings.Contains(s, "| Outcome | Reason |") {
		t.Errorf("Reason column shown though every reason repeats the outcome:\n%s", s)
	}
	short.Items = append(short.Items, sweep.Item{Outcome: sweep.Notified, Number: 9, Action: lifecycle.Notify, Reason: lifecycle.ReasonNoticeMissing})
	s = Summary(short, "o/r")
	if !strings.Contains(s, "| Outcome | Reason |") || !strings.Contains(s, "| labelled without notice |") {
		t.Errorf("a reason that says more than the outcome is not shown:\n%s", s)
	}
	if strings.Contains(s, "| inactive |") {
		t.Errorf("a reason that repeats the outcome is shown:\n%s", s)
	}
	short.DryRun = true
	if s = Summary(short, "o/r"); !strings.HasPrefix(s, "## stalepr: o/r\n\n> [!WARNING]\n> **Dry run: nothing was changed.**") {
		t.Errorf("dry run's banner is not a warning alert right under the title:\n%s", s[:200])
	}
}

// The dashboard issue's block: golden for a typical run, and within
// GitHub's 65,536 characters of an issue body with 50,000 PRs of the
// longest hostile titles.
func TestDashboard(t *testing.T) {
	t.Parallel()
	typical := queueRun(60, 3, 4, 100)
	typical.Queue = append(typical.Queue, sweep.QueueItem{Number: 77, Title: "Revived by a review", URL: "https://github.com/o/r/pull/77",
		State: sweep.QueueRevived, Since: runAt.Add(-26 * time.Hour), LastActivity: runAt.Add(-26 * time.Hour), Due: runAt.Add(89 * 24 * time.Hour)})
	d := Dashboard(typical)
	testenv.Golden(t, filepath.Join("testdata", "golden", "dashboard", "typical.md"), d)
	for _, want := range []string{"#### Stale, closing soonest first (", "#### To be marked stale within 14 days (", "#### Revived by the last run (1)",
		"| [#77](https://github.com/o/r/pull/77) | Revived by a review | 1 day ago |", "| Last activity | Open PRs |"} {
		if !strings.Contains(d, want) {
			t.Errorf("dashboard lacks %q", want)
		}
	}
	// Closing soonest first.
	if a, b := strings.Index(d, "2026‑12‑04"), strings.Index(d, "2026‑12‑28"); a < 0 || b < 0 || a > b {
		t.Errorf("stale group not ordered by close date (12-04 at %d, 12-28 at %d)", a, b)
	}

	testenv.Long(t) // the rest: 50,000 PRs, a load test
	big := queueRun(50_000, 1, 200, 40)
	title, url := strings.Repeat("|<@_`", 40), "https://github.com/"+strings.Repeat("(", maxURLBytes-19)
	for i := range big.Queue {
		big.Queue[i].Title, big.Queue[i].URL = title, url
	}
	d = Dashboard(big)
	if len(d) > 45_000 {
		t.Errorf("dashboard of 50,000 PRs is %d bytes, over 45,000", len(d))
	}
	for _, want := range []string{"more not shown", "| Last activity | Open PRs |"} {
		if !strings.Contains(d, want) {
			t.Errorf("capped dashboard lacks %q", want)
		}
	}
	if strings.Contains(d, "<@") || strings.Contains(d, "|<") {
		t.Errorf("hostile title not escaped")
	}
}

// TestByAuthor: the queue says where it comes from when not every PR is a
// person's, coding agents counted apart from the other bots.
func TestByAuthor(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	r := sweep.Result{Now: now, Queue: []sweep.QueueItem{
		{Number: 1, LastActivity: now}, {Number: 2, LastActivity: now},
		{Number: 3, LastActivity: now, Author: lifecycle.AuthorAgent},
		{Number: 4, LastActivity: now, Author: lifecycle.AuthorFirstTime},
		{Number: 5, LastActivity: now, Author: lifecycle.AuthorBot},
	}}
	want := "By author: 2 from people, 1 from first-time contributors, 1 from coding agents, 1 from bots."
	if s := Summary(r, "o/r"); !strings.Contains(s, want) {
		t.Errorf("summary lacks %q:\n%s", want, s)
	}
	r.Queue = r.Queue[:2]
	if s := Summary(r, "o/r"); strings.Contains(s, "By author") {
		t.Errorf("a queue of people's PRs only says where it comes from:\n%s", s)
	}
}

// TestListedNoteCountsTheClosed: the PRs looked at that the queue views
// leave out, closed by this run, are counted in a sentence that agrees
// with its number.
func TestListedNoteCountsTheClosed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		closed int
		want   string
	}{
		{1, "Of the 3 looked at, the 1 closed by this run is not in it."},
		{2, "Of the 3 looked at, the 2 closed by this run are not in it."},
	} {
		r := sweep.Result{ListedAll: true, Considered: 3, Queue: make([]sweep.QueueItem, 3-tc.closed)}
		if got := listedNote(r); got != tc.want {
			t.Errorf("%d closed: %q, want %q", tc.closed, got, tc.want)
		}
	}
}

// TestHistogramShowsOnlyWhatIsKnown: a row the listing did not count whole
// (active after where it stopped) shows no number and no bar, however many
// PRs this run looked at in it; the bars scale to the rows counted, and the
// note says how many were not counted, and why.
func TestHistogramShowsOnlyWhatIsKnown(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	r := sweep.Result{Now: runAt, ListedUntil: runAt.Add(-89 * day), StaleCutoff: runAt.Add(-90 * day),
		OpenTotal: 50, OpenTotalKnown: true, Considered: 6}
	for i, ago := range []int{2, 3, 10, 100, 100, 200} { // the first three labelled stale, listed by their label
		r.Queue = append(r.Queue, sweep.QueueItem{Number: i + 1, LastActivity: runAt.Add(-time.Duration(ago) * day)})
	}
	s := Summary(r, "o/r")
	for _, want := range []string{
		"| under 1 week | not counted |  |\n| 1–4 weeks | not counted |  |\n| 1–3 months | not counted |  |\n",
		"| 3–6 months | 2 | ████████████████████ |\n| 6–12 months | 1 | ██████████ |\n",
		"That is 44 of the 50 open.", "though this run looked at 3 there",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "+ not counted") {
		t.Errorf("a row not counted whole shows a number:\n%s", s)
	}
	// With marking disabled the stale PRs alone are listed: each row counts
	// them all, under a heading that says so.
	r.ListedUntil, r.StaleCutoff = time.Time{}, time.Time{}
	s = Summary(r, "o/r")
	for _, want := range []string{"| Last activity | Stale PRs | |", "| under 1 week | 2 | ████████████████████ |\n| 1–4 weeks | 1 | ██████████ |", "Only the stale pull requests are counted"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary of the stale PRs alone lacks %q:\n%s", want, s)
		}
	}
}

// TestDashboardIntake: the PRs the intake clock told are listed with their
// close date, soonest first, and the summary's forecast counts their
// closes, not marks.
func TestDashboardIntake(t *testing.T) {
	t.Parallel()
	r := queueRun(10, 0, 0, 10)
	for i, days := range []int{5, 2} {
		n := 90 + i
		r.Queue = append(r.Queue, sweep.QueueItem{Number: n, Title: fmt.Sprintf("Drive-by %d", n), URL: fmt.Sprintf("https://github.com/o/r/pull/%d", n),
			State: sweep.QueueIntake, Since: runAt.Add(-24 * time.Hour), Due: runAt.Add(time.Duration(days) * 24 * time.Hour)})
	}
	d := Dashboard(r)
	if !strings.Contains(d, "#### Linking no accepted issue, closing soonest first (2)") {
		t.Fatalf("dashboard lacks the intake group:\n%s", d)
	}
	if a, b := strings.Index(d, "Drive-by 91"), strings.Index(d, "Drive-by 90"); a < 0 || b < 0 || a > b {
		t.Errorf("intake group not ordered by close date (the sooner at %d, the later at %d)", a, b)
	}
	closes := 0
	for _, day := range nextDays(r) {
		for _, it := range day.closes {
			if it.State == sweep.QueueIntake {
				closes++
			}
		}
	}
	if closes != 2 {
		t.Errorf("the forecast has %d of the 2 intake closes", closes)
	}
}
