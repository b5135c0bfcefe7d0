package fakegithub_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
