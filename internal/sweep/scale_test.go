package sweep_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// Figures: what a run reads, in REST requests and GraphQL
// points, on the synthetic repositories, budgets lifted. They are
// deterministic, so the test asserts them; BenchmarkReads prints them.

// fairInputs are the fair clock's inputs at the defaults' thresholds.
var fairInputs = map[string]string{
	"stale-clock":        "author-turn",
	"exempt-pr-labels":   "pinned",
	"operations-per-run": "1000000",
	"write-interval":     "0s",
}

// reads is one run's read cost.
type reads struct {
	rest, queries, points, writes, prs int
}

func (r reads) String() string {
	return fmt.Sprintf("%d PRs: %d REST reads, %d GraphQL queries, %d points, %d writes", r.prs, r.rest, r.queries, r.points, r.writes)
}

func readsOf(res sweep.Result) reads {
	return reads{rest: res.Requests - res.Queries - res.Writes, queries: res.Queries, points: res.Points, writes: res.Writes, prs: res.Considered}
}

// openPRs makes a synthetic repository holding about prs open pull
// requests (8% of its items are issues).
func openPRs(tb testing.TB, prs int) *world {
	return syntheticWorld(tb, int(math.Round(float64(prs)/0.92)))
}

// TestFairClockAtScale: the cost targets of the author-turn clock.
// 2,000 open PRs: a quiet day (the run after one that acted) reads at most
// 60 REST requests and points in all. 20,000 open PRs: one run knows every
// PR's turn, with at most 300 points and 50 REST reads.
func TestFairClockAtScale(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	t.Run("2000 PRs, a quiet day", func(t *testing.T) {
		t.Parallel()
		w := openPRs(t, 2000)
		w.run(fairInputs)
		w.clock.Advance(lifecycle.Day)
		res := w.run(fairInputs)
		r := readsOf(res)
		t.Logf("quiet day: %v", r)
		if r.rest+r.points > 60 || !res.OK() {
			t.Errorf("quiet day: %v; want at most 60 REST reads and points in all (ok %v, stopped %v)", r, res.OK(), res.Stopped)
		}
	})
	t.Run("20000 PRs, every turn in one run", func(t *testing.T) {
		t.Parallel()
		testenv.Slow(t)
		w := openPRs(t, 20000)
		res := w.run(fairInputs)
		r := readsOf(res)
		t.Logf("day 0: %v", r)
		unknown := 0
		for _, it := range res.Queue {
			if it.Turn == lifecycle.TurnUnknown {
				if unknown < 5 {
					t.Logf("turn unknown: %+v", it)
				}
				unknown++
			}
		}
		if unknown > 0 || !res.ListedAll || len(res.Queue) < 18000 {
			t.Errorf("%d of %d PRs' turns unknown (listed all %v)", unknown, len(res.Queue), res.ListedAll)
		}
		if r.points > 300 || r.rest > 50 {
			t.Errorf("%v; want at most 300 points and 50 REST reads", r)
		}
	})
}

// switchFrom labels every PR inactive past the stale cutoff stale as
// actions/stale does (its comment, then its label, as github-actions[bot]),
// days ago: the repository as it is when a team switches to stalepr.
func switchFrom(w *world, days float64) {
	cutoff := daysAgo(90)
	for _, is := range w.fake.Issues() {
		if !is.IsPR || is.State != "open" || is.HasLabel("stale") || !is.UpdatedAt.Before(cutoff) {
			continue
		}
		at := daysAgo(days)
		w.fake.Comment(is.Number, action, at, "This PR is stale because it has been open 60 days with no activity.")
		w.fake.Label(is.Number, action, at.Add(2*time.Second), "stale")
	}
}

// actionsStaleReads is what actions/stale reads on one run, by its own
// code: the open issues and PRs (T, 100 a page), and for each one it
// labelled before (L) its events and comments.
func actionsStaleReads(open, labelled int) int {
	return int(math.Ceil(float64(open)/100)) + 2*labelled
}

// TestSwitchDayReads: under the inactivity clock, the first run after a
// switch from actions/stale reads at most 0.05× what actions/stale reads on
// the same repository.
func TestSwitchDayReads(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	w := openPRs(t, 2000)
	switchFrom(w, 10)
	open, labelled := 0, 0
	for _, is := range w.fake.Issues() {
		if is.State == "open" {
			open++
			if is.IsPR && is.HasLabel("stale") {
				labelled++
			}
		}
	}
	res := w.run(costInputs)
	r := readsOf(res)
	theirs := actionsStaleReads(open, labelled)
	t.Logf("switch day: %v; actions/stale reads %d (%d open, %d labelled): %.3f×", r, theirs, open, labelled, float64(r.rest+r.points)/float64(theirs))
	if float64(r.rest+r.points) > 0.05*float64(theirs) {
		t.Errorf("switch day: %v, more than 0.05 × actions/stale's %d reads", r, theirs)
	}
}

// BenchmarkReads prints the cost figures: REST reads, GraphQL queries and
// points per run, day 0 and a quiet day after, on synthetic repositories.
//
//	STALEPR_SLOW=1 go test -run '^$' -bench BenchmarkReads -benchtime 1x ./internal/sweep/
func BenchmarkReads(b *testing.B) {
	sizes := []int{2000}
	if testenv.SlowEnabled() {
		sizes = append(sizes, 20000)
	}
	for _, clock := range []string{"author-turn", "inactivity"} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("clock=%s/prs=%d", clock, n), func(b *testing.B) {
				inputs := map[string]string{}
				for k, v := range fairInputs {
					inputs[k] = v
				}
				inputs["stale-clock"] = clock
				var day0, day1 reads
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					w := openPRs(b, n)
					b.StartTimer()
					day0 = readsOf(w.run(inputs))
					w.clock.Advance(lifecycle.Day)
					day1 = readsOf(w.run(inputs))
				}
				b.ReportMetric(float64(day0.rest), "day0-rest")
				b.ReportMetric(float64(day0.points), "day0-points")
				b.ReportMetric(float64(day0.writes), "day0-writes")
				b.ReportMetric(float64(day1.rest), "day1-rest")
				b.ReportMetric(float64(day1.points), "day1-points")
				b.ReportMetric(float64(day1.queries), "day1-queries")
				b.Logf("day 0: %v; a quiet day: %v", day0, day1)
			})
		}
	}
}
