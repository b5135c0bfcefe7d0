package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

const testToken = "ghs_secret"

func classOf(err error) Class {
	var p *Problem
	if errors.As(err, &p) {
		return p.Class
	}
	return ""
}

// checkExplained asserts the failure's class, that its message holds each of
// want, and that neither the message nor the error holds the token or
// go-github's raw JSON complaint.
func checkExplained(t *testing.T, err error, class Class, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want a %q failure", class)
	}
	if got := classOf(err); got != class {
		t.Fatalf("class %q, want %q (err: %v)", got, class, err)
	}
	msg := err.Error() // what the user reads
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message = %q\nwant it to mention %q", msg, w)
		}
	}
	if strings.Contains(msg, testToken) || strings.Contains(msg, "invalid character") {
		t.Errorf("message %q holds the token or a JSON decoding error", msg)
	}
}

func TestBadCredentials(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(401, map[string]string{"Content-Type": "application/json"},
		`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	checkExplained(t, err, BadCredentials, "401 Bad credentials", "repo-token", "GITHUB_TOKEN")
}

func TestRepositoryNotFoundOnTheListing(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(404, map[string]string{"Content-Type": "application/json"}, `{"message":"Not Found"}`))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	checkExplained(t, err, RepoNotFound, "o/r", "does not exist or this token cannot see it", "repository input")
	// GraphQL's word for it: 200, and a NOT_FOUND error on the repository.
	gql, _ := script(t, status(200, map[string]string{"Content-Type": "application/json"},
		`{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"message":"Could not resolve to a Repository with the name 'o/r'."}]}`))
	gc, _ := newTestClient(t, gql, Limits{})
	_, _, err = gc.OpenPulls(context.Background(), sweep.Query{}, "")
	checkExplained(t, err, RepoNotFound, "o/r", "does not exist or this token cannot see it")

	// On one pull request a 404 means "gone": not a missing repository,
	// and callers still see it as such.
	_, err = c.PullHead(context.Background(), 5)
	if classOf(err) != "" || !IsNotFound(err) {
		t.Fatalf("PullHead: class %q, IsNotFound %v; want an unclassified 404", classOf(err), IsNotFound(err))
	}
}

func TestMissingPermissionNamesThePermission(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(403, map[string]string{"Content-Type": "application/json", "X-RateLimit-Remaining": "800", "X-RateLimit-Limit": "1000"},
		`{"message":"Resource not accessible by integration"}`))
	// In a workflow, where the token's permissions are the workflow's.
	c, err := New(Options{Token: testToken, APIURL: srv.URL + "/api/v3", Owner: "o", Repo: "r",
		Clock: fakegithub.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)), Workflow: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		name string
		call func() error
		want []string
	}{
		{"label", func() error { return c.AddLabels(ctx, 1, []string{"stale"}) }, []string{"pull-requests: write", "issues: write"}},
		{"comment", func() error { return c.PostComment(ctx, 1, "hi") }, []string{"pull-requests: write", "issues: write"}},
		{"close", func() error { return c.Close(ctx, 1, nil) }, []string{"pull-requests: write", "issues: write"}},
		{"remove label", func() error { return c.RemoveLabel(ctx, 1, "stale") }, []string{"pull-requests: write"}},
		{"delete branch", func() error { return c.DeleteBranch(ctx, "feature") }, []string{"contents: write", "delete-branch"}},
		{"listing", func() error { _, _, err := c.ListPRs(ctx, sweep.Query{}, 1); return err }, []string{"pull-requests: write", "read"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			checkExplained(t, err, MissingPermission, append(tc.want, "Resource not accessible by integration")...)
			if tc.name != "delete branch" && strings.Contains(err.Error(), "contents: write") {
				t.Errorf("%s: %q names contents: write, which only branch deletion needs", tc.name, err)
			}
		})
	}
}

// failingDial answers every request with the error a dial returns.
type failingDial struct{ err error }

func (f failingDial) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

func TestUnreachableHostIsNamed(t *testing.T) {
	t.Parallel()
	t.Run("DNS failure", func(t *testing.T) {
		dnsErr := &net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Err: "no such host", Name: "ghes.example.invalid", IsNotFound: true}}
		c, err := New(Options{Token: testToken, APIURL: "https://ghes.example.invalid/api/v3", Owner: "o", Repo: "r",
			Clock: fakegithub.NewClock(time.Time{}), Base: failingDial{dnsErr}})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.ListPRs(context.Background(), sweep.Query{}, 1)
		checkExplained(t, err, Unreachable, "cannot resolve the host name ghes.example.invalid", "GITHUB_API_URL")
	})
	t.Run("connection refused", func(t *testing.T) {
		// A server started and stopped leaves a local port nobody listens on.
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		c, _ := newTestClient(t, srv, Limits{MaxRetries: 1})
		_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
		host := strings.TrimPrefix(srv.URL, "http://")
		checkExplained(t, err, Unreachable, "connection to "+host+" was refused", "GITHUB_API_URL")
	})
}

func TestHTMLAnswerMeansTheWebURL(t *testing.T) {
	t.Parallel()
	page := "<!DOCTYPE html>\n<html><head><title>GitHub</title></head><body>Sign in</body></html>"
	cases := []struct {
		name string
		h    http.HandlerFunc
	}{
		{"200 text/html", status(200, map[string]string{"Content-Type": "text/html; charset=utf-8"}, page)},
		{"200 without content type", status(200, map[string]string{"Content-Type": "application/octet-stream"}, "\n  "+page)},
		{"404 text/html", status(404, map[string]string{"Content-Type": "text/html"}, page)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := script(t, tc.h)
			c, _ := newTestClient(t, srv, Limits{})
			_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
			host := strings.TrimPrefix(srv.URL, "http://")
			checkExplained(t, err, NotTheAPI, host+" answered an HTML page", "API root", "/api/v3", "not the web address")
			if *n != 1 {
				t.Errorf("server saw %d requests, want 1: an HTML page is not retried", *n)
			}
		})
	}
}

func TestRateLimitTellsTheResetTime(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(403, map[string]string{
		"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800",
	}, `{"message":"API rate limit exceeded for installation ID 1."}`))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	checkExplained(t, err, RateLimited, "used up until 2100-01-01T00:00:00Z", "operations-per-run")
	if !api.IsStop(err) {
		t.Errorf("err %v: want a stop", err)
	}
	// Every later request is refused with the same reset time.
	err = c.AddLabels(context.Background(), 1, []string{"stale"})
	checkExplained(t, err, RateLimited, "2100-01-01T00:00:00Z")
}

func TestGoGitHubsRefusalTellsTheResetTime(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(200, map[string]string{
		"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "4102444800",
	}, `[]`))
	c, _ := newTestClient(t, srv, Limits{Reserve: -1})
	if _, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	checkExplained(t, err, RateLimited, "2100-01-01T00:00:00Z")
}

func TestSecondaryLimitIsExplained(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(403, map[string]string{"Retry-After": "3600"}, `{"message":"You have exceeded a secondary rate limit."}`))
	c, _ := newTestClient(t, srv, Limits{})
	err := c.AddLabels(context.Background(), 1, []string{"stale"})
	checkExplained(t, err, RateLimited, "secondary rate limit", "write-interval")
}

func TestUnclassifiedErrorsKeepTheirOperation(t *testing.T) {
	t.Parallel()
	// A status of no known class has no advice but keeps its operation.
	srv, _ := script(t, status(422, nil, `{"message":"Validation Failed"}`))
	c, _ := newTestClient(t, srv, Limits{MaxRetries: 1})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if classOf(err) != "" || !strings.Contains(err.Error(), "list pull requests (page 1)") || !strings.Contains(err.Error(), "422") {
		t.Errorf("error %q: want the plain error with its operation", err)
	}
}

func TestAPIURLWithCredentialsIsRefused(t *testing.T) {
	t.Parallel()
	for _, api := range []string{
		"https://octo:hunter2@ghe.example.com/api/v3",
		"https://ghp_tok3n@ghe.example.com/api/v3",
		"https://octo:hun%zzter2@ghe.example.com/api/v3", // does not parse
		"http:/octo:hunter2@ghe.example.com/api/v3",      // parsed as a path
		"http:///octo:hunter2@ghe.example.com/api/v3",
	} {
		_, err := New(Options{Token: testToken, APIURL: api, Owner: "o", Repo: "r", Clock: fakegithub.NewClock(time.Time{})})
		if err == nil {
			t.Fatalf("New(%q): want an error", api)
		}
		for _, secret := range []string{"octo", "hunter2", "hun%zzter2", "ghp_tok3n", testToken} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("New(%q): %q shows %q", api, err, secret)
			}
		}
		if !strings.Contains(err.Error(), "ghe.example.com") {
			t.Errorf("New(%q): %q does not name the host", api, err)
		}
	}
}

// recorder is a second host: it records each request's Authorization.
func recorder(t *testing.T) (*httptest.Server, *[]string) {
	t.Helper()
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		ok(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &auth
}

func TestRedirectToAnotherHostIsNotFollowed(t *testing.T) {
	t.Parallel()
	for _, code := range []int{301, 302, 303, 307, 308} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			other, seen := recorder(t)
			srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.URL+r.URL.RequestURI(), code)
			})
			c, _ := newTestClient(t, srv, Limits{})
			ctx := context.Background()
			_, _, err := c.ListPRs(ctx, sweep.Query{}, 1)
			otherHost := strings.TrimPrefix(other.URL, "http://")
			checkExplained(t, err, OffHostRedirect, otherHost, "GITHUB_API_URL")
			// A write too: a 307 or 308 would repeat it, body and all.
			err = c.AddLabels(ctx, 1, []string{"stale"})
			checkExplained(t, err, OffHostRedirect, otherHost)
			if len(*seen) != 0 {
				t.Fatalf("the other host got %d requests (Authorization %q), want none", len(*seen), *seen)
			}
		})
	}
}

func TestRedirectToAnotherSchemeOrPortIsNotFollowed(t *testing.T) {
	t.Parallel()
	// Same host name, other port: another origin, which may be another
	// service on the same machine.
	other, seen := recorder(t)
	srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
		u, _ := url.Parse(other.URL)
		u.Path = r.URL.Path
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if classOf(err) != OffHostRedirect || len(*seen) != 0 {
		t.Fatalf("err %v, other port saw %d requests; want the redirect refused", err, len(*seen))
	}
}

func TestRedirectOnTheSameHostIsFollowedWithTheToken(t *testing.T) {
	t.Parallel()
	var auth []string
	srv, _ := script(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/repos/o/r/") {
			// GitHub's answer for a renamed repository.
			http.Redirect(w, r, "/api/v3/repositories/42/issues?"+r.URL.RawQuery, http.StatusMovedPermanently)
			return
		}
		auth = append(auth, r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"number":7,"pull_request":{"url":"x"},"updated_at":"2026-01-01T00:00:00Z"}]`))
	})
	c, _ := newTestClient(t, srv, Limits{})
	prs, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	if err != nil {
		t.Fatalf("err = %v, want the redirect followed", err)
	}
	if len(prs) != 1 || prs[0].Number != 7 {
		t.Fatalf("prs = %+v, want #7 from the new location", prs)
	}
	if len(auth) != 1 || auth[0] != "Bearer "+testToken {
		t.Fatalf("Authorization at the new location: %q, want the token", auth)
	}
}

func TestEveryCallIsExplained(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(401, map[string]string{"Content-Type": "application/json"}, `{"message":"Bad credentials"}`))
	c, _ := newTestClient(t, srv, Limits{})
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"Viewer":         func() error { _, err := c.Viewer(ctx); return err },
		"BranchInUse":    func() error { _, err := c.BranchInUse(ctx, "feature"); return err },
		"BranchHead":     func() error { _, _, err := c.BranchHead(ctx, "feature"); return err },
		"RecentComments": func() error { _, err := c.RecentComments(ctx, c.clock.Now()); return err },
		"History":        func() error { _, err := c.History(ctx, 1, ""); return err },
		"OpenPulls":      func() error { _, _, err := c.OpenPulls(ctx, sweep.Query{}, ""); return err },
		"PRComments":     func() error { _, err := c.PRComments(ctx, 1, c.clock.Now()); return err },
		"RepoFile":       func() error { _, _, err := FleetOf(c).RepoFile(ctx, ".github/stalepr.yml"); return err },
		"ConvertToDraft": func() error { return c.ConvertToDraft(ctx, "PR_1") },
	} {
		if got := classOf(call()); got != BadCredentials {
			t.Errorf("%s: class %q, want %q", name, got, BadCredentials)
		}
	}
}

// TestErrorsNeverCarryTheToken: a response body that echoes the token (a
// proxy's error page, a misconfigured server) is redacted in the error, and
// the error still unwraps to what it was.
func TestErrorsNeverCarryTheToken(t *testing.T) {
	const token = "ghp_secret0123456789abcdefSECRET"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprintf(w, `{"message":"bad request with Authorization: Bearer %s"}`, token)
	}))
	defer srv.Close()
	c, err := New(Options{Token: token, APIURL: srv.URL, Owner: "o", Repo: "r", Clock: fakegithub.NewClock(time.Now())})
	if err != nil {
		t.Fatal(err)
	}
	err = c.AddLabels(context.Background(), 1, []string{"stale"})
	if err == nil || strings.Contains(err.Error(), token) {
		t.Fatalf("error %v: want one without the token", err)
	}
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		t.Errorf("the redacted error no longer unwraps to GitHub's answer: %T", err)
	}
}

// TestServerErrorNamesWhatWasRetried: a 5xx left after the retries is named
// as GitHub's failure, with the request and how often it was sent, not in
// go-github's raw words ("GET http://…: 502 Server Error []").
func TestServerErrorNamesWhatWasRetried(t *testing.T) {
	t.Parallel()
	srv, n := script(t, status(502, map[string]string{"Content-Type": "application/json"}, `{"message":"Server Error"}`))
	c, _ := newTestClient(t, srv, Limits{MaxRetries: 2})
	_, _, err := c.ListPRs(context.Background(), sweep.Query{}, 1)
	checkExplained(t, err, ServerError, "list pull requests (page 1)", "GitHub answered 502 Bad Gateway",
		"GET /repos/{owner}/{repo}/issues", "(tried 3 times, with backoff)", "githubstatus.com")
	if *n != 3 {
		t.Errorf("server saw %d requests, want 3", *n)
	}
	if strings.Contains(err.Error(), srv.URL) || strings.Contains(err.Error(), "[]") {
		t.Errorf("message %q holds go-github's raw text", err)
	}

	// A write is retried as a read is, when sending it twice is harmless.
	srv, n = script(t, status(503, nil, ``))
	c, _ = newTestClient(t, srv, Limits{MaxRetries: 2})
	err = c.Close(context.Background(), 7, nil)
	checkExplained(t, err, ServerError, "close #7", "GitHub answered 503 Service Unavailable",
		"PATCH /repos/{owner}/{repo}/issues/{issue_number}", "(tried 3 times, with backoff)")
	if *n != 3 {
		t.Errorf("server saw %d requests, want 3 (a close is repeatable)", *n)
	}

	// 501 is the same answer every time: sent once, and said so.
	srv, n = script(t, status(501, nil, `{"message":"Not Implemented"}`))
	c, _ = newTestClient(t, srv, Limits{MaxRetries: 2})
	_, err = c.PullHead(context.Background(), 7)
	checkExplained(t, err, ServerError, "read #7", "GitHub answered 501 Not Implemented to GET /repos/{owner}/{repo}/pulls/{pull_number} (sent once")
	if *n != 1 {
		t.Errorf("server saw %d requests, want 1", *n)
	}
}

// TestMissingPermissionInATerminal: outside a workflow a 403 speaks of the
// token's scopes and fine-grained permissions, not of a workflow's
// permissions: block the person at a terminal does not have.
func TestMissingPermissionInATerminal(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(403, map[string]string{"Content-Type": "application/json", "X-RateLimit-Remaining": "800", "X-RateLimit-Limit": "1000"},
		`{"message":"Resource not accessible by personal access token"}`))
	ctx := context.Background()
	for _, workflow := range []bool{false, true} {
		clock := fakegithub.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		c, err := New(Options{Token: testToken, APIURL: srv.URL + "/api/v3", Owner: "o", Repo: "r", Clock: clock, Workflow: workflow})
		if err != nil {
			t.Fatal(err)
		}
		for name, call := range map[string]func() error{
			"label":         func() error { return c.AddLabels(ctx, 1, []string{"stale"}) },
			"listing":       func() error { _, _, err := c.ListPRs(ctx, sweep.Query{}, 1); return err },
			"delete branch": func() error { return c.DeleteBranch(ctx, "feature") },
			"file":          func() error { _, _, err := FleetOf(c).RepoFile(ctx, ".github/stalepr.yml"); return err },
		} {
			err := call()
			msg := err.Error()
			if name == "label" {
				// A write refused "by personal access token" speaks of that
				// token's permissions, in a workflow too (writeAdvice).
				checkExplained(t, err, MissingPermission, "fine-grained")
				continue
			}
			if workflow {
				checkExplained(t, err, MissingPermission, "permissions:")
				continue
			}
			checkExplained(t, err, MissingPermission, "fine-grained", "classic")
			if strings.Contains(msg, "permissions:") || strings.Contains(msg, "workflow") {
				t.Errorf("%s in a terminal: %q speaks of a workflow's permissions", name, msg)
			}
		}
	}
}

// TestGraphQL404MeansNoGraphQLAPI: GitHub answers a missing repository's
// query with 200 and NOT_FOUND, so a 404 from the GraphQL endpoint itself
// is no API there, not a missing repository.
func TestGraphQL404MeansNoGraphQLAPI(t *testing.T) {
	t.Parallel()
	srv, _ := script(t, status(404, map[string]string{"Content-Type": "application/json"}, `{"message":"Not Found"}`))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	checkExplained(t, err, NotTheAPI, "GraphQL API is not at "+srv.URL, "/api/graphql", "API root")
	if strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a 404 of the GraphQL endpoint is taken for a missing repository: %v", err)
	}
}
