package fakegithub

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func daysAgo(d int) time.Time { return t0.AddDate(0, 0, -d) }

// rich builds a repository with every kind of item and event.
func rich(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	s := New(Options{Owner: "octo-org", Repo: "widgets", Token: "sekret", Clock: NewClock(t0)})
	alice, bob, bot := Person("alice"), Person("bob"), Bot("dependabot[bot]")
	s.AddMember("bob")
	s.defineLabel("bug", "d73a4a", "Something isn't working")

	// #1: an ordinary PR with a full timeline.
	n := s.AddPR(Issue{Title: "Add widget polishing", User: alice, CreatedAt: daysAgo(60), Labels: []string{"bug"},
		Milestone: "v1.0", Assignees: []string{"bob"}, RequestedReviewers: []string{"carol"}, RequestedTeams: []string{"core"},
		HeadRef: "feature/polish", Body: "Polishes widgets."})
	s.Push(n, "Alice Doe", daysAgo(59), "Polish widgets")
	s.Comment(n, bob, daysAgo(58), "Looks good, one nit.")
	s.Review(n, bob, daysAgo(57), "CHANGES_REQUESTED", "Please rename.")
	s.LineComment(n, bob, daysAgo(57), "widget.go", "Rename this.")
	s.ForcePush(n, alice, daysAgo(56))
	s.Rename(n, alice, daysAgo(56), "Add widget polishing (v2)")
	s.RequestReview(n, alice, daysAgo(55), "dave")
	s.RequestReview(n, alice, daysAgo(55), "team:docs")
	s.RemoveReviewRequest(n, alice, daysAgo(55), "dave")
	s.Label(n, bob, daysAgo(54), "needs-review")
	s.Unlabel(n, bob, daysAgo(53), "needs-review")
	s.Comment(n, bot, daysAgo(52), "Bumps deps.")

	// #2: a draft from a fork.
	s.AddPR(Issue{Title: "WIP: fork change", User: Person("mallory"), CreatedAt: daysAgo(200), Draft: true,
		HeadRepo: "mallory/widgets", HeadRef: "main"})
	// #3: a plain issue, closed and reopened.
	n3 := s.AddIssue(Issue{Title: "Widgets squeak", User: bob, CreatedAt: daysAgo(300)})
	s.Close(n3, bob, daysAgo(250), "not_planned")
	s.Reopen(n3, alice, daysAgo(240))
	// #4: a merged PR.
	n4 := s.AddPR(Issue{Title: "Merged one", User: alice, CreatedAt: daysAgo(30)})
	s.Merge(n4, bob, daysAgo(29))
	// #5: a draft made ready.
	n5 := s.AddPR(Issue{Title: "Ready later", User: alice, CreatedAt: daysAgo(20), Draft: true})
	s.ReadyForReview(n5, alice, daysAgo(19))
	// #6: a PR whose fork was deleted.
	s.AddPR(Issue{Title: "Orphan", User: Person("ghost"), CreatedAt: daysAgo(400), HeadRepo: "ghost/widgets", HeadRepoDeleted: true})

	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// do sends a request with the fixture token.
func do(t *testing.T, ts *httptest.Server, method, path, body string) resp {
	t.Helper()
	return doAuth(t, ts, method, path, body, "Bearer sekret")
}

func doAuth(t *testing.T, ts *httptest.Server, method, path, body, auth string) resp {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading: %v", method, path, err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}
