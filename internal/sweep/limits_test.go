package sweep_test

// Through the sweep: listings and histories whose
// pages never end, and pages that disagree about who the token is.

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
)

// gqlRate is a rateLimit answer with points to spare.
const gqlRate = `"rateLimit":{"cost":1,"limit":5000,"remaining":4000,"resetAt":"2026-11-29T13:00:00Z"}`

// endless answers every GraphQL request that when accepts with page(n), n
// counting from 1: pages that each say there is more, after a cursor never
// given before.
func (w *world) endless(when func(fakegithub.RequestInfo) bool, page func(n int) string) {
	var mu sync.Mutex
	n := 0
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if !when(r) {
			return nil
		}
		mu.Lock()
		n++
		body := page(n)
		mu.Unlock()
		return fakegithub.StatusFault(200, body)
	})
}

// prPage is a page of pull requests that says there are more, holding nodes.
func prPage(total, n int, nodes string) string {
	return fmt.Sprintf(`{"data":{"viewer":{"login":"github-actions[bot]"},%s,"repository":{"pullRequests":{"totalCount":%d,`+
		`"pageInfo":{"hasNextPage":true,"endCursor":"c%d"},"nodes":[%s]}}}}`, gqlRate, total, n, nodes)
}

// TestLimitsEndlessListingStopsTheRun: the listing's pages keep saying
// there is more, empty, each with a new cursor. The run stops within 10
// requests, writes nothing and fails (exit 1), whether GitHub's totalCount
// is large (the empty pages tell) or small (the pages outgrow it).
func TestLimitsEndlessListingStopsTheRun(t *testing.T) {
	t.Parallel()
	for name, total := range map[string]int{"empty pages": 5000, "more pages than totalCount": 2} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			closing := w.markedPR(40)
			w.endless(func(r fakegithub.RequestInfo) bool { page, _, _ := sfPageOf(r); return page },
				func(n int) string { return prPage(total, n, "") })
			res := w.run(sfQuick)
			t.Logf("%d requests: %v", w.fake.Count(), res.Stopped)
			if n := w.fake.Count(); n > 10 {
				t.Errorf("%d requests, want at most 10", n)
			}
			if res.OK() || !res.ListingFailed() || !strings.Contains(fmt.Sprint(res.Stopped), api.ErrEndlessPages.Error()) {
				t.Errorf("OK %v, Stopped %v: want a failed run stopped on the endless listing", res.OK(), res.Stopped)
			}
			if n := w.fake.Writes(); n != 0 || w.state(closing) != "open" {
				t.Errorf("%d writes, #%d %s: want nothing written", n, closing, w.state(closing))
			}
		})
	}
}

// TestLimitsEndlessHistoryFailsThePR: a PR whose older history's pages
// never end is a failed read of that PR after a few requests, and the run
// fails (exit 1) instead of spending its budget and ending green; the other
// PRs are swept.
func TestLimitsEndlessHistoryFailsThePR(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	long := sfLongHistory(w)
	closing := w.markedPR(40)
	w.endless(sfIsHistory, func(n int) string {
		return fmt.Sprintf(`{"data":{%s,"repository":{"pullRequest":{"timelineItems":{"totalCount":5000,`+
			`"pageInfo":{"hasPreviousPage":true,"startCursor":"h%d"},"nodes":[]}}}}}`, gqlRate, n)
	})
	res := w.run(sfQuick)
	histories := 0
	for _, r := range w.fake.Requests() {
		if sfIsHistory(r) {
			histories++
		}
	}
	t.Logf("%d history reads, %d requests in all", histories, w.fake.Count())
	if histories > 4 {
		t.Errorf("%d history reads, want at most 4", histories)
	}
	if res.OK() || !has(res.Failed(), long) {
		t.Errorf("OK %v, Failed %v: want #%d failed and the run red", res.OK(), numbers(res.Failed()), long)
	}
	if w.state(closing) != "closed" {
		t.Errorf("#%d %s: the other PRs are swept, want it closed", closing, w.state(closing))
	}
}

// TestLimitsViewerIsOneAnswer: the second page of the stale PRs' listing
// names another account as the viewer than the first. Who the token is
// decides which markers are stalepr's, so the run stops at that page with
// a clear error and writes nothing: neither the PRs of the first page nor
// those of the second are closed on the strength of either answer.
func TestLimitsViewerIsOneAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var closing []int
	for i := range 80 { // two pages of the stale listing
		closing = append(closing, w.markedPR(40+float64(i)/10))
	}
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if page, _, after := sfPageOf(r); page && after {
			w.fake.SetIdentity(fakegithub.Bot("other-app[bot]"))
		}
		return nil
	})
	res := w.run(sfQuick)
	t.Logf("%d requests: %v", w.fake.Count(), res.Stopped)
	if n := w.fake.Writes(); n != 0 {
		t.Errorf("%d writes, want none", n)
	}
	for _, n := range closing {
		if w.state(n) != "open" {
			t.Fatalf("#%d closed although the pages disagree about who the token is", n)
		}
	}
	if res.OK() || !strings.Contains(fmt.Sprint(res.Stopped), `"github-actions[bot]", then "other-app[bot]"`) {
		t.Errorf("OK %v, Stopped %v: want a failed run naming both answers", res.OK(), res.Stopped)
	}
}

// TestLimitsEndlessAuditListingFails: the closure audit's pages of closed
// PRs keep giving the same PR, each page with a new cursor and saying there
// is more. The audit's listing fails once its pages outgrow totalCount,
// after a few requests, and the run is red.
func TestLimitsEndlessAuditListingFails(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	closed := `{"number":9,"title":"closed","updatedAt":"2026-11-28T00:00:00Z","closedAt":"2026-11-28T00:00:00Z","merged":false,` +
		`"headRef":{"name":"b"},"labels":{"totalCount":0,"nodes":[]},` +
		`"timelineItems":{"totalCount":0,"pageInfo":{"hasPreviousPage":false,"startCursor":""},"nodes":[]}}`
	w.endless(func(r fakegithub.RequestInfo) bool { return strings.Contains(r.Body, "MERGED") },
		func(n int) string { return prPage(1, n, closed) })
	res := w.run(auditInputs)
	audits := 0
	for _, r := range w.fake.Requests() {
		if strings.Contains(r.Body, "MERGED") {
			audits++
		}
	}
	t.Logf("%d audit pages, %d requests in all: %v", audits, w.fake.Count(), res.Stopped)
	if audits > 5 {
		t.Errorf("%d pages of the audit's listing, want at most 5", audits)
	}
	if res.OK() || !strings.Contains(fmt.Sprint(res.Stopped), api.ErrEndlessPages.Error()) {
		t.Errorf("OK %v, Stopped %v: want the audit's listing failed as endless", res.OK(), res.Stopped)
	}
}
