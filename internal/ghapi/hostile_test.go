package ghapi_test

// Answers a misbehaving server gives: each is a failed read of
// that PR or listing, refused cleanly, never a crash, a run-wide budget sink
// or a leak of the token.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

const hostileToken = "ghs_hostileTestToken0123456789"

// hostile serves fake, which requires hostileToken, to a client whose clock is
// clock (nil: the fake's own).
func hostile(t *testing.T, fake *fakegithub.Server, lim ghapi.Limits, clock ghapi.Clock) *ghapi.Client {
	t.Helper()
	fake.SetToken(hostileToken)
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	if clock == nil {
		clock = fake.Clock()
	}
	c, err := ghapi.New(ghapi.Options{Token: hostileToken, APIURL: ts.URL + "/api/v3", Owner: fake.Owner(), Repo: fake.Repo(), Clock: clock, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// page answers every matching request with body and, when next > 0, a Link
// to that page.
func page(fake *fakegithub.Server, route, body string, next int) {
	method := "GET"
	if route == routeGraphQL {
		method = "POST"
	}
	fake.InjectFault(fakegithub.FaultRule{Method: method, Route: route, Times: -1, Fault: fakegithub.LinkPage(body, next)})
}

// array is a JSON array of n copies of item.
func array(n int, item string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

const (
	routeIssues   = "/repos/{owner}/{repo}/issues"
	routeGraphQL  = "/graphql"
	routeComments = "/repos/{owner}/{repo}/issues/{issue_number}/comments"
	routeRepoComm = "/repos/{owner}/{repo}/issues/comments"
	routeInstall  = "/installation/repositories"
	routeLabels   = "/repos/{owner}/{repo}/issues/{issue_number}/labels"
)

// reads are the listings, each read as one call.
var reads = []struct {
	name, route string
	wrap        func(items string) string // the page's JSON from its items' array
	call        func(context.Context, *ghapi.Client) error
}{
	{"issues", routeIssues, nil, func(ctx context.Context, c *ghapi.Client) error {
		_, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1)
		return err
	}},
	{"open pulls", routeGraphQL, func(items string) string {
		return `{"data":{"viewer":{"login":"x"},"rateLimit":null,"repository":{"pullRequests":{"totalCount":1,` +
			`"pageInfo":{"hasNextPage":false,"endCursor":""},"nodes":` + items + `}}}}`
	}, func(ctx context.Context, c *ghapi.Client) error {
		_, _, err := c.OpenPulls(ctx, sweep.Query{State: "open"}, "")
		return err
	}},
	{"PR comments", routeComments, nil, func(ctx context.Context, c *ghapi.Client) error {
		_, err := c.PRComments(ctx, 1, time.Time{})
		return err
	}},
	{"read-back", routeRepoComm, nil, func(ctx context.Context, c *ghapi.Client) error {
		_, err := c.RecentComments(ctx, time.Time{})
		return err
	}},
	{"installation repositories", routeInstall, func(items string) string {
		return `{"total_count":1,"repositories":` + items + `}`
	}, func(ctx context.Context, c *ghapi.Client) error {
		_, err := ghapi.FleetOf(c).ListRepositories(ctx, "octo-org", ghapi.RepoListOptions{})
		return err
	}},
}

// TestPageOfTinyObjectsIsRefused: under the byte cap, a page of millions of
// {} once took gigabytes to decode. A page holding more items than asked
// for, or more JSON values than a real page can, is refused unread.
func TestPageOfTinyObjectsIsRefused(t *testing.T) {
	t.Parallel()
	for i, r := range reads {
		for what, items := range map[string]string{
			"101 items for per_page=100": array(101, `{}`),
			"one item of 300,000 values": `[{"labels":` + array(300000, `{}`) + `,"comments":` + array(300000, `{}`) + `}]`,
		} {
			if testing.Short() && i > 0 && strings.HasPrefix(what, "one item") {
				continue // -short: the large page on one read; the others with the long tests
			}
			t.Run(r.name+"/"+what, func(t *testing.T) {
				t.Parallel()
				fake := newFake()
				c := hostile(t, fake, ghapi.Limits{MaxRequests: 50}, nil)
				body := items
				if r.wrap != nil {
					body = r.wrap(items)
				}
				page(fake, r.route, body, 0)
				err := r.call(context.Background(), c)
				if err == nil || api.IsStop(err) {
					t.Fatalf("err = %v, want a failed read (not a stop)", err)
				}
				if !strings.Contains(err.Error(), "malformed") {
					t.Errorf("err %q does not say the answer is malformed", err)
				}
				if n := fake.Count(); n != 1 {
					t.Errorf("%d requests, want 1: the same page would come again", n)
				}
			})
		}
	}
}

// TestErrorAnswerOfTinyObjectsIsRefused: an error answer is decoded too
// (go-github reads its "errors" into a slice, and its text lists them all),
// so its body has the same bounds as a page's: a 422 or a 502 of 300,000 {}
// fails as malformed, once, instead of gigabytes decoded into an error
// whose text is hundreds of MB.
func TestErrorAnswerOfTinyObjectsIsRefused(t *testing.T) {
	t.Parallel()
	body := `{"message":"Validation Failed","errors":` + array(300000, `{}`) + `}`
	for _, status := range []int{http.StatusUnprocessableEntity, http.StatusBadGateway} {
		fake := newFake()
		n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
		c := hostile(t, fake, ghapi.Limits{}, nil)
		fake.InjectFault(fakegithub.FaultRule{Route: routeLabels, Times: -1, Fault: fakegithub.StatusFault(status, body)})
		err := c.AddLabels(context.Background(), n, []string{"stale"})
		if err == nil || !strings.Contains(err.Error(), "malformed") || len(err.Error()) > 10_000 {
			t.Errorf("%d of 300,000 {}: err (%d bytes) %.300s; want a short malformed-answer error", status, len(fmt.Sprint(err)), fmt.Sprint(err))
		}
		if got := fake.Count(); got != 1 {
			t.Errorf("%d: %d requests, want 1: the same answer would come again", status, got)
		}
	}
}

// TestMalformedAnswerToACommentIsVerified: GitHub made the comment, but its
// answer is refused unread (malformed): the outcome is unknown, so the
// comment is looked for, found, and neither reported failed nor sent again.
func TestMalformedAnswerToACommentIsVerified(t *testing.T) {
	t.Parallel()
	fake := newFake()
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
	c := hostile(t, fake, ghapi.Limits{}, nil)
	fake.InjectFault(fakegithub.FaultRule{Method: "POST", Route: routeComments,
		Fault: &fakegithub.Fault{AfterWrite: true, Status: http.StatusCreated, Body: array(300000, `{}`)}})
	if err := c.PostComment(context.Background(), n, "hello"); err != nil {
		t.Errorf("PostComment = %.300v, want nil: the comment was made, and a read finds it", err)
	}
	if w := fake.Writes(); w != 1 {
		t.Errorf("%d writes, want the one comment", w)
	}
}

// TestRealPagesStillRead: the bounds take GitHub's heaviest real pages.
func TestRealPagesStillRead(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := hostile(t, fake, ghapi.Limits{}, nil)
	label := `{"id":1,"node_id":"LA_x","url":"https://api.github.com/repos/o/r/labels/x","name":"x","color":"fff","default":false,"description":"d"}`
	user := `{"login":"alice","id":1,"node_id":"U_x","avatar_url":"a","gravatar_id":"","url":"u","html_url":"h","followers_url":"f","following_url":"f","gists_url":"g","starred_url":"s","subscriptions_url":"s","organizations_url":"o","repos_url":"r","events_url":"e","received_events_url":"r","type":"User","site_admin":false}`
	issue := `{"number":1,"pull_request":{"url":"x"},"updated_at":"2026-01-01T00:00:00Z","user":` + user +
		`,"labels":` + array(100, label) + `,"assignees":` + array(10, user) + `}`
	page(fake, routeIssues, array(100, issue), 0)
	prs, _, err := c.ListPRs(context.Background(), sweep.Query{State: "open"}, 1)
	if err != nil || len(prs) != 100 {
		t.Fatalf("100 issues of 100 labels and 10 assignees: %d PRs, err %v", len(prs), err)
	}
}

// TestLinkLoopIsAFailedRead: a Link header pointing back to a page already
// read once took the whole budget; now it fails that one read at once.
func TestLinkLoopIsAFailedRead(t *testing.T) {
	t.Parallel()
	comment := `{"id":7,"issue_url":"https://api.github.com/repos/o/r/issues/1","body":"hi","user":{"login":"alice","type":"User"},` +
		`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`
	for _, r := range reads {
		if r.route == routeIssues || r.route == routeGraphQL {
			continue // paged by the sweep, whose listings end when a page links back
		}
		for _, next := range []int{1, 2} {
			t.Run(r.name+"/next page "+strconv.Itoa(next), func(t *testing.T) {
				t.Parallel()
				fake := newFake()
				c := hostile(t, fake, ghapi.Limits{MaxRequests: 500}, nil)
				items := "[" + comment + "]"
				if r.wrap != nil {
					items = r.wrap(`[{"full_name":"octo-org/x","owner":{"login":"octo-org"}}]`)
				}
				page(fake, r.route, items, next)
				err := r.call(context.Background(), c)
				if err == nil || api.IsStop(err) {
					t.Fatalf("err = %v after %d requests, want a failed read (not a stop)", err, fake.Count())
				}
				if !strings.Contains(err.Error(), "page") {
					t.Errorf("err %q does not say the pages loop", err)
				}
				if n := fake.Count(); n > 3 {
					t.Errorf("%d requests for a listing that loops, want at most 3", n)
				}
			})
		}
	}
}

// TestNullItemIsAFailedRead: a null in a listing once panicked the run.
func TestNullItemIsAFailedRead(t *testing.T) {
	t.Parallel()
	for _, r := range reads {
		if r.route == routeGraphQL {
			continue // a null PR of a GraphQL page is one GitHub failed to give: TestGraphQLPartialData
		}
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			fake := newFake()
			c := hostile(t, fake, ghapi.Limits{}, nil)
			items := `[null]`
			if r.wrap != nil {
				items = r.wrap(items)
			}
			page(fake, r.route, items, 0)
			err := r.call(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), "malformed") {
				t.Fatalf("err = %v, want the answer refused as malformed", err)
			}
		})
	}
}

// TestHugeRetryAfterStops: a Retry-After too large for a time.Duration once
// overflowed to a negative wait, retried at once.
func TestHugeRetryAfterStops(t *testing.T) {
	t.Parallel()
	for _, ra := range []string{"9223372037", "99999999999999999999999"} {
		t.Run(ra, func(t *testing.T) {
			t.Parallel()
			fake := newFake()
			c := hostile(t, fake, ghapi.Limits{}, nil)
			f := fakegithub.SecondaryRateLimit(http.StatusForbidden, 0)
			f.Header = http.Header{"Retry-After": {ra}}
			fake.InjectFault(fakegithub.FaultRule{Times: -1, Fault: f})
			before := fake.Clock().Now()
			err := c.AddLabels(context.Background(), 1, []string{"stale"})
			if !errors.Is(err, ghapi.ErrSecondary) || !api.IsStop(err) {
				t.Fatalf("err = %v, want a stop on the secondary limit", err)
			}
			if n := fake.Count(); n != 1 {
				t.Errorf("%d requests, want 1: GitHub asked for a wait longer than a run", n)
			}
			if waited := fake.Clock().Now().Sub(before); waited != 0 {
				t.Errorf("waited %s, want no wait", waited)
			}
			if strings.Contains(err.Error(), "wait -") {
				t.Errorf("err %q tells a negative wait", err)
			}
		})
	}
}

// TestOneLongRetryAfterIsNotRepeated: one long Retry-After once read
// "secondary rate limit hit repeatedly".
func TestOneLongRetryAfterIsNotRepeated(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := hostile(t, fake, ghapi.Limits{}, nil)
	fake.InjectFault(fakegithub.FaultRule{Fault: fakegithub.SecondaryRateLimit(http.StatusForbidden, 3600)})
	ctx := context.Background()
	err := c.AddLabels(ctx, 1, []string{"stale"})
	later := c.AddLabels(ctx, 2, []string{"stale"}) // refused: the run has stopped
	for _, e := range []error{err, later} {
		if !errors.Is(e, ghapi.ErrSecondary) {
			t.Fatalf("err = %v, want the secondary limit", e)
		}
		if strings.Contains(e.Error(), "repeatedly") || !strings.Contains(e.Error(), "1h0m0s") {
			t.Errorf("err %q: want GitHub's one request to wait 1h0m0s, not a repeated hit", e)
		}
	}
}

// TestReserveHoldsUnderClockSkew: with the runner's clock ahead of
// GitHub's, every reset time looks past; the reserve must hold anyway.
func TestReserveHoldsUnderClockSkew(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
	ahead := fakegithub.NewClock(t0.Add(3 * time.Hour))
	c := hostile(t, fake, ghapi.Limits{Reserve: 20}, ahead)
	fake.SetRateRemaining(15)
	ctx := context.Background()
	if _, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1); err != nil {
		t.Fatal(err)
	}
	err := c.AddLabels(ctx, 1, []string{"stale"})
	if !errors.Is(err, ghapi.ErrRateReserve) {
		t.Fatalf("err = %v, want the reserve to stop the write", err)
	}
	if w := fake.Writes(); w != 0 {
		t.Errorf("%d writes sent below the reserve", w)
	}
}

// TestPastResetIsNotTold: a reset time already past is not "used up until" it.
func TestPastResetIsNotTold(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := hostile(t, fake, ghapi.Limits{}, nil)
	past := t0.Add(-2 * time.Hour)
	fake.InjectFault(fakegithub.FaultRule{Fault: fakegithub.PrimaryRateLimit(http.StatusForbidden, past)})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{State: "open"}, 1)
	if !ghapi.IsRateLimited(err) {
		t.Fatalf("err = %v, want the rate limit", err)
	}
	if strings.Contains(err.Error(), "until "+past.Format(time.RFC3339)) || !strings.Contains(err.Error(), "clock") {
		t.Errorf("err %q: want the past reset time told as such (clocks differ), not as the time to wait for", err)
	}
}

// leaks are texts a hostile server puts in its messages.
const leakText = "token " + hostileToken + " at https://octo:hunter2@ghe.example.com \x1b]0;owned\x07\x1b[31mred\r\n::warning::x"

func checkClean(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: want an error", what)
	}
	s := err.Error()
	for _, bad := range []string{hostileToken, "hunter2", "\x1b", "\x07", "\r", "\n"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s: error %q holds %q", what, s, bad)
		}
	}
}

// TestGraphQLErrorTextIsRedacted: GraphQL's error messages are the server's
// text, printed in the PR's log line.
func TestGraphQLErrorTextIsRedacted(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := hostile(t, fake, ghapi.Limits{}, nil)
	body := `{"errors":[{"type":"UNPROCESSABLE","message":` + quote(leakText) + `}]}`
	fake.InjectFault(fakegithub.FaultRule{Route: "/graphql", Times: -1, Fault: fakegithub.StatusFault(http.StatusOK, body)})
	checkClean(t, "convert to draft", c.ConvertToDraft(context.Background(), "PR_x"))
}

// TestFleetListingErrorIsRedacted: the installation listing's 401 and 403.
func TestFleetListingErrorIsRedacted(t *testing.T) {
	t.Parallel()
	for _, st := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		fake := newFake()
		c := hostile(t, fake, ghapi.Limits{}, nil)
		fake.InjectFault(fakegithub.FaultRule{Route: routeInstall, Fault: fakegithub.StatusFault(st, `{"message":`+quote(leakText)+`}`)})
		_, err := ghapi.FleetOf(c).ListRepositories(context.Background(), "octo-org", ghapi.RepoListOptions{})
		checkClean(t, "list repositories "+strconv.Itoa(st), err)
	}
}

// TestServerMessagesAreRedacted: any message of the server in an error.
func TestServerMessagesAreRedacted(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := hostile(t, fake, ghapi.Limits{}, nil)
	fake.InjectFault(fakegithub.FaultRule{Route: routeGraphQL, Fault: fakegithub.StatusFault(http.StatusUnprocessableEntity, `{"message":`+quote(leakText)+`}`)})
	_, err := c.History(context.Background(), 1, "")
	checkClean(t, "history", err)
	fake.InjectFault(fakegithub.FaultRule{Route: routeGraphQL, Fault: fakegithub.StatusFault(http.StatusOK, `{"errors":[{"message":`+quote(leakText)+`}]}`)})
	_, _, err = c.OpenPulls(context.Background(), sweep.Query{}, "")
	checkClean(t, "open pulls", err)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
