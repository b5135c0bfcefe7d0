package sweep_test

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// syntheticWorld is a world over fakegithub's synthetic repository of n items.
func syntheticWorld(tb testing.TB, n int) *world {
	tb.Helper()
	return serveWorld(tb, fakegithub.Synthetic(n, 42, t0))
}

var costInputs = map[string]string{
	"exempt-pr-labels":   "pinned",
	"exempt-draft-pr":    "true",
	"operations-per-run": "1000000",
	"write-interval":     "0s",
}

// lowerBound is the lower bound (LB) of one run's requests, from the repository as it was
// before the run and the PRs the run changed:
//
//	LB = P + min(Lw, ceil(Cw/100) + M) + W
func lowerBound(before []fakegithub.Issue, comments map[int][]fakegithub.Comment, changed map[int]bool, writes int, staleDays, closeDays int, now time.Time) (lb int, parts string) {
	staleCutoff := now.AddDate(0, 0, -staleDays)
	closeCutoff := now.AddDate(0, 0, -closeDays)
	var open, labelled []fakegithub.Issue
	for _, is := range before {
		if is.State != "open" {
			continue
		}
		open = append(open, is)
		if is.IsPR && is.HasLabel("stale") {
			labelled = append(labelled, is)
		}
	}
	byUpdated := func(s []fakegithub.Issue) {
		sort.SliceStable(s, func(i, j int) bool {
			if !s[i].UpdatedAt.Equal(s[j].UpdatedAt) {
				return s[i].UpdatedAt.Before(s[j].UpdatedAt)
			}
			return s[i].Number < s[j].Number
		})
	}
	byUpdated(open)
	byUpdated(labelled)
	// A page counts when it holds a PR that can change state: an inactive
	// PR on the open listing (up to the cutoff), any stale-labelled PR (a
	// person may have acted on it: only a look tells).
	canChange := func(is fakegithub.Issue) bool {
		return is.IsPR && (changed[is.Number] || is.HasLabel("stale") || is.UpdatedAt.Before(staleCutoff))
	}
	pages := func(list []fakegithub.Issue, stop time.Time) int {
		hit := map[int]bool{}
		for i, is := range list {
			if !stop.IsZero() && !is.UpdatedAt.Before(stop) {
				break
			}
			if canChange(is) {
				hit[i/100] = true
			}
		}
		return len(hit)
	}
	p := pages(open, staleCutoff) + pages(labelled, time.Time{})

	lw, m := 0, 0
	for _, is := range labelled {
		if is.UpdatedAt.Before(closeCutoff) || is.HasLabel("pinned") || is.Draft {
			continue
		}
		lw++
		var last time.Time
		for _, c := range comments[is.Number] {
			if c.UpdatedAt.After(last) {
				last = c.UpdatedAt
			}
		}
		if last.Before(closeCutoff) || is.UpdatedAt.Sub(last) > 5*time.Second {
			m++
		}
	}
	cw := 0
	for _, cs := range comments {
		for _, c := range cs {
			if !c.UpdatedAt.Before(closeCutoff) {
				cw++
			}
		}
	}
	detail := min(lw, int(math.Ceil(float64(cw)/100))+m)
	lb = p + detail + writes
	return lb, fmt.Sprintf("P=%d Lw=%d Cw=%d M=%d W=%d", p, lw, cw, m, writes)
}

func snapshot(fake *fakegithub.Server) ([]fakegithub.Issue, map[int][]fakegithub.Comment) {
	issues := fake.Issues()
	comments := map[int][]fakegithub.Comment{}
	for _, is := range issues {
		comments[is.Number] = fake.Comments(is.Number)
	}
	return issues, comments
}

func changedPRs(res sweep.Result) map[int]bool {
	changed := map[int]bool{}
	for _, list := range [][]sweep.Item{res.Marked(), res.Unstaled(), res.Closed()} {
		for _, it := range list {
			changed[it.Number] = true
		}
	}
	return changed
}

// TestRequestsWithinLowerBound: at most 1.25 × LB
// requests, on synthetic repositories, with and without the default budget,
// for the first run and for the run a day later.
func TestRequestsWithinLowerBound(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	// 10,000 and 50,000 PRs take seconds each (minutes under -race): they
	// run only when asked for (STALEPR_SLOW=1, as .ci/run does once).
	sizes := []int{1000}
	if testenv.SlowEnabled() {
		sizes = append(sizes, 10000, 50000)
	}
	for _, n := range sizes {
		for _, budget := range []string{"1000000", "500"} {
			t.Run(fmt.Sprintf("%d PRs, operations-per-run %s", n, budget), func(t *testing.T) {
				t.Parallel()
				w := syntheticWorld(t, n)
				inputs := map[string]string{}
				for k, v := range costInputs {
					inputs[k] = v
				}
				inputs["operations-per-run"] = budget
				for day := 0; day < 2; day++ {
					before, comments := snapshot(w.fake)
					w.fake.Reset()
					res := w.run(inputs)
					reqs := w.fake.Count()
					lb, parts := lowerBound(before, comments, changedPRs(res), w.fake.Writes(), 90, 30, res.Now)
					t.Logf("day %d: %d requests, LB %d (%s), stopped %v", day, reqs, lb, parts, res.Stopped)
					if float64(reqs) > 1.25*float64(lb) {
						t.Errorf("day %d: %d requests > 1.25 × LB = %.0f (%s); by route: %v", day, reqs, 1.25*float64(lb), parts, w.fake.CountBy())
					}
					if !res.OK() {
						t.Fatalf("run failed: %+v", res.Failed())
					}
					w.clock.Advance(24 * time.Hour)
				}
			})
		}
	}
}

// TestQuietPRsCostNothing: PRs updated inside the stale window cost nothing
// beyond the listing page on which the listing stops, and stale PRs past the
// close window close with no timeline read: one page of the repository's
// comments proves that nothing happened after their notices (the listing's
// pages carry the histories).
func TestQuietPRsCostNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := 0; i < 250; i++ {
		w.pr(float64(i % 80)) // all active
	}
	w.run(nil)
	// The labelled listing, one page of the open listing, the page of PRs
	// closed in the last day (duplicate closing comments), the hygiene
	// listing.
	if got := w.fake.Count(); got != 4 {
		t.Fatalf("%d requests for a repository with nothing to do, want 4: %v", got, w.fake.CountBy())
	}
	w2 := newWorld(t)
	for i := 0; i < 5; i++ {
		w2.markedPR(40 + float64(i))
	}
	w2.fake.Reset()
	w2.run(nil)
	reads := w2.fake.Count() - w2.fake.Writes()
	// The listings' pages carry every history: the labelled one, the open
	// one, the recently closed one, the hygiene listing, and the read-back
	// of this run's own closing comments; and each PR read afresh right
	// before its close, whose label set a listing minutes old cannot give.
	if reads > 5+5 || w2.fake.Writes() != 10 {
		t.Fatalf("closing 5 PRs past the close window read %d times: %v", reads, w2.fake.CountBy())
	}
}

// BenchmarkRun reports requests per run (total, writes, by endpoint), time
// per run and memory, on synthetic repositories. With -update it writes its
// times and peak heaps into docs/cost.md, and the machine it measured them
// on: the one place they are written, since no test can assert them
// (TestCostDoc checks the requests, writes and queries).
func BenchmarkRun(b *testing.B) {
	// The peak heap is a real run's: at Go's defaults, not the tests' (see
	// internal/testenv).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	var measured figures
	measured.setText("txt_machine", machine())
	defer func() {
		if testenv.Update() && !b.Failed() {
			checkClaims(b, costClaims, measured.get(), true)
		}
	}()
	for _, n := range []int{1000, 10000, 50000} {
		for _, budget := range []string{"500", "1000000"} {
			b.Run(fmt.Sprintf("prs=%d/ops=%s", n, budget), func(b *testing.B) {
				inputs := map[string]string{}
				for k, v := range costInputs {
					inputs[k] = v
				}
				inputs["operations-per-run"] = budget
				b.ReportAllocs()
				var reqs, writes, peak int64
				byRoute := map[string]int{}
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					w := syntheticWorld(b, n)
					runtime.GC()
					var base runtime.MemStats
					runtime.ReadMemStats(&base)
					stop := samplePeak(&peak, base.HeapAlloc)
					b.StartTimer()
					res := w.run(inputs)
					b.StopTimer()
					stop()
					reqs += int64(res.Requests)
					writes += int64(res.Writes)
					for k, v := range w.fake.CountBy() {
						byRoute[k] += v
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(reqs)/float64(b.N), "requests/run")
				b.ReportMetric(float64(writes)/float64(b.N), "writes/run")
				b.ReportMetric(float64(atomic.LoadInt64(&peak))/(1<<20), "peak-heap-MiB")
				key := fmt.Sprintf("%d_%s", n, budget)
				measured.setText("time_"+key, fmt.Sprintf("%.2f", b.Elapsed().Seconds()/float64(b.N)))
				measured.setText("heap_"+key, fmt.Sprintf("%.0f", float64(atomic.LoadInt64(&peak))/(1<<20)))
				for route, c := range byRoute {
					b.ReportMetric(float64(c)/float64(b.N), shortRoute(route)+"/run")
				}
			})
		}
	}
}

// samplePeak records the largest heap growth above base until stopped. The
// fake GitHub lives in the same process, so the figure includes its share of
// serving the run.
func samplePeak(peak *int64, base uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if d := int64(m.HeapAlloc) - int64(base); d > atomic.LoadInt64(peak) {
				atomic.StoreInt64(peak, d)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func shortRoute(route string) string {
	r := strings.NewReplacer("/repos/{owner}/{repo}", "", "{issue_number}", "N", "{comment_id}", "ID", "{name}", "L", "{ref}", "R", "/", "_", " ", "")
	return r.Replace(route)
}

// machine says where a benchmark ran: the platform, its CPUs and the Go
// release, for the figures that depend on them.
func machine() string {
	cpu := ""
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if m := regexp.MustCompile(`(?m)^model name\s*:\s*(.+)$`).FindSubmatch(b); m != nil {
			cpu = " (" + strings.TrimSpace(string(m[1])) + ")"
		}
	}
	return fmt.Sprintf("on %s/%s, %d CPUs%s, %s, by BenchmarkRun with -update", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), cpu, runtime.Version())
}
