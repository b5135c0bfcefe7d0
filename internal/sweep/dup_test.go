package sweep_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
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

// Two default runs started together on a few hundred PRs
// spend the shared hourly limit down to rate-limit-reserve; neither run's
// budget runs out. The duplicates they post must not survive: the read-back
// may use the reserve, and the next run (the limit reset) cleans what is
// left.
func TestDupConcurrentRunsUnderTheSharedHourlyLimit(t *testing.T) {
	t.Parallel()
	testenv.Long(t)
	tries := 8
	if raceOn {
		tries = 1
	}
	for _, c := range []struct{ runs, prs int }{{2, 300}, {3, 160}} {
		for rep := 0; rep < tries; rep++ {
			w, prs := dupWorld(t, c.prs)
			now := w.now()
			inputs := map[string]string{"write-interval": "0s"}
			var wg sync.WaitGroup
			res := make([]sweep.Result, c.runs)
			for i := range res {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Over HTTP: the runs must meet on the wire, each request a
					// round trip, for the shared limit to run down between them.
					res[i] = w.sfRun(inputs, sfOpts{now: now, base: http.DefaultTransport})
				}()
			}
			wg.Wait()
			stopped := false
			for i, r := range res {
				t.Logf("%d runs, try %d, run %d: stopped %v, %d requests, %d marked, %d closed", c.runs, rep, i, r.Stopped, r.Requests, len(r.Marked()), len(r.Closed()))
				stopped = stopped || r.Stopped != nil
			}
			if !stopped {
				t.Fatalf("%d runs, try %d: no run met the shared limit's reserve: the test does not exercise it", c.runs, rep)
			}
			t.Logf("%d runs, try %d: %d duplicates before the next run", c.runs, rep, len(ourDuplicates(w, prs)))
			// The next run, an hour later: the window has reset.
			w.clock.Advance(time.Hour + time.Minute)
			next := w.run(inputs)
			t.Logf("%d runs, try %d, next run: stopped %v, %d requests", c.runs, rep, next.Stopped, next.Requests)
			if d := ourDuplicates(w, prs); len(d) > 0 {
				t.Fatalf("%d runs, try %d: duplicates left after the next run: %s", c.runs, rep, strings.Join(d, "; "))
			}
		}
	}
}

// staleNotice is the body of our stale notice for a mark at.
func staleNotice(w *world, n int, at time.Time) string {
	return "This PR is stale.\n\n<!-- stalepr:stale marked=" + at.Format(time.RFC3339) + " head=" + w.fake.MustIssue(n).HeadSHA + " -->"
}

const closeNotice = "Closing: no activity.\n\n<!-- stalepr:close -->"

// commentIDs are the IDs of the comments on a PR whose body holds marker.
func commentIDs(w *world, n int, marker string) []int64 {
	var out []int64
	for _, c := range w.fake.Comments(n) {
		if strings.Contains(c.Body, marker) {
			out = append(out, c.ID)
		}
	}
	return out
}

// Copies of our notices that two earlier runs left (their
// read-backs refused) are deleted by the next run from the comments it reads
// anyway, the oldest kept; a person's quote of a marker, and a notice of an
// earlier mark, stay.
func TestDupLaterRunCleansWhatConcurrentRunsLeft(t *testing.T) {
	t.Parallel()
	// Every stale PR's history comes with its listing page: the copies are
	// found there, however many stale PRs there are, with no read of their
	// own.
	for _, stalePRs := range []int{1, 4} {
		t.Run(fmt.Sprintf("%d stale PRs", stalePRs), func(t *testing.T) {
			w := newWorld(t)
			marked := daysAgo(2)
			var dup []int
			for i := 0; i < stalePRs; i++ {
				n := w.pr(100)
				w.fake.Label(n, action, marked, "stale")
				w.fake.Comment(n, action, marked.Add(time.Second), staleNotice(w, n, marked))
				// The other run, three seconds later, marked as of its own start.
				w.fake.Comment(n, action, marked.Add(4*time.Second), staleNotice(w, n, marked.Add(3*time.Second)))
				dup = append(dup, n)
			}
			// Closed by both runs a day ago: two closing comments.
			closed := w.markedPR(40)
			w.fake.Comment(closed, action, daysAgo(1), closeNotice)
			w.fake.Comment(closed, action, daysAgo(1).Add(2*time.Second), closeNotice)
			w.fake.Close(closed, action, daysAgo(1).Add(3*time.Second), "")
			var others []int
			if stalePRs == 1 {
				// Un-staled and marked again within the hour (days-before-stale
				// 0, frequent runs): the timeline shows the label taken off
				// between the two notices, so neither is a copy.
				again := w.pr(100)
				first := t0.Add(-50 * time.Minute)
				w.fake.Label(again, action, first, "stale")
				w.fake.Comment(again, action, first.Add(time.Second), staleNotice(w, again, first))
				w.fake.Comment(again, alice, first.Add(5*time.Minute), "still on it")
				w.fake.Unlabel(again, action, first.Add(10*time.Minute), "stale")
				second := first.Add(20 * time.Minute)
				w.fake.Label(again, action, second, "stale")
				w.fake.Comment(again, action, second.Add(time.Second), staleNotice(w, again, second))
				others = []int{again}
			}
			if stalePRs > 1 {
				// Stale PRs whose marker copies are not ours, or not copies.
				quoted := w.markedPR(2)
				w.fake.Comment(quoted, alice, daysAgo(3), "> "+staleNotice(w, quoted, marked))
				w.fake.Comment(quoted, alice, daysAgo(3).Add(time.Second), "again: "+staleNotice(w, quoted, marked))
				remarked := w.pr(100)
				old := daysAgo(100)
				w.fake.Comment(remarked, action, old, staleNotice(w, remarked, old))
				w.fake.Comment(remarked, alice, daysAgo(90), "working on it")
				w.fake.Label(remarked, action, marked, "stale")
				w.fake.Comment(remarked, action, marked.Add(time.Second), staleNotice(w, remarked, marked))
				others = []int{quoted, remarked}
			}

			// What must be left: every marker comment but the copies.
			keep := map[int][]int64{}
			for _, n := range dup {
				keep[n] = commentIDs(w, n, "stalepr:")[:1]
			}
			// A closed PR's copy is found in the listing of the PRs
			// closed in the last day, whose pages carry their histories.
			keep[closed] = commentIDs(w, closed, "stalepr:")[:2] // its stale notice, the first closing comment
			for _, n := range others {
				keep[n] = commentIDs(w, n, "stalepr:")
			}
			w.fake.Reset()
			res := w.run(map[string]string{"write-interval": "0s"})
			if !res.OK() {
				t.Fatalf("failed %+v, stopped %v", res.Failed(), res.Stopped)
			}
			for n, want := range keep {
				if got := commentIDs(w, n, "stalepr:"); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("#%d: marker comments %v, want %v", n, got, want)
				}
			}
			by := w.fake.CountBy()
			// Found in the histories the listings' pages carry: no history
			// read of its own, no comment listing (the run posted nothing to
			// read back). The closed PR's stale label is the label clean-up's,
			// which reads who closed it (a bot's close keeps it).
			for _, r := range w.fake.Requests() {
				if r.Route == "POST /graphql" && strings.Contains(r.Body, "pullRequest(") && !strings.Contains(r.Body, fmt.Sprintf(`"number":%d,`, closed)) {
					t.Errorf("a history read of its own: %.120s", r.Body)
				}
			}
			if via := "GET " + sfRepoCommentsRoute; by[via] != 0 {
				t.Errorf("%d repository comment listings read: %v", by[via], by)
			}
			want := len(dup) + 1 // and the closed PR's copy
			if deletes := by["DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}"]; deletes != want {
				t.Errorf("%d deletes, want %d (one per copy); requests %v", deletes, want, by)
			}
		})
	}
}

// A concurrent run posts the same notice and spends the
// shared limit down to rate-limit-reserve; this run's read-back of its own
// notices may go below the reserve, so the copy is deleted at once.
func TestDupReadBackMayUseTheReserve(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(100)
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Route != "POST "+sfPRCommentsRoute {
			return nil
		}
		var body struct{ Body string }
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
			t.Error(err)
			return nil
		}
		num, _ := strconv.Atoi(strings.Split(r.Path, "/")[7])
		w.fake.Comment(num, action, w.now(), body.Body) // the other run's copy
		w.fake.SetRateRemaining(101)                    // and its requests: 100 left after this one
		return nil
	})
	log := &nopLog{}
	res := w.runLog(map[string]string{"write-interval": "0s"}, log)
	if got := w.fake.RateRemaining(); got >= 100 {
		t.Fatalf("%d requests left: the read-back did not go below the reserve of 100", got)
	}
	if c := w.notices(n, "stale"); c != 1 {
		t.Errorf("#%d: %d stale notices, want 1; log %q", n, c, log.printed)
	}
	if !res.OK() {
		t.Errorf("failed %+v, stopped %v", res.Failed(), res.Stopped)
	}
}

// Concurrent runs' copies are deleted, never a notice of a new mark: with
// days-before-stale: 0 and runs more often than hourly, a PR un-staled
// after a person's comment is marked again within the hour. Its new notice
// is no copy of the old one (the un-stale lies between them), also when the
// run learns of the old one from the repository's comments only.
func TestDupNewMarkWithinTheHourIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"days-before-stale": "0", "days-before-close": "5"}
	n := w.pr(1)
	w.pr(1)
	w.pr(1)
	w.run(inputs) // marks all three
	if w.notices(n, "stale") != 1 {
		t.Fatalf("#%d: %d notices after the first run, want 1", n, w.notices(n, "stale"))
	}
	w.clock.Advance(10 * time.Minute)
	w.fake.Comment(n, bob, w.now(), "still working on it")
	w.clock.Advance(10 * time.Minute)
	res := w.run(inputs)
	if w.hasLabel(n, "stale") || !has(res.Unstaled(), n) {
		t.Fatalf("#%d not un-staled after bob's comment (setup): %v", n, w.labels(n))
	}
	for i := range 3 {
		w.clock.Advance(10 * time.Minute)
		w.run(inputs)
		if c := w.notices(n, "stale"); c != 2 || !w.hasLabel(n, "stale") {
			t.Errorf("run %d after the un-stale: #%d has %d stale notices, labels %v; want the old and the new mark's, stale",
				i+1, n, c, w.labels(n))
		}
	}
}
