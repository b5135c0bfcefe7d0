package ghapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// gqlPR is one pull request node as GitHub's GraphQL answers it, with one
// comment in its history.
func gqlPR(n int) string {
	return fmt.Sprintf(`{"id":"PR_%d","number":%d,"title":"t","url":"u","createdAt":"2026-01-01T00:00:00Z",`+
		`"updatedAt":"2026-02-01T00:00:00Z","isDraft":false,"locked":false,"author":{"__typename":"Bot","login":"dependabot"},`+
		`"authorAssociation":"NONE","milestone":null,"headRefOid":"abc","mergeable":"MERGEABLE","reviewDecision":null,`+
		`"labels":{"totalCount":1,"nodes":[{"name":"stale"}]},"timelineItems":{"pageInfo":{"hasPreviousPage":false,"startCursor":"c0"},`+
		`"nodes":[{"__typename":"IssueComment","databaseId":7,"author":{"__typename":"User","login":"alice"},`+
		`"authorAssociation":"CONTRIBUTOR","body":"hi","createdAt":"2026-01-15T00:00:00Z"}]}}`, n, n)
}

func gqlPage(nodes ...string) string {
	return `{"data":{"viewer":{"login":"github-actions[bot]"},"rateLimit":{"cost":1,"limit":1000,"remaining":990,"resetAt":"2026-11-29T13:00:00Z"},` +
		`"repository":{"pullRequests":{"totalCount":` + fmt.Sprint(len(nodes)) + `,"pageInfo":{"hasNextPage":false,"endCursor":"e"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `]}}}}`
}

// firsts records the page size each query asked for.
type firsts struct {
	mu sync.Mutex
	n  []int
}

func (f *firsts) record(r *http.Request) {
	var body struct {
		Variables struct {
			First int `json:"first"`
		} `json:"variables"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	f.mu.Lock()
	f.n = append(f.n, body.Variables.First)
	f.mu.Unlock()
}

func answer(f *firsts, code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.record(r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

const timeoutAnswer = `{"data":null,"errors":[{"message":"Something went wrong while executing your query. ` +
	`This may be the result of a timeout, or it could be a GitHub bug. Please include ` + "`ABCD:1234`" + ` when reporting this issue."}]}`

// A page GitHub cannot answer in time is asked again at half the size,
// and the run goes on at that size; nothing of the failed answer is read.
func TestGraphQLTimeoutHalvesThePage(t *testing.T) {
	t.Parallel()
	for name, fail := range map[string]func(*firsts) http.HandlerFunc{
		"timeout error": func(f *firsts) http.HandlerFunc { return answer(f, 200, timeoutAnswer) },
		"502":           func(f *firsts) http.HandlerFunc { return answer(f, 502, `{"message":"Server Error"}`) },
		"504":           func(f *firsts) http.HandlerFunc { return answer(f, 504, `<html>gateway</html>`) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var f firsts
			srv, n := script(t, fail(&f), fail(&f), answer(&f, 200, gqlPage(gqlPR(1))), answer(&f, 200, gqlPage(gqlPR(2))))
			c, _ := newTestClient(t, srv, Limits{})
			listed, pg, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
			if err != nil || len(listed) != 1 || listed[0].PR.Number != 1 {
				t.Fatalf("listed %v, err %v; want PR 1 after halving", listed, err)
			}
			if pg.Total != 1 || pg.After != "" {
				t.Errorf("page %+v, want total 1 and no next page", pg)
			}
			if _, _, err := c.OpenPulls(context.Background(), sweep.Query{}, ""); err != nil {
				t.Fatal(err)
			}
			want := []int{74, 37, 18, 18}
			if fmt.Sprint(f.n) != fmt.Sprint(want) || *n != 4 {
				t.Errorf("page sizes asked %v in %d requests, want %v: halved on each failure, kept after", f.n, *n, want)
			}
		})
	}
}

// Down to one PR a page; when that fails too the listing fails (the PRs not
// listed are left for the next run), it is not a stop.
func TestGraphQLTimeoutAtOnePRFailsTheListing(t *testing.T) {
	t.Parallel()
	var f firsts
	srv, n := script(t, answer(&f, 200, timeoutAnswer))
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if err == nil || api.IsStop(err) {
		t.Fatalf("err = %v, want a failed listing, not a stop", err)
	}
	if got := f.n[len(f.n)-1]; got != 1 || *n != 7 {
		t.Errorf("last page size %d after %d requests (%v), want 1 after 7 (74 halved down to 1)", got, *n, f.n)
	}
}

// A PR whose part of the answer is in error is listed with Err and never
// decided; one GitHub gave as null is counted unread; the others are read.
func TestGraphQLPartialData(t *testing.T) {
	t.Parallel()
	body := `{"data":{"viewer":{"login":"github-actions[bot]"},"rateLimit":null,"repository":{"pullRequests":{"totalCount":3,` +
		`"pageInfo":{"hasNextPage":false,"endCursor":"e"},"nodes":[` + gqlPR(1) + `,null,` + gqlPR(3) + `]}}},` +
		`"errors":[{"type":"SERVICE_UNAVAILABLE","message":"timeline unavailable","path":["repository","pullRequests","nodes",1,"timelineItems"]},` +
		`{"message":"labels unavailable","path":["repository","pullRequests","nodes",2,"labels"]}]}`
	var f firsts
	srv, _ := script(t, answer(&f, 200, body))
	c, _ := newTestClient(t, srv, Limits{})
	listed, pg, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if pg.Unread != 1 || len(listed) != 2 {
		t.Fatalf("unread %d, listed %d; want the null PR unread and two listed", pg.Unread, len(listed))
	}
	if listed[0].Err != nil {
		t.Errorf("#1: err %v, want it read", listed[0].Err)
	}
	if listed[1].PR.Number != 3 || listed[1].Err == nil || !strings.Contains(listed[1].Err.Error(), "untouched") {
		t.Errorf("#3: %+v, want its error to leave it untouched", listed[1])
	}
}

// RATE_LIMITED (older answers) and RATE_LIMIT / graphql_rate_limit (recent
// ones) stop the run like REST's limit: no further request of any kind.
func TestGraphQLRateLimitedStops(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"RATE_LIMITED": `{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for installation ID 1."}]}`,
		"RATE_LIMIT":   `{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":"API rate limit already exceeded for installation ID 1."}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var f firsts
			srv, n := script(t, answer(&f, 200, body), ok)
			c, _ := newTestClient(t, srv, Limits{})
			_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
			if !errors.Is(err, api.RateLimit) {
				t.Fatalf("err = %v, want the run stopped on the rate limit", err)
			}
			if err := c.AddLabels(context.Background(), 1, []string{"x"}); !errors.Is(err, api.RateLimit) || *n != 1 {
				t.Errorf("after it: err %v, %d requests; want refused unsent", err, *n)
			}
		})
	}
}

// A 403 whose headers say the GraphQL points are spent stops the run and
// says which bucket, with its own reset.
func TestGraphQLPointsSpent403Stops(t *testing.T) {
	t.Parallel()
	srv, n := script(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-RateLimit-Resource", "graphql")
		w.Header().Set("X-RateLimit-Limit", "1000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "4102444800")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"errors":[{"type":"RATE_LIMIT","code":"graphql_rate_limit","message":"API rate limit already exceeded"}]}`)
	}, ok)
	c, _ := newTestClient(t, srv, Limits{})
	_, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if !errors.Is(err, api.RateLimit) || !strings.Contains(err.Error(), "GraphQL rate limit (points)") || !strings.Contains(err.Error(), "2100") {
		t.Fatalf("err = %v, want a stop on the GraphQL points, resetting in 2100", err)
	}
	if *n != 1 {
		t.Errorf("%d requests, want 1", *n)
	}
}

// A Bot's GraphQL login has no "[bot]" suffix: the client gives REST's.
func TestGraphQLBotLoginsAsREST(t *testing.T) {
	t.Parallel()
	var f firsts
	srv, _ := script(t, answer(&f, 200, gqlPage(gqlPR(1))))
	c, _ := newTestClient(t, srv, Limits{})
	listed, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if err != nil {
		t.Fatal(err)
	}
	pr := listed[0].PR
	if pr.Author != "dependabot[bot]" || !pr.AuthorBot || !pr.HasLabel("stale") {
		t.Errorf("PR %+v, want dependabot[bot], a bot, labelled stale", pr)
	}
	if h := listed[0].History; len(h) != 1 || h[0].Kind != lifecycle.Commented || h[0].Actor != "alice" || h[0].CommentID != 7 {
		t.Errorf("history %+v, want alice's comment 7", h)
	}
	if got, _ := c.Viewer(context.Background()); got != "github-actions[bot]" {
		t.Errorf("viewer %q: the page's viewer answers it without a request", got)
	}
	if u := c.Usage(); u.Requests != 1 || u.Points != 1 || u.PointsRemaining != 990 || u.Queries != 1 {
		t.Errorf("usage %+v, want 1 request, 1 point, 990 left", u)
	}
}

// A dry run sends what ask sends (its documents are queries)
// and refuses every other GraphQL POST before it leaves, whatever its body
// says: the draft conversion's mutation, and a read that did not come from
// query.
func TestDryRunSendsOnlyQueries(t *testing.T) {
	t.Parallel()
	var f firsts
	srv, n := script(t, answer(&f, 200, gqlPage(gqlPR(1))))
	c, _ := newTestClient(t, srv, Limits{DryRun: true})
	ctx := context.Background()
	if _, _, err := c.OpenPulls(ctx, sweep.Query{}, ""); err != nil || *n != 1 {
		t.Fatalf("the listing's query: err %v after %d requests, want it sent", err, *n)
	}
	if err := c.ConvertToDraft(ctx, "PR_x"); !errors.Is(err, ErrDryRunWrite) {
		t.Errorf("convert to draft: err %v, want ErrDryRunWrite", err)
	}
	req, err := c.gh.NewRequest(http.MethodPost, c.gqlURL, map[string]string{"query": "query{viewer{login}}"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.gh.Do(ctx, req, nil); !errors.Is(err, ErrDryRunWrite) {
		t.Errorf("a GraphQL POST not sent by query: err %v, want ErrDryRunWrite", err)
	}
	if *n != 1 {
		t.Errorf("the server saw %d requests, want the listing's 1", *n)
	}
}

func TestGraphQLURL(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]string{
		"":                                    "https://api.github.com/graphql",
		"https://api.github.com":              "https://api.github.com/graphql",
		"https://ghe.example.com/api/v3":      "https://ghe.example.com/api/graphql",
		"https://ghe.example.com/api/v3/":     "https://ghe.example.com/api/graphql",
		"https://api.octo.ghe.com":            "https://api.octo.ghe.com/graphql",
		"http://127.0.0.1:8080/prefix/api/v3": "http://127.0.0.1:8080/prefix/api/graphql",
	} {
		c, err := New(Options{APIURL: api})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.gqlURL; got != want {
			t.Errorf("APIURL %q: GraphQL at %q, want %q", api, got, want)
		}
	}
}

// A PR's error text is GitHub's words: cleaned like every error of the
// client (the token hidden, control characters escaped).
func TestGraphQLPartialErrorTextIsCleaned(t *testing.T) {
	t.Parallel()
	body := `{"data":{"viewer":{"login":"x"},"rateLimit":null,"repository":{"pullRequests":{"totalCount":1,` +
		`"pageInfo":{"hasNextPage":false,"endCursor":"e"},"nodes":[` + gqlPR(1) + `]}}},` +
		`"errors":[{"message":"ghs_secret\u001b[31m","path":["repository","pullRequests","nodes",0,"labels"]}]}`
	var f firsts
	srv, _ := script(t, answer(&f, 200, body))
	c, _ := newTestClient(t, srv, Limits{})
	listed, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
	if err != nil || len(listed) != 1 || listed[0].Err == nil {
		t.Fatalf("listed %+v, err %v; want the PR with its error", listed, err)
	}
	if text := listed[0].Err.Error(); strings.Contains(text, "ghs_secret") || strings.Contains(text, "\x1b") {
		t.Errorf("error text not cleaned: %q", text)
	}
}
