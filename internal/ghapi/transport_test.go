package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
	"github.com/stalepr/stalepr/internal/testenv"
)

// script answers the n-th request (0-based) with the n-th handler, then
// repeats the last one.
func script(t *testing.T, hs ...http.HandlerFunc) (*httptest.Server, *int) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := min(n, len(hs)-1)
		n++
		mu.Unlock()
		hs[i](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func ok(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("X-RateLimit-Limit", "1000")
	w.Header().Set("X-RateLimit-Remaining", "900")
	w.Header().Set("X-RateLimit-Reset", "4102444800")
	w.Write([]byte(`[]`))
}

func status(code int, hdr map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range hdr {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

// newTestClient is a client of srv whose waits only move the returned clock.
func newTestClient(t *testing.T, srv *httptest.Server, lim Limits) (*Client, *fakegithub.Clock) {
	t.Helper()
	clock := fakegithub.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	c, err := New(Options{Token: "ghs_secret", APIURL: srv.URL + "/api/v3", Owner: "o", Repo: "r", Limits: lim, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	c.t.jitter = func() float64 { return 0.5 }
	return c, clock
}

func TestDryRunRefusesWritesBeforeSending(t *testing.T) {
	t.Parallel()
	srv, n := script(t, ok)
	c, _ := newTestClient(t, srv, Limits{DryRun: true})
	err := c.AddLabels(context.Background(), 1, []string{"stale"})
	if !errors.Is(err, ErrDryRunWrite) {
		t.Fatalf("err = %v, want ErrDryRunWrite", err)
	}
	if *n != 0 {
		t.Fatalf("%d requests reached the server, want 0", *n)
	}
}

// TestRefusedWritesCountInADryRun: a dry run's refused writes spend
// operations-per-run as the real run's would, so the read the real run
// could not send is refused too, and a write past the budget meets the
// error the real one would; none reaches the server.
func TestRefusedWritesCountInADryRun(t *testing.T) {
	t.Parallel()
	srv, n := script(t, ok)
	c, _ := newTestClient(t, srv, Limits{DryRun: true, MaxRequests: 3})
	ctx := context.Background()
	if err := c.RefuseWrite(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if c.RequestsLeft() != 1 {
		t.Fatalf("left %d after 2 refused writes of 3, want 1", c.RequestsLeft())
	}
	if _, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1); !errors.Is(err, ErrBudget) {
		t.Fatalf("read past the budget: err = %v, want ErrBudget", err)
	}
	if err := c.RefuseWrite(ctx, 1); !errors.Is(err, ErrBudget) {
		t.Fatalf("write past the budget: err = %v, want ErrBudget", err)
	}
	if *n != 1 || c.Usage().Requests != 1 || c.Usage().Writes != 0 {
		t.Fatalf("server saw %d, usage %d (%d writes); want 1, 1, 0", *n, c.Usage().Requests, c.Usage().Writes)
	}
}

func TestBudgetCountsEveryRequest(t *testing.T) {
	t.Parallel()
	srv, n := script(t, ok)
	c, _ := newTestClient(t, srv, Limits{MaxRequests: 2})
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1); !errors.Is(err, ErrBudget) {
		t.Fatalf("third request: err = %v, want ErrBudget", err)
	}
	if *n != 2 || c.Usage().Requests != 2 || c.RequestsLeft() != 0 {
		t.Fatalf("server saw %d, usage %d, left %d; want 2, 2, 0", *n, c.Usage().Requests, c.RequestsLeft())
	}
}

func TestReserveStopsBeforeRunningDry(t *testing.T) {
	t.Parallel()
	srv, n := script(t, status(200, map[string]string{
		"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "100", "X-RateLimit-Reset": "4102444800",
	}, `[]`))
	c, _ := newTestClient(t, srv, Limits{Reserve: 100})
	ctx := context.Background()
	if _, _, err := c.ListPRs(ctx, sweep.Query{}, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ListPRs(ctx, sweep.Query{}, 1); !errors.Is(err, ErrRateReserve) {
		t.Fatalf("err = %v, want ErrRateReserve", err)
	}
	if *n != 1 {
		t.Fatalf("server saw %d requests, want 1", *n)
	}
}

func TestTransientFailuresAreRetriedWithBackoff(t *testing.T) {
	t.Parallel()
	srv, n := script(t,
		status(502, nil, `{"message":"Server Error"}`),
		status(503, nil, `{"message":"Service Unavailable"}`),
		ok)
	c, clock := newTestClient(t, srv, Limits{})
	if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
		t.Fatalf("err = %v, want success after retries", err)
	}
	if *n != 3 {
		t.Fatalf("server saw %d requests, want 3", *n)
	}
	if len(clock.Waits()) != 2 || clock.Waits()[1] <= clock.Waits()[0] {
		t.Fatalf("backoff waits %v, want two growing waits", clock.Waits())
	}
}

func TestRetriesAreBounded(t *testing.T) {
	t.Parallel()
	srv, n := script(t, status(500, nil, `{"message":"Server Error"}`))
	c, _ := newTestClient(t, srv, Limits{MaxRetries: 2})
	if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err == nil {
		t.Fatal("want an error after retries are exhausted")
	}
	if *n != 3 {
		t.Fatalf("server saw %d requests, want 1 + 2 retries", *n)
	}
}

func TestTruncatedBodyIsRetried(t *testing.T) {
	t.Parallel()
	srv, n := script(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`[{"number":`))
	}, ok)
	c, _ := newTestClient(t, srv, Limits{})
	if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
		t.Fatalf("err = %v, want success on retry", err)
	}
	if *n != 2 {
		t.Fatalf("server saw %d requests, want 2", *n)
	}
}

func TestPrimaryRateLimitStops(t *testing.T) {
	t.Parallel()
	for _, code := range []int{403, 429} {
		srv, n := script(t, status(code, map[string]string{
			"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800",
		}, `{"message":"API rate limit exceeded for installation ID 1."}`))
		c, _ := newTestClient(t, srv, Limits{})
		_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
		if !errors.Is(err, ErrRateLimited) || !api.IsStop(err) {
			t.Fatalf("%d: err = %v, want ErrRateLimited", code, err)
		}
		if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); !errors.Is(err, ErrRateLimited) || *n != 1 {
			t.Fatalf("%d: after the limit: err %v, %d requests; want no further request", code, err, *n)
		}
	}
}

func TestSecondaryRateLimitWaitsAndContinues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		h    http.HandlerFunc
		wait time.Duration
	}{
		{"403 retry-after", status(403, map[string]string{"Retry-After": "30"}, `{"message":"You have exceeded a secondary rate limit."}`), 30 * time.Second},
		{"429 retry-after", status(429, map[string]string{"Retry-After": "7"}, `{"message":"too many"}`), 7 * time.Second},
		{"403 message only", status(403, nil, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`), time.Minute},
		{"bare 429", status(429, nil, ``), time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := script(t, tc.h, ok)
			c, clock := newTestClient(t, srv, Limits{})
			if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
				t.Fatalf("err = %v, want success after waiting", err)
			}
			if *n != 2 || len(clock.Waits()) != 1 || clock.Waits()[0] != tc.wait {
				t.Fatalf("requests %d, waits %v; want 2 requests and one wait of %v", *n, clock.Waits(), tc.wait)
			}
		})
	}
}

func TestSecondaryWaitIsCappedAndRepeatedHitsStop(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(403, map[string]string{"Retry-After": "3600"}, `{"message":"You have exceeded a secondary rate limit."}`))
	c, clock := newTestClient(t, srv, Limits{MaxWait: time.Minute, MaxWaitTotal: 3 * time.Minute})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if !errors.Is(err, ErrSecondary) {
		t.Fatalf("err = %v, want ErrSecondary", err)
	}
	for _, d := range clock.Waits() {
		if d > time.Minute {
			t.Fatalf("waited %v, above the cap", d)
		}
	}
}

func TestPermissionErrorIsNotARateLimit(t *testing.T) {
	t.Parallel()
	srv, n := script(t, status(403, map[string]string{"X-RateLimit-Remaining": "800", "X-RateLimit-Limit": "1000"},
		`{"message":"Resource not accessible by integration"}`))
	c, _ := newTestClient(t, srv, Limits{})
	err := c.AddLabels(context.Background(), 1, []string{"stale"})
	if err == nil || api.IsStop(err) || *n != 1 {
		t.Fatalf("err = %v after %d requests; want one plain 403 error", err, *n)
	}
}

func TestWritesArePaced(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, ok)
	c, clock := newTestClient(t, srv, Limits{WriteInterval: time.Second})
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := c.RemoveLabel(ctx, 1, "stale"); err != nil {
			t.Fatal(err)
		}
	}
	if len(clock.Waits()) != 2 || clock.Waits()[0] != time.Second {
		t.Fatalf("waits %v, want 1s before the 2nd and 3rd write", clock.Waits())
	}
}

func TestRemoveLabelEscapesTheName(t *testing.T) {
	t.Parallel()
	var path string
	srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.EscapedPath()
		ok(w, r)
	})
	c, _ := newTestClient(t, srv, Limits{})
	if err := c.RemoveLabel(context.Background(), 7, "lifecycle/stale #1?"); err != nil {
		t.Fatal(err)
	}
	if want := "/api/v3/repos/o/r/issues/7/labels/lifecycle%2Fstale%20%231%3F"; path != want {
		t.Fatalf("path %q, want %q", path, want)
	}
}

func TestUnknownCommentOutcomeIsVerifiedNotReposted(t *testing.T) {
	t.Parallel()
	var posts int
	srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts++
			status(502, nil, `{"message":"Bad Gateway"}`)(w, r)
			return
		}
		w.Write([]byte(`[{"id":1,"body":"hello <!-- stalepr:stale -->","user":{"login":"github-actions[bot]","type":"Bot"},"created_at":"2026-11-29T12:00:00Z","updated_at":"2026-11-29T12:00:00Z"}]`))
	})
	c, _ := newTestClient(t, srv, Limits{})
	if err := c.PostComment(context.Background(), 3, "hello <!-- stalepr:stale -->"); err != nil {
		t.Fatalf("err = %v, want the comment found on verification", err)
	}
	if posts != 1 {
		t.Fatalf("posted %d times, want 1", posts)
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(401, nil, `{"message":"Bad credentials"}`))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if err == nil || strings.Contains(err.Error(), "ghs_secret") {
		t.Fatalf("err = %v: want an error without the token", err)
	}
}

func TestRoute(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/api/v3/repos/o/r/issues":                      "/repos/{owner}/{repo}/issues",
		"/repos/o/r/issues/12/comments":                 "/repos/{owner}/{repo}/issues/{issue_number}/comments",
		"/repos/o/r/issues/comments/99":                 "/repos/{owner}/{repo}/issues/comments/{comment_id}",
		"/repos/o/r/issues/12/labels/lifecycle%2Fstale": "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
		"/repos/o/r/git/refs/heads/feature/x":           "/repos/{owner}/{repo}/git/refs/{ref}",
		"/repos/o/r/git/ref/heads/feature/x":            "/repos/{owner}/{repo}/git/ref/{ref}",
		"/api/v3/rate_limit":                            "/rate_limit",
		"/repos/o/r/pulls/5":                            "/repos/{owner}/{repo}/pulls/{pull_number}",
	} {
		if got := routeOf(in); got != want {
			t.Errorf("Route(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlowAttemptTimesOutAndIsRetried(t *testing.T) {
	testenv.Long(t)
	t.Parallel()
	srv, n := script(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}, ok)
	c, _ := newTestClient(t, srv, Limits{AttemptTimeout: 200 * time.Millisecond})
	if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
		t.Fatalf("err = %v, want success on the retry after a timed-out attempt", err)
	}
	if *n != 2 {
		t.Fatalf("server saw %d requests, want 2", *n)
	}
}

func TestGoGitHubsOwnRateLimitRefusalIsAStop(t *testing.T) {
	t.Parallel()
	srv, n := script(t, status(200, map[string]string{
		"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800",
	}, `[]`))
	c, _ := newTestClient(t, srv, Limits{Reserve: -1})
	ctx := context.Background()
	if _, _, err := c.ListPRs(ctx, sweep.Query{}, 1); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.ListPRs(ctx, sweep.Query{}, 1)
	if err == nil || !api.IsStop(err) || !IsRateLimited(err) || *n != 1 {
		t.Fatalf("err = %v after %d requests: want a rate-limit stop without a second request", err, *n)
	}
}

func TestAPIURLIsTakenAsItIs(t *testing.T) {
	t.Parallel()
	for _, root := range []string{"", "/api/v3", "/github/api"} {
		var path string
		srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
			path = r.URL.Path
			ok(w, r)
		})
		c, err := New(Options{APIURL: srv.URL + root, Owner: "o", Repo: "r", Clock: fakegithub.NewClock(time.Time{})})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
			t.Fatal(err)
		}
		if want := root + "/repos/o/r/issues"; path != want {
			t.Errorf("GITHUB_API_URL %q: request to %q, want %q", srv.URL+root, path, want)
		}
	}
}

// TestSecondaryLimitsSlowTheWritePace: GitHub asks a client that hit a
// secondary limit to slow down; the run goes on at a slower pace instead of
// stopping after a few hits.
func TestSecondaryLimitsSlowTheWritePace(t *testing.T) {
	t.Parallel()
	limited := status(403, map[string]string{"Retry-After": "5"}, `{"message":"You have exceeded a secondary rate limit."}`)
	var steps []http.HandlerFunc
	for i := 0; i < 6; i++ {
		steps = append(steps, limited, ok)
	}
	srv, n := script(t, steps...)
	var logged []string
	c, _ := newTestClient(t, srv, Limits{Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	for i := 0; i < 6; i++ {
		if err := c.AddLabels(context.Background(), i+1, []string{"stale"}); err != nil {
			t.Fatalf("write %d after a secondary limit: %v (the run must go on, slower)", i+1, err)
		}
	}
	if *n != 12 {
		t.Fatalf("%d requests, want 12 (each write refused once, then accepted)", *n)
	}
	if len(logged) == 0 || !strings.Contains(logged[0], "secondary rate limit") {
		t.Fatalf("log = %q, want a line saying the pace slows", logged)
	}
	if got := c.t.interval; got < 8*time.Second {
		t.Fatalf("write interval after 6 hits = %v, want it slowed (doubling from 1s)", got)
	}
}

// A dry run sends the viewer query only when the body is exactly it: a body
// that holds the query and a mutation as well (a second JSON value after it,
// or a key given twice, which parsers resolve differently) is a write and
// never reaches the server.
func TestDryRunViewerQueryIsTheExactBody(t *testing.T) {
	t.Parallel()
	viewer := `{"query":"query { viewer { login } }"}`
	mutation := `mutation { closePullRequest(input: {pullRequestId: \"X\"}) { clientMutationId } }`
	for _, body := range []string{
		viewer + `{"query":"` + mutation + `"}`,
		viewer + "\n" + `{"query":"` + mutation + `"}`,
		`{"query":"` + mutation + `","query":"query { viewer { login } }"}`,
	} {
		srv, n := script(t, ok)
		c, _ := newTestClient(t, srv, Limits{DryRun: true})
		req, err := http.NewRequest(http.MethodPost, c.gqlURL, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.gh.Client().Do(req)
		if !errors.Is(err, ErrDryRunWrite) || *n != 0 {
			t.Errorf("body %s: err %v, %d requests reached the server; want ErrDryRunWrite and none", body, err, *n)
		}
	}
	// The body the client sends is still taken for the read it is.
	srv, n := script(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":{"viewer":{"login":"me"}}}`)
	})
	c, _ := newTestClient(t, srv, Limits{DryRun: true})
	if login, err := c.Viewer(context.Background()); err != nil || login != "me" || *n != 1 {
		t.Errorf("Viewer in a dry run = %q, %v after %d requests; want me in one", login, err, *n)
	}
}

func TestGraphQLRateLimitHeadersDoNotMoveTheReserve(t *testing.T) {
	t.Parallel()
	tr := newTransport(nil, Limits{Reserve: 100}, fakegithub.NewClock(time.Time{}))
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "5000")
	h.Set("X-RateLimit-Remaining", "900")
	h.Set("X-RateLimit-Resource", "core")
	tr.observe(h)
	h.Set("X-RateLimit-Remaining", "50")
	h.Set("X-RateLimit-Resource", "graphql")
	tr.observe(h)
	if err := tr.admit(false, false); err != nil || tr.usage().RateRemaining != 900 {
		t.Errorf("after a GraphQL answer: admit %v, remaining %d; want the REST reading 900 kept", err, tr.usage().RateRemaining)
	}
}

// A request that may use the reserve goes below
// rate-limit-reserve, never past the window's last request, never after a
// stop, and never past operations-per-run.
func TestMayUseReserveFloors(t *testing.T) {
	t.Parallel()
	clock := fakegithub.NewClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	reading := func(tr *transport, remaining string) {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", "1000")
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset", "1900000000")
		tr.observe(h)
	}
	tr := newTransport(nil, Limits{Reserve: 100, MaxRequests: 10}, clock)
	reading(tr, "50")
	if err := tr.admit(false, false); !errors.Is(err, ErrRateReserve) {
		t.Errorf("50 left, reserve 100: admit %v, want the reserve reached", err)
	}
	if err := tr.admit(true, false); err != nil {
		t.Errorf("50 left, may use the reserve: admit %v, want admitted", err)
	}
	reading(tr, "0")
	if err := tr.admit(true, false); !errors.Is(err, ErrRateReserve) {
		t.Errorf("0 left: admit %v, want refused", err)
	}
	reading(tr, "50")
	tr.used = 10
	if err := tr.admit(true, false); !errors.Is(err, ErrBudget) {
		t.Errorf("operations-per-run spent: admit %v, want ErrBudget", err)
	}
	tr.used = 0
	tr.stop(ErrSecondary)
	if err := tr.admit(true, false); !errors.Is(err, ErrSecondary) {
		t.Errorf("after a stop: admit %v, want the stop", err)
	}
}
