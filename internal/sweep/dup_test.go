package sweep_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// dupWorld is a repository of n PRs under GITHUB_TOKEN's shared limit of
// 1,000 requests an hour: one fake server, so every client draws on the same
// counter. A fifth of the PRs are stale and due to close, the rest due to be
// marked.
func dupWorld(t *testing.T, n int) (*world, []int) {
	t.Helper()
	clock := fakegithub.NewClock(t0)
	fake := fakegithub.New(fakegithub.Options{Owner: "octo", Repo: "repo", Token: token, Clock: clock, RateLimit: 1000})
	w := serveWorld(t, fake)
	var prs []int
	for i := 0; i < n; i++ {
		if i%5 == 0 {
			prs = append(prs, w.markedPR(40+float64(i%7)))
		} else {
			prs = append(prs, w.pr(100+float64(i%40)))
		}
	}
	return w, prs
}

// ourDuplicates lists, from the fake's own records, every PR holding more
// than one of our notices of a kind for the same mark: two stale notices, or
// two closing comments.
func ourDuplicates(w *world, prs []int) []string {
	var out []string
	for _, n := range prs {
		for _, kind := range []string{"stale", "close"} {
			if c := w.notices(n, kind); c > 1 {
				out = append(out, fmt.Sprintf("#%d: %d %s notices", n, c, kind))
			}
		}
	}
	return out
}

// Issue 19 item 1: two default runs started together on a few hundred PRs
// spend the shared hourly limit down to rate-limit-reserve; neither run's
// budget runs out. The duplicates they post must not survive: the read-back
// may use the reserve, and the next run (the limit reset) cleans what is
// left.
func TestDupConcurrentRunsUnderTheSharedHourlyLimit(t *testing.T) {
	t.Parallel()
	tries := 8
	if testing.Short() {
		tries = 2
	}
	for rep := 0; rep < tries; rep++ {
		w, prs := dupWorld(t, 300)
		now := w.now()
		inputs := map[string]string{"write-interval": "0s"}
		var wg sync.WaitGroup
		var res [2]sweep.Result
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i] = w.sfRun(inputs, sfOpts{now: now})
			}()
		}
		wg.Wait()
		for i, r := range res {
			t.Logf("try %d run %d: stopped %v, %d requests, %d marked, %d closed", rep, i, r.Stopped, r.Requests, len(r.Marked), len(r.Closed))
		}
		if res[0].Stopped == nil && res[1].Stopped == nil {
			t.Fatalf("try %d: neither run met the shared limit's reserve: the test does not exercise it", rep)
		}
		// The next run, an hour later: the window has reset.
		w.clock.Advance(time.Hour + time.Minute)
		next := w.run(inputs)
		t.Logf("try %d next run: stopped %v, %d requests", rep, next.Stopped, next.Requests)
		if d := ourDuplicates(w, prs); len(d) > 0 {
			t.Fatalf("try %d: duplicates left after the next run: %s", rep, strings.Join(d, "; "))
		}
	}
}
