package sweep_test

// Histories real repositories have. One test per item, each
// through the real HTTP path against the fake GitHub, each failing on the
// code before the fix; items 1, 3, 4, 5 and 10's v1 markers are cases in
// testdata/rules/inactivity (TestRuleCases).

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

var (
	preCommit = fakegithub.Bot("pre-commit-ci[bot]")
	mallory   = fakegithub.Person("mallory")
)

// Item 2: someone else's mark keeps its clock and gets no notice of ours;
// our own label without notice is completed before any close.
func TestTrustForeignMarks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	actionsStale := func(d float64) int {
		n := w.pr(d + 90)
		w.fake.Comment(n, action, daysAgo(d), "This PR is stale because it has been open 60 days with no activity.")
		w.fake.Label(n, action, daysAgo(d).Add(2*time.Second), "stale")
		return n
	}
	recent, nearly, due := actionsStale(10), actionsStale(29), actionsStale(31)
	byHand := w.pr(100)
	w.fake.Label(byHand, maint, daysAgo(5), "stale")
	ours := w.pr(130)
	w.fake.Label(ours, action, daysAgo(40), "stale") // a run stopped before its notice

	w.run(nil)
	for _, n := range []int{recent, nearly, byHand} {
		if w.notices(n, "stale") != 0 || w.state(n) != "open" || !w.hasLabel(n, "stale") {
			t.Errorf("#%d: %d notices of ours, state %s, labels %v: want no notice, still open and stale", n, w.notices(n, "stale"), w.state(n), w.labels(n))
		}
	}
	if w.state(due) != "closed" || w.notices(due, "close") != 1 {
		t.Errorf("actions/stale's mark of 31 days ago: state %s, %d closing comments; want closed on its own clock", w.state(due), w.notices(due, "close"))
	}
	if w.state(ours) != "open" || w.notices(ours, "stale") != 1 {
		t.Errorf("our label without notice, 40 days old: state %s, %d notices; want the notice first, no close", w.state(ours), w.notices(ours, "stale"))
	}

	w.clock.Advance(2 * 24 * time.Hour)
	w.run(nil)
	if w.state(nearly) != "closed" || w.notices(nearly, "stale") != 0 {
		t.Errorf("actions/stale's mark now 31 days old: state %s, %d notices of ours", w.state(nearly), w.notices(nearly, "stale"))
	}
	if w.state(ours) != "open" {
		t.Error("closed two days after the notice: the author gets a full window")
	}
	w.clock.Advance(29 * 24 * time.Hour)
	w.run(nil)
	if w.state(ours) != "closed" || w.state(byHand) != "closed" {
		t.Errorf("a window after the notice / the hand label: states %s, %s; want both closed", w.state(ours), w.state(byHand))
	}
	for _, n := range []int{recent, nearly, due, byHand, ours} {
		if c := w.notices(n, "stale"); c > 1 {
			t.Errorf("#%d: %d stale notices", n, c)
		}
	}
}

// A protected branch is kept, said in the log, and the close is
// finished (no retry on every later run).
func TestProtectedBranchIsKeptAndSaid(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddBranch("release-prep")
	w.fake.ProtectBranch("release-prep")
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "release-prep" })
	log := &nopLog{}
	res := w.runLog(map[string]string{"delete-branch": "true"}, log)
	if !res.OK() || w.state(n) != "closed" || w.hasLabel(n, "stale") || !w.fake.HasBranch("release-prep") {
		t.Fatalf("ok %v, state %s, labels %v: want closed, label off, branch kept", res.OK(), w.state(n), w.labels(n))
	}
	if !strings.Contains(strings.Join(log.printed, "\n"), "protected branch") {
		t.Errorf("log %q does not say why the branch stayed", log.printed)
	}
}

// Item 7: a PR stalepr closed and a person reopened is fresh, whatever the
// inputs.
func TestTrustReopenedIsFreshUnderIgnoreUpdates(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	n := w.pr(10, func(is *fakegithub.Issue) { is.CreatedAt = daysAgo(200) })
	in := map[string]string{"ignore-updates": "true", "days-before-close": "0"}
	w.run(in)
	if w.state(n) != "closed" {
		t.Fatalf("created 200 days ago, ignore-updates: state %s, want closed", w.state(n))
	}
	w.clock.Advance(time.Hour)
	w.fake.Reopen(n, alice, w.now())
	w.clock.Advance(24 * time.Hour)
	w.run(in)
	if w.state(n) != "open" {
		t.Fatal("reopened by its author yesterday, closed again at once")
	}
}

// Item 8: secondary limits slow the pace; the work still gets done.
func TestTrustSecondaryLimitsSlowDownInsteadOfStopping(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var prs []int
	for i := 0; i < 8; i++ {
		prs = append(prs, w.pr(100+float64(i)))
	}
	var mu sync.Mutex
	writes := 0
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if r.Write {
			writes++
			if writes%3 == 0 { // every third write is refused once
				return fakegithub.SecondaryRateLimit(403, 20)
			}
		}
		return nil
	})
	res := w.run(map[string]string{"write-interval": "0s"})
	if res.Stopped != nil {
		t.Fatalf("stopped %v after %d writes", res.Stopped, writes)
	}
	for _, n := range prs {
		if !w.hasLabel(n, "stale") || w.notices(n, "stale") != 1 {
			t.Errorf("#%d: labels %v, %d notices", n, w.labels(n), w.notices(n, "stale"))
		}
	}
}

// Item 9: under a capped budget the PRs people revived are un-staled
// before anything is closed or marked.
func TestTrustCappedRunServesPeopleFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := 0; i < 60; i++ {
		w.pr(100 + float64(i)) // marks queued
	}
	var revived []int
	for i := 0; i < 5; i++ {
		n := w.markedPR(25 + float64(i))
		w.fake.Comment(n, bob, daysAgo(float64(i)+1), "I still need this")
		revived = append(revived, n)
	}
	for i := 0; i < 10; i++ {
		w.markedPR(40 + float64(i)) // closes due
	}
	res := w.run(map[string]string{"operations-per-run": "30"})
	for _, n := range revived {
		if w.hasLabel(n, "stale") {
			t.Errorf("#%d revived by a person: still stale after a capped run (unstaled %v)", n, numbers(res.Unstaled()))
		}
	}
	if res.Stopped == nil {
		t.Error("the budget did not cap the run: the test proves nothing")
	}
}

// Item 10: only our own identity's comments carry our markers.
func TestTrustForgedMarkers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	quoted := w.markedPR(40)
	w.fake.Comment(quoted, mallory, daysAgo(5), "> This PR is stale.\n> <!-- stalepr:stale marked="+daysAgo(5).Format(time.RFC3339)+" -->\nplease don't")
	pasted := w.markedPR(40)
	w.fake.Comment(pasted, mallory, daysAgo(39), "<!-- stalepr:close -->")

	res := w.run(nil)
	if !has(res.Unstaled(), quoted) || w.hasLabel(quoted, "stale") {
		t.Errorf("a person quoting the notice is a person's comment: labels %v", w.labels(quoted))
	}
	if w.state(pasted) != "open" || w.hasLabel(pasted, "stale") || w.notices(pasted, "close") != 1 {
		t.Errorf("a pasted close marker: state %s, labels %v: a person's comment after the mark, never a close without ours", w.state(pasted), w.labels(pasted))
	}
	for _, c := range w.fake.Comments(quoted) {
		if c.User.Login == mallory.Login {
			return // not deleted as a "duplicate"
		}
	}
	t.Error("mallory's comment was deleted")
}

// Item 11: a listing that repeats a page or loops yields each PR once.
func TestTrustSamePRTwiceInOneRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var prs []int
	for i := 0; i < 150; i++ {
		prs = append(prs, w.pr(100+float64(i%50)))
	}
	res := w.sfRun(sfWith(sfInputs), sfOpts{base: loopingLink{base: w.fake.Transport()}})
	for _, n := range prs {
		if c := w.notices(n, "stale"); c > 1 {
			t.Fatalf("#%d: %d notices from one run", n, c)
		}
	}
	if len(res.Marked()) == 0 {
		t.Fatal("nothing marked: the test proves nothing")
	}
}

// loopingLink makes every issue listing's "next" link point back to page 1.
type loopingLink struct{ base http.RoundTripper }

func (l loopingLink) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.base.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, "/issues") {
		return resp, err
	}
	if link := resp.Header.Get("Link"); strings.Contains(link, `rel="next"`) {
		u := *r.URL
		q := u.Query()
		q.Set("page", "1")
		u.RawQuery = q.Encode()
		resp.Header.Set("Link", fmt.Sprintf(`<%s>; rel="next"`, u.String()))
	}
	return resp, nil
}

// Item 12: two runs at full speed still leave one notice per PR, whether
// GitHub dates the comments apart (each write takes it a fraction of a
// second) or all in the same second.
func TestTrustConcurrentRunsAtFullSpeed(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // under -short, TestSafetyConcurrentRunsPostOnce races two runs
	tries := 6      // each try is a fresh race
	for rep := 0; rep < tries; rep++ {
		w := newWorld(t)
		var prs []int
		for i := 0; i < 130; i++ { // more notices than one comment page
			prs = append(prs, w.pr(100+float64(i%40)))
		}
		now := w.now()
		var wg sync.WaitGroup
		var res [2]sweep.Result
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				o := sfOpts{now: now}
				if rep%2 == 0 {
					o.base = slowWrites{w.clock}
				}
				res[i] = w.sfRun(sfWith(sfInputs, "write-interval", "0s"), o)
			}()
		}
		wg.Wait()
		for i, r := range res {
			t.Logf("run %d: stopped %v, %d requests, %d marked, by route %v", i, r.Stopped, r.Requests, len(r.Marked()), r.ByRoute)
		}
		for _, n := range prs {
			if c := w.notices(n, "stale"); c != 1 {
				t.Fatalf("try %d: #%d has %d stale notices", rep, n, c)
			}
		}
	}
}

// slowWrites advances the clock a quarter of a second per write, the time a
// write takes GitHub.
type slowWrites struct{ clock *fakegithub.Clock }

func (s slowWrites) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet {
		s.clock.Advance(250 * time.Millisecond)
	}
	return http.DefaultTransport.RoundTrip(r)
}
