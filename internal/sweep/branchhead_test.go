package sweep_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// Rule 7, the branch's commit: a branch is deleted only while it points at
// the head of the PR stalepr closed. GitHub does not move a closed PR's
// head when its branch is pushed, so a branch pushed to after the close
// holds work that is not that PR.

const (
	routeCloseIssue = "PATCH /repos/{owner}/{repo}/issues/{issue_number}"
	routeGetRef     = "GET /repos/{owner}/{repo}/git/ref/{ref}"
	routeDeleteRef  = "DELETE /repos/{owner}/{repo}/git/refs/{ref}"
)

// stopAfterClose kills the next run once its close of a PR went through:
// every request after it is dropped, as a runner killed between the close
// and the branch's deletion.
func (w *world) stopAfterClose() {
	var mu sync.Mutex
	dead := false
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		mu.Lock()
		defer mu.Unlock()
		if dead {
			return fakegithub.DropConnection()
		}
		if r.Route == routeCloseIssue && strings.Contains(r.Body, `"closed"`) {
			dead = true // this one goes through; its answer does too
		}
		return nil
	})
}

// closedByAStoppedRun leaves a stale PR from branch old-work closed by a
// run that stopped before deleting the branch: the stale label still on,
// the branch there.
func closedByAStoppedRun(t *testing.T, w *world, inputs map[string]string) int {
	t.Helper()
	w.fake.AddBranch("old-work")
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
	w.stopAfterClose()
	w.run(inputs)
	w.fake.ClearFaults()
	if w.state(n) != "closed" || !w.hasLabel(n, "stale") || !w.fake.HasBranch("old-work") {
		t.Fatalf("#%d after the stopped run: state %s, labels %v, branches %v; want closed, stale label on, branch there",
			n, w.state(n), w.labels(n), w.fake.Branches())
	}
	return n
}

// branchRequests lists the routes of the requests for branch old-work, in order.
func (w *world) branchRequests() []string {
	var out []string
	for _, r := range w.fake.Requests() {
		if (r.Route == routeGetRef || r.Route == routeDeleteRef) && strings.HasSuffix(r.Path, "/heads/old-work") {
			out = append(out, r.Route)
		}
	}
	return out
}

// TestBranchPushedAfterTheCloseIsKept: a run stops between the close and
// the deletion; the author pushes to the branch; the next run finishes the
// clean-up (the stale label off) and keeps the branch, with the reason in
// the log.
func TestBranchPushedAfterTheCloseIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inputs := map[string]string{"delete-branch": "true"}
	n := closedByAStoppedRun(t, w, inputs)
	head := w.fake.MustIssue(n).HeadSHA

	w.clock.Advance(24 * time.Hour)
	pushed := w.fake.PushBranch("old-work", w.now().Add(-time.Hour))
	if got := w.fake.MustIssue(n).HeadSHA; got != head || pushed == head {
		t.Fatalf("the push moved the closed PR's head: %s, was %s (pushed %s)", got, head, pushed)
	}
	w.fake.Reset()
	log := &nopLog{}
	res := w.runLog(inputs, log)

	if !w.fake.HasBranch("old-work") {
		t.Errorf("the branch, pushed to after the close, was deleted: branches %v", w.fake.Branches())
	}
	if got := w.branchRequests(); len(got) != 1 || got[0] != routeGetRef {
		t.Errorf("requests for the branch %v; want its read, no deletion", got)
	}
	if w.hasLabel(n, "stale") || !has(res.Cleaned(), n) {
		t.Errorf("#%d: labels %v, cleaned %v; want the clean-up finished, the stale label off", n, w.labels(n), numbers(res.Cleaned()))
	}
	if !res.OK() || len(res.Failed()) != 0 {
		t.Errorf("failed %+v, stopped %v: a kept branch is no failure", res.Failed(), res.Stopped)
	}
	want := `branch "old-work" kept: it has commits the pull request does not (pushed after the close)`
	if !strings.Contains(strings.Join(log.printed, "\n"), want) {
		t.Errorf("log %q does not say %q", log.printed, want)
	}

	// Nothing is left for a later run.
	w.clock.Advance(24 * time.Hour)
	w.fake.Reset()
	w.run(inputs)
	if got := w.fake.Writes(); got != 0 || !w.fake.HasBranch("old-work") {
		t.Errorf("the run after: %d writes %v, branches %v; want none, the branch kept", got, w.fake.WriteRequests(), w.fake.Branches())
	}
}

// TestBranchAtTheHeadIsDeleted: a branch still at the PR's head is
// deleted, right after the close and when a later run finishes a stopped
// one, its commit read just before the deletion.
func TestBranchAtTheHeadIsDeleted(t *testing.T) {
	t.Parallel()
	inputs := map[string]string{"delete-branch": "true"}
	check := func(t *testing.T, w *world, n int) {
		t.Helper()
		if w.fake.HasBranch("old-work") || w.state(n) != "closed" || w.hasLabel(n, "stale") {
			t.Errorf("#%d: state %s, labels %v, branches %v; want closed, label off, branch deleted",
				n, w.state(n), w.labels(n), w.fake.Branches())
		}
		if got := w.branchRequests(); len(got) != 2 || got[0] != routeGetRef || got[1] != routeDeleteRef {
			t.Errorf("requests for the branch %v; want its commit read, then its deletion", got)
		}
	}
	t.Run("with the close", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		w.fake.AddBranch("old-work")
		n := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
		if res := w.run(inputs); !has(res.Closed(), n) || !res.OK() {
			t.Fatalf("closed %v, failed %+v", numbers(res.Closed()), res.Failed())
		}
		check(t, w, n)
	})
	t.Run("after a stopped run", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		n := closedByAStoppedRun(t, w, inputs)
		w.clock.Advance(24 * time.Hour)
		w.fake.Reset()
		if res := w.run(inputs); !has(res.Cleaned(), n) || !res.OK() {
			t.Fatalf("cleaned %v, failed %+v", numbers(res.Cleaned()), res.Failed())
		}
		check(t, w, n)
	})
}

// TestBranchUnreadIsKept: when GitHub does not answer the read of the
// branch, it is not deleted, and the PR, closed, is reported failed with
// the reason.
func TestBranchUnreadIsKept(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake.AddBranch("old-work")
	n := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Route == routeGetRef {
			return fakegithub.StatusFault(403, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/git/refs#get-a-reference","status":"403"}`)
		}
		return nil
	})
	res := w.run(map[string]string{"delete-branch": "true"})
	if !w.fake.HasBranch("old-work") || w.state(n) != "closed" || len(w.branchRequests()) != 1 {
		t.Errorf("#%d: state %s, branches %v, requests for the branch %v; want closed, its read only, the branch kept",
			n, w.state(n), w.fake.Branches(), w.branchRequests())
	}
	if f := res.Failed(); len(f) != 1 || f[0].Number != n || !strings.Contains(f[0].Err, "closed, but not deleting its branch") {
		t.Errorf("failed %+v; want #%d, closed, but not deleting its branch", f, n)
	}
	// The stale label stays: the same run's clean-up, reading the history
	// from before the close, once took the PR for a person's close and took
	// it off, so the deletion was never finished. The next run finishes it.
	if !w.hasLabel(n, "stale") {
		t.Fatalf("#%d: labels %v after the failed deletion; want the stale label kept for the next run", n, w.labels(n))
	}
	w.fake.SetFaultHook(nil)
	w.clock.Advance(24 * time.Hour)
	w.run(map[string]string{"delete-branch": "true"})
	if w.fake.HasBranch("old-work") || w.hasLabel(n, "stale") {
		t.Errorf("next run: branches %v, labels %v; want the branch deleted and the label off", w.fake.Branches(), w.labels(n))
	}
}

// TestBranchDeletionRetriedReadsTheBranchAgain: GitHub refuses the
// deletion (a 502, a secondary limit) and the author pushes to the branch
// while the run waits to send it again. The retry reads the branch first:
// it has moved, so it is kept, with the reason in the log and no failure.
// A deletion GitHub made before answering 502 is found gone by that read:
// nothing is sent again. The write pace and every wait come before the
// read, never between the read and the deletion.
func TestBranchDeletionRetriedReadsTheBranchAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		fault *fakegithub.Fault
		push  bool // the author pushes while the run waits
		kept  bool
	}{
		{"a 502, then a push", fakegithub.ServerError(502), true, true},
		{"a secondary limit, then a push", fakegithub.SecondaryRateLimit(403, 30), true, true},
		{"a 502 after the deletion went through", fakegithub.FailAfterWrite(), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake.AddBranch("old-work")
			n := w.markedPR(40, func(is *fakegithub.Issue) { is.HeadRef = "old-work" })
			type sent struct {
				route string
				at    time.Time
			}
			var (
				mu     sync.Mutex
				seen   []sent
				pushed string
			)
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if (r.Route != routeGetRef && r.Route != routeDeleteRef) || !strings.HasSuffix(r.Path, "/heads/old-work") {
					return nil
				}
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, sent{r.Route, w.now()})
				if r.Route != routeDeleteRef || pushed != "" || len(seen) > 2 {
					return nil
				}
				if c.push {
					pushed = w.fake.PushBranch("old-work", w.now())
				}
				return c.fault
			})
			log := &nopLog{}
			res := w.runLog(map[string]string{"delete-branch": "true", "write-interval": "10s"}, log)

			if w.fake.HasBranch("old-work") != c.kept {
				t.Errorf("branch there: %v, want %v (branches %v)", w.fake.HasBranch("old-work"), c.kept, w.fake.Branches())
			}
			want := []string{routeGetRef, routeDeleteRef, routeGetRef}
			if got := w.branchRequests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("requests for the branch %v; want its read, the refused deletion, its read again and nothing more", got)
			}
			for i, s := range seen {
				if s.route == routeDeleteRef && (i == 0 || !seen[i-1].at.Equal(s.at)) {
					t.Errorf("deletion %d went at %s, after a wait since the read before it", i, s.at.Format(time.TimeOnly))
				}
			}
			if len(seen) == 3 && !seen[2].at.After(seen[1].at) {
				t.Errorf("the read before the retry at %s, the refused deletion at %s: no wait before it", seen[2].at.Format(time.TimeOnly), seen[1].at.Format(time.TimeOnly))
			}
			if w.state(n) != "closed" || w.hasLabel(n, "stale") || !has(res.Closed(), n) {
				t.Errorf("#%d: state %s, labels %v, closed %v; want closed, the stale label off", n, w.state(n), w.labels(n), numbers(res.Closed()))
			}
			if !res.OK() || len(res.Failed()) != 0 {
				t.Errorf("failed %+v, stopped %v: a branch kept or gone is no failure", res.Failed(), res.Stopped)
			}
			said := strings.Contains(strings.Join(log.printed, "\n"), `branch "old-work" kept: it has commits the pull request does not`)
			if said != c.kept {
				t.Errorf("log %q: says the branch was kept: %v, want %v", log.printed, said, c.kept)
			}
		})
	}
}
