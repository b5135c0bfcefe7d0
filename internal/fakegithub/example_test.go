package fakegithub_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

func Example() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	clock := fakegithub.NewClock(now)
	s := fakegithub.New(fakegithub.Options{Owner: "octo-org", Repo: "widgets", Token: "t", Clock: clock})
	alice := fakegithub.Person("alice")
	n := s.AddPR(fakegithub.Issue{Title: "Add widgets", User: alice, CreatedAt: now.AddDate(0, 0, -120)})
	s.Comment(n, alice, now.AddDate(0, 0, -100), "Ready for review")

	ts := httptest.NewServer(s)
	defer ts.Close()
	// A client would use ts.URL+"/api/v3/" as its base URL.
	clock.Advance(time.Hour)
	req, _ := http.NewRequest("POST", ts.URL+"/api/v3/repos/octo-org/widgets/issues/1/labels", strings.NewReader(`["stale"]`))
	req.Header.Set("Authorization", "Bearer t")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()

	pr := s.MustIssue(n)
	fmt.Println(res.StatusCode, pr.Labels, pr.UpdatedAt.Format(time.RFC3339))
	for _, e := range s.Events(n) {
		fmt.Println(e.Type, e.Label, e.Actor.Login)
	}
	fmt.Println(s.CountBy())
	// Output:
	// 200 [stale] 2025-06-01T13:00:00Z
	// labeled stale github-actions[bot]
	// map[POST /repos/{owner}/{repo}/issues/{issue_number}/labels:1]
}

// GraphQL from the same state: a page of open PRs with their timelines,
// the points it cost (in the answer, the headers and the request log), and
// a fault injected for the next query.
func Example_graphQL() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	s := fakegithub.New(fakegithub.Options{Clock: fakegithub.NewClock(now), GraphQLRateLimit: 1000})
	n := s.AddPR(fakegithub.Issue{User: fakegithub.Person("alice"), CreatedAt: now.AddDate(0, 0, -10)})
	s.Comment(n, fakegithub.Bot("dependabot[bot]"), now.AddDate(0, 0, -9), "Bump")
	ts := httptest.NewServer(s)
	defer ts.Close()

	post := func(query string) string {
		res, err := http.Post(ts.URL+"/graphql", "application/json", strings.NewReader(`{"query":`+strconv.Quote(query)+`}`))
		if err != nil {
			panic(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return fmt.Sprint(res.StatusCode, " ", res.Header.Get("X-Ratelimit-Remaining"), " ", string(b))
	}
	page := `query{rateLimit{cost remaining} repository(owner:"octo-org",name:"widgets"){pullRequests(states:[OPEN],first:100){` +
		`nodes{number timelineItems(last:100){nodes{__typename ...on IssueComment{author{__typename login}}}}}}}}`
	fmt.Println(post(page))
	s.InjectFault(fakegithub.FaultRule{Route: "POST /graphql", Fault: fakegithub.PartialGraphQL(n, true)})
	fmt.Println(post(page))
	for _, r := range s.Requests() {
		fmt.Printf("%s points %d fault %q\n", r.Route, r.Points, r.Fault)
	}
	// Output:
	// 200 999 {"data":{"rateLimit":{"cost":1,"remaining":999},"repository":{"pullRequests":{"nodes":[{"number":1,"timelineItems":{"nodes":[{"__typename":"IssueComment","author":{"__typename":"Bot","login":"dependabot"}}]}}]}}}}
	// 200 998 {"data":{"rateLimit":{"cost":1,"remaining":998},"repository":{"pullRequests":{"nodes":[null]}}},"errors":[{"path":["repository","pullRequests","nodes",0,"timelineItems"],"locations":[{"line":1,"column":128}],"message":"Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug."}]}
	// POST /graphql points 1 fault ""
	// POST /graphql points 1 fault "graphql partial"
}
