package sweep_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// nowReadPRs are the PRs a fresh read (Reader.PullsNow) asked for, in its
// variables n0, n1, ...; nil for any other request.
func nowReadPRs(r fakegithub.RequestInfo) []int {
	if r.Route != "POST /graphql" || !strings.Contains(r.Body, "f0: pullRequest(") {
		return nil
	}
	var body struct{ Variables map[string]any }
	if json.Unmarshal([]byte(r.Body), &body) != nil {
		return nil
	}
	var out []int
	for k := 0; ; k++ {
		n, ok := body.Variables[fmt.Sprintf("n%d", k)].(float64)
		if !ok {
			return out
		}
		out = append(out, int(n))
	}
}

// factsAges measures, by the fake's clock, how old the facts are that a
// write to a PR acts on: for each write to a PR a fresh read covered
// before it, the time from that PR's latest fresh read to the write.
// reads counts the fresh reads.
func factsAges(reqs []fakegithub.RequestInfo) (ages []time.Duration, reads int) {
	readAt := map[int]time.Time{}
	for _, r := range reqs {
		if prs := nowReadPRs(r); prs != nil {
			reads++
			for _, n := range prs {
				readAt[n] = r.At
			}
			continue
		}
		if at, ok := readAt[sfPROf(r)]; ok && r.Write {
			ages = append(ages, r.At.Sub(at))
		}
	}
	return ages, reads
}

func oldest(ages []time.Duration) time.Duration {
	var most time.Duration
	for _, a := range ages {
		most = max(most, a)
	}
	return most
}

// TestFreshReadIsOneQueryAGroup: the closes' fresh facts come from one
// GraphQL query for the next PRs to close, not one REST read each, and the
// group is as large as keeps every close's last write within
// sweep.MaxFactsAge of the read, at the write pace asked (write-interval;
// a close writes twice, its comment and the PATCH that closes it).
func TestFreshReadIsOneQueryAGroup(t *testing.T) {
	t.Parallel()
	for _, pace := range []time.Duration{time.Second, 3 * time.Second} {
		t.Run(fmt.Sprint("write-interval ", pace), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			const due = 40
			for i := range due {
				w.markedPR(31 + float64(i))
			}
			w.fake.Reset()
			res := w.run(map[string]string{"write-interval": pace.String()})
			reqs := w.fake.Requests()
			ages, reads := factsAges(reqs)
			perGroup := int(sweep.MaxFactsAge / (2 * pace))
			t.Logf("%d closes, %d fresh reads, facts at most %s old, %d requests", len(res.Closed()), reads, oldest(ages), len(reqs))
			if len(res.Closed()) != due || !res.OK() {
				t.Fatalf("closed %d of %d (ok %v, failed %v)", len(res.Closed()), due, res.OK(), numbers(res.Failed()))
			}
			if want := int(math.Ceil(float64(due) / float64(perGroup))); reads != want {
				t.Errorf("%d fresh reads for %d closes, want %d: groups of %d", reads, due, want, perGroup)
			}
			if n := w.fake.CountBy()["GET /repos/{owner}/{repo}/pulls/{pull_number}"]; n != 0 {
				t.Errorf("%d REST reads of one PR, want none", n)
			}
			if len(ages) != 2*due || oldest(ages) > sweep.MaxFactsAge {
				t.Errorf("%d writes on fresh facts, the oldest %s old; want %d, none older than %s", len(ages), oldest(ages), 2*due, sweep.MaxFactsAge)
			}
		})
	}
}

// TestFreshReadThatProvesNothingKeepsThePR: a fresh read whose answer for
// the PR due to close cannot prove it unchanged since the listing (an error
// on it or on its timeline, null, no updatedAt, an error naming no part of
// the answer) leaves it untouched and failed, as a failed read does; the
// next run closes it.
func TestFreshReadThatProvesNothingKeepsThePR(t *testing.T) {
	t.Parallel()
	for name, fault := range map[string]func(n int) *fakegithub.Fault{
		"an error on it":           func(n int) *fakegithub.Fault { return fakegithub.PartialGraphQL(n, false) },
		"an error on its timeline": func(n int) *fakegithub.Fault { return fakegithub.PartialGraphQL(n, true) },
		"null":                     func(n int) *fakegithub.Fault { return fakegithub.MissingPRGraphQL(n) },
		"no updatedAt": func(n int) *fakegithub.Fault {
			return fakegithub.StatusFault(200, fmt.Sprintf(`{"data":{"viewer":{"login":"github-actions[bot]"},%s,"repository":{"f0":{`+
				`"number":%d,"state":"OPEN","isDraft":false,"locked":false,"updatedAt":null,"author":{"__typename":"User","login":"alice"},`+
				`"milestone":null,"labels":{"totalCount":1,"nodes":[{"name":"stale"}]},"assignees":{"totalCount":0,"nodes":[]},`+
				`"timelineItems":{"totalCount":0,"pageInfo":{"hasPreviousPage":false,"startCursor":null},"nodes":[]}}}}}`, gqlRate, n))
		},
		"an error naming no part": func(int) *fakegithub.Fault {
			return fakegithub.StatusFault(200, `{"data":null,"errors":[{"type":"INTERNAL","message":"unexpected"}]}`)
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			n := w.markedPR(31)
			var fired atomic.Bool
			w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
				if nowReadPRs(r) != nil && !fired.Swap(true) {
					return fault(n)
				}
				return nil
			})
			res := w.run(nil)
			if !fired.Load() {
				t.Fatal("no fresh read was sent")
			}
			if w.state(n) != "open" || w.notices(n, "close") != 0 || len(w.writesTo(n)) != 0 {
				t.Errorf("#%d %s, writes %v: want untouched", n, w.state(n), w.writesTo(n))
			}
			if !has(res.Failed(), n) || res.OK() {
				t.Errorf("failed %v, ok %v: want #%d failed and the run red", numbers(res.Failed()), res.OK(), n)
			}
			w.clock.Advance(time.Hour)
			if w.run(nil); w.state(n) != "closed" {
				t.Errorf("next run: #%d %s, want closed", n, w.state(n))
			}
		})
	}
}

// TestFreshFactsAfterASecondaryLimit: the group's size holds its facts
// within sweep.MaxFactsAge at the write pace asked; a secondary limit on
// the group's first close makes the run wait (60 s here) and then write at
// half the pace. The closes after it may not act on the facts read before
// the wait: a label a maintainer put on the third PR while the run waited
// stays on, and that PR is left for the next run; no write acts on facts
// older than sweep.MaxFactsAge.
func TestFreshFactsAfterASecondaryLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var prs []int
	for i := range 10 {
		prs = append(prs, w.markedPR(40-float64(i)))
	}
	third := prs[2]
	var fired atomic.Bool
	w.fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Route != routeCloseIssue || fired.Swap(true) {
			return nil
		}
		w.fake.Label(third, maint, w.now(), "needs-decision")
		return fakegithub.SecondaryRateLimit(403, 60)
	})
	w.fake.Reset()
	res := w.run(map[string]string{"write-interval": "1s"})
	if !fired.Load() {
		t.Fatal("no close was sent")
	}
	if got := w.labels(third); !slices.Contains(got, "needs-decision") || w.state(third) != "open" {
		t.Errorf("#%d %s, labels %v: the maintainer's label was added while the run waited; want it kept and the PR open", third, w.state(third), got)
	}
	ages, reads := factsAges(w.fake.Requests())
	t.Logf("%d closes, %d fresh reads, facts at most %s old", len(res.Closed()), reads, oldest(ages))
	if oldest(ages) > sweep.MaxFactsAge {
		t.Errorf("a write on facts %s old, want none older than %s", oldest(ages), sweep.MaxFactsAge)
	}
}
