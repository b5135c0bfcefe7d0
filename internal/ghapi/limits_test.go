package ghapi_test

// Pages that never end, answers too large to
// accept, the points reserve with a reset in the past, and pages that
// disagree about who the token is. Each through the HTTP path against the
// fake GitHub, counting the requests it logged.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// TestPointsReserveHoldsWithAResetInThePast: the runner's clock two hours
// ahead of GitHub's, so every rateLimit.resetAt and graphql x-ratelimit-reset
// is already past when read. The reading still holds until the next one, as
// REST's does: 101 points left and a reserve of 100 allow one query, not a
// second.
func TestPointsReserveHoldsWithAResetInThePast(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.AddPR(fakegithub.Issue{Title: "a PR", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-48 * time.Hour), UpdatedAt: t0.Add(-24 * time.Hour)})
	fake.SetGraphQLRateRemaining(101)
	ahead := fakegithub.NewClock(t0.Add(2 * time.Hour))
	c := hostile(t, fake, ghapi.Limits{Reserve: 100}, ahead)
	if _, _, err := c.OpenPulls(context.Background(), sweep.Query{}, ""); err != nil {
		t.Fatalf("first page: %v", err)
	}
	_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if !errors.Is(err, ghapi.ErrRateReserve) {
		t.Errorf("second page with 100 points left, reserve 100: err = %v, want the reserve reached", err)
	}
	if n := fake.Count(); n != 1 {
		t.Errorf("%d queries sent, want 1: the second would spend the reserve", n)
	}
	if left := fake.GraphQLRateRemaining(); left < 100 {
		t.Errorf("%d points left, want the reserve of 100 kept", left)
	}
}

// endlessHistory answers every read of a PR's history with a page of items
// (each of items a node) that says there is more, before a cursor never seen
// before, and a totalCount of total.
func endlessHistory(fake *fakegithub.Server, items []string, total int) {
	n := 0
	fake.SetFaultHook(func(r fakegithub.RequestInfo) *fakegithub.Fault {
		if r.Route != "POST /graphql" || !strings.Contains(r.Body, "pullRequest(number:") {
			return nil
		}
		n++
		return fakegithub.StatusFault(200, fmt.Sprintf(`{"data":{"rateLimit":{"cost":1,"limit":5000,"remaining":4000,"resetAt":"2026-03-02T11:00:00Z"},`+
			`"repository":{"pullRequest":{"timelineItems":{"totalCount":%d,"pageInfo":{"hasPreviousPage":true,"startCursor":"c%d"},"nodes":[%s]}}}}}`,
			total, n, strings.Join(items, ",")))
	})
}

// TestEndlessHistoryIsAFailedRead: a history whose pages never end, empty
// or full, fails that PR's read after a few requests (not the run's whole
// budget, and not a stop, which would end the run green).
func TestEndlessHistoryIsAFailedRead(t *testing.T) {
	t.Parallel()
	comment := `{"__typename":"IssueComment","databaseId":1,"author":{"__typename":"User","login":"bob"},"authorAssociation":"NONE","body":"hi","createdAt":"2026-01-01T00:00:00Z"}`
	full := make([]string, 100)
	for i := range full {
		full[i] = comment
	}
	for name, tc := range map[string]struct {
		items []string
		total int
		want  string
	}{
		"empty pages that say there is more": {nil, 1000, "empty"},
		"more pages than its totalCount":     {full, 150, "totalCount"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := newFake()
			c := hostile(t, fake, ghapi.Limits{MaxRequests: 500}, nil)
			endlessHistory(fake, tc.items, tc.total)
			_, err := c.History(context.Background(), 7, "c0")
			if err == nil || errors.Is(err, ghapi.ErrBudget) {
				t.Fatalf("err = %v, want a failed read of #7", err)
			}
			if !strings.Contains(err.Error(), "#7") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %q: want #7 and %q named", err, tc.want)
			}
			t.Logf("%d requests: %v", fake.Count(), err)
			if n := fake.Count(); n > 4 {
				t.Errorf("%d requests, want at most 4", n)
			}
		})
	}
}

// bigPRs adds prs pull requests, each with comments comments of size
// characters ("é", two bytes each in JSON).
func bigPRs(fake *fakegithub.Server, prs, comments, size int) {
	body := strings.Repeat("é", size)
	for i := range prs {
		n := fake.AddPR(fakegithub.Issue{Title: fmt.Sprint("PR ", i), User: fakegithub.Person("alice"),
			CreatedAt: t0.Add(-48 * time.Hour), UpdatedAt: t0.Add(-time.Duration(24+i) * time.Hour)})
		for j := range comments {
			fake.Comment(n, fakegithub.Person("bob"), t0.Add(-time.Duration(47*60-j)*time.Minute), body)
		}
	}
}

// listAll reads every page of the open pull requests: how many it listed.
func listAll(c *ghapi.Client) (int, error) {
	n := 0
	for after := ""; ; {
		listed, pg, err := c.OpenPulls(context.Background(), sweep.Query{}, after)
		if err != nil {
			return n, err
		}
		n += len(listed)
		if after = pg.After; after == "" {
			return n, nil
		}
	}
}

// TestTooLargePageIsAskedSmaller: a page of PRs whose comments make it
// larger than the client accepts is asked again at half the size, as a
// page GitHub could not answer in time is, until it fits: every PR is
// listed. One PR too large alone fails the listing at one PR a page, and
// the message names that cause, not GITHUB_API_URL.
func TestTooLargePageIsAskedSmaller(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		maxBody                 int64 // 0: the default, 32 MiB
		prs, comments, size     int
		long                    bool
		wantListed, wantQueries int
	}{
		// 74, 37, 18, 9, 4 too large (100 KB a PR), then 4 pages of 2.
		"pages of 100 KB PRs under a 256 KiB cap": {maxBody: 256 << 10, prs: 8, comments: 1, size: 50_000, wantListed: 8, wantQueries: 9},
		// 74, 37, 18, 9, 4, 2, 1: never fits.
		"one PR of 600 KB under a 256 KiB cap": {maxBody: 256 << 10, prs: 1, comments: 1, size: 300_000, wantQueries: 7},
		// 74, 37, 18, 9 too large (10 × 4 MiB), then pages of 4, 4, 2.
		"a 40 MiB page under the default cap": {prs: 10, comments: 32, size: 65_536, long: true, wantListed: 10, wantQueries: 7},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if tc.long {
				testenv.Long(t)
			}
			fake := newFake()
			bigPRs(fake, tc.prs, tc.comments, tc.size)
			c := hostile(t, fake, ghapi.Limits{MaxBody: tc.maxBody}, nil)
			n, err := listAll(c)
			t.Logf("%d queries, %d listed: %v", fake.Count(), n, err)
			if fake.Count() != tc.wantQueries {
				t.Errorf("%d queries, want %d", fake.Count(), tc.wantQueries)
			}
			if tc.wantListed > 0 && (err != nil || n != tc.wantListed) {
				t.Fatalf("listed %d, err %v; want all %d", n, err, tc.wantListed)
			}
			if tc.wantListed == 0 && (err == nil || !strings.Contains(err.Error(), "single pull request") || strings.Contains(err.Error(), "GITHUB_API_URL")) {
				t.Errorf("err = %v: want the single PR's size named as the cause, not GITHUB_API_URL", err)
			}
		})
	}
}
