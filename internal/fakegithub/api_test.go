package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const repoPath = "/api/v3/repos/octo-org/widgets"

func numbers(t *testing.T, r resp) []int {
	t.Helper()
	var items []struct {
		Number int `json:"number"`
	}
	r.json(t, &items)
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = it.Number
	}
	return out
}

var linkRE = regexp.MustCompile(`<([^>]+)>; rel="(\w+)"`)

func links(h string) (rels []string, urls map[string]string) {
	urls = map[string]string{}
	for _, m := range linkRE.FindAllStringSubmatch(h, -1) {
		rels = append(rels, m[2])
		urls[m[2]] = m[1]
	}
	return rels, urls
}

func plain(t *testing.T, n int) (*Server, *httptest.Server) {
	t.Helper()
	s := New(Options{Clock: NewClock(t0)})
	for i := 1; i <= n; i++ {
		s.AddPR(Issue{CreatedAt: daysAgo(100 - i), UpdatedAt: daysAgo(50 - i)})
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func TestLinkHeaderLikeGitHub(t *testing.T) {
	t.Parallel()
	_, ts := plain(t, 7)
	// GitHub's own rel order, from a recorded response.
	var rec []struct {
		Headers map[string]any `json:"headers"`
	}
	b, err := os.ReadFile("../../testdata/github-api/recorded/paginate-issues.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	wantRels := [][]string{}
	for _, r := range rec {
		rels, _ := links(r.Headers["link"].(string))
		wantRels = append(wantRels, rels)
	}
	// Recorded: page 1 of 5, pages 2-4, page 5.
	pages := map[int][]string{1: wantRels[0], 2: wantRels[1], 3: wantRels[4]}

	for page, want := range pages {
		got := do(t, ts, "GET", fmt.Sprintf("%s/issues?per_page=3&state=open&page=%d", repoPath, page), "")
		rels, urls := links(got.header.Get("Link"))
		if !slices.Equal(rels, want) {
			t.Errorf("page %d: rels %v, want GitHub's %v (Link %q)", page, rels, want, got.header.Get("Link"))
		}
		for rel, u := range urls {
			if !strings.HasPrefix(u, ts.URL+repoPath+"/issues?") || !strings.Contains(u, "per_page=3") || !strings.Contains(u, "state=open") {
				t.Errorf("page %d: %s URL %q lost the host, prefix or query", page, rel, u)
			}
		}
		if page == 1 && urls["last"] != ts.URL+repoPath+"/issues?page=3&per_page=3&state=open" {
			t.Errorf("last = %q", urls["last"])
		}
	}
	// One page only: no Link header.
	got := do(t, ts, "GET", repoPath+"/issues?per_page=100", "")
	if l := got.header.Get("Link"); l != "" {
		t.Errorf("single page has Link %q", l)
	}
}

func TestFollowLinksVisitsEveryIssueOnce(t *testing.T) {
	t.Parallel()
	_, ts := plain(t, 250)
	seen := map[int]int{}
	next := ts.URL + repoPath + "/issues?per_page=100&sort=updated&direction=asc"
	pages := 0
	for next != "" {
		got := do(t, ts, "GET", strings.TrimPrefix(next, ts.URL), "")
		for _, n := range numbers(t, got) {
			seen[n]++
		}
		_, urls := links(got.header.Get("Link"))
		next = urls["next"]
		pages++
	}
	if pages != 3 || len(seen) != 250 {
		t.Fatalf("pages %d, distinct %d", pages, len(seen))
	}
	for n, c := range seen {
		if c != 1 {
			t.Errorf("#%d seen %d times", n, c)
		}
	}
}

func TestOffsetPaginationMovesItemsLikeGitHub(t *testing.T) {
	t.Parallel()
	s, ts := plain(t, 4) // updated order asc: 1,2,3,4
	p1 := numbers(t, do(t, ts, "GET", repoPath+"/issues?sort=updated&direction=asc&per_page=2", ""))
	if !slices.Equal(p1, []int{1, 2}) {
		t.Fatalf("page 1 = %v", p1)
	}
	s.Clock().Advance(time.Minute)
	// Writing to #1 moves it to the end: page 2 now holds 4 and 1, and 3 is skipped.
	do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"x"}`)
	p2 := numbers(t, do(t, ts, "GET", repoPath+"/issues?sort=updated&direction=asc&per_page=2&page=2", ""))
	if !slices.Equal(p2, []int{4, 1}) {
		t.Fatalf("page 2 after a write = %v, want [4 1]", p2)
	}
}

func TestListIssuesFilters(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0)})
	a := s.AddPR(Issue{Labels: []string{"Stale", "bug"}, CreatedAt: daysAgo(10), UpdatedAt: daysAgo(5)})
	b := s.AddPR(Issue{Labels: []string{"stale"}, CreatedAt: daysAgo(9), UpdatedAt: daysAgo(1)})
	c := s.AddIssue(Issue{Labels: []string{"BUG"}, CreatedAt: daysAgo(8), UpdatedAt: daysAgo(3), Assignees: []string{"bob"}, Milestone: "v1"})
	d := s.AddPR(Issue{State: "closed", CreatedAt: daysAgo(7), UpdatedAt: daysAgo(2)})
	ts := httptest.NewServer(s)
	defer ts.Close()

	cases := []struct {
		query string
		want  []int
	}{
		{"", []int{c, b, a}}, // open only, created desc, issues and PRs
		{"?state=all", []int{d, c, b, a}},
		{"?state=closed", []int{d}},
		{"?labels=STALE", []int{b, a}},
		{"?labels=stale,BUG", []int{a}},
		{"?labels=bug", []int{c, a}},
		{"?sort=updated&direction=asc", []int{a, c, b}},
		{"?sort=updated", []int{b, c, a}},
		{"?since=" + daysAgo(3).Format(time.RFC3339), []int{c, b}}, // at or after
		{"?since=" + daysAgo(3).Add(time.Second).Format(time.RFC3339), []int{b}},
		{"?assignee=bob", []int{c}},
		{"?assignee=none", []int{b, a}},
		{"?milestone=1", []int{c}},
		{"?milestone=none&labels=stale", []int{b, a}},
	}
	for _, tc := range cases {
		got := do(t, ts, "GET", repoPath+"/issues"+tc.query, "")
		if got.status != 200 {
			t.Fatalf("%s: %d %s", tc.query, got.status, got.body)
		}
		if n := numbers(t, got); !slices.Equal(n, tc.want) {
			t.Errorf("issues%s = %v, want %v", tc.query, n, tc.want)
		}
	}
	var raw []map[string]any
	do(t, ts, "GET", repoPath+"/issues?state=all", "").json(t, &raw)
	for _, it := range raw {
		_, isPR := it["pull_request"]
		if n := int(it["number"].(float64)); isPR == (n == c) {
			t.Errorf("#%d: pull_request present = %v", n, isPR)
		}
	}
	if got := do(t, ts, "GET", repoPath+"/issues?state=bogus", ""); got.status != 422 {
		t.Errorf("bad state: %d", got.status)
	}
}

func TestRemoveLabelEscaping(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0)})
	n := s.AddPR(Issue{Labels: []string{"lifecycle/stale", "keep"}})
	ts := httptest.NewServer(s)
	defer ts.Close()

	// Unescaped slash: no such route, GitHub's plain 404; label untouched.
	got := do(t, ts, "DELETE", fmt.Sprintf("%s/issues/%d/labels/lifecycle/stale", repoPath, n), "")
	if got.status != 404 || string(got.body) != `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}` {
		t.Fatalf("unescaped: %d %s", got.status, got.body)
	}
	if !s.MustIssue(n).HasLabel("lifecycle/stale") {
		t.Fatal("label removed by an unescaped path")
	}
	// Escaped, different case: removed.
	got = do(t, ts, "DELETE", fmt.Sprintf("%s/issues/%d/labels/Lifecycle%%2FStale", repoPath, n), "")
	if got.status != 200 {
		t.Fatalf("escaped: %d %s", got.status, got.body)
	}
	var left []struct{ Name string }
	got.json(t, &left)
	if len(left) != 1 || left[0].Name != "keep" {
		t.Errorf("remaining labels %s", got.body)
	}
	// Absent: GitHub's exact body.
	got = do(t, ts, "DELETE", fmt.Sprintf("%s/issues/%d/labels/lifecycle%%2Fstale", repoPath, n), "")
	want := `{"message":"Label does not exist","documentation_url":"https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue","status":"404"}`
	if got.status != 404 || string(got.body) != want {
		t.Errorf("absent: %d %s", got.status, got.body)
	}
}

func TestLabelBodies(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0)})
	n := s.AddPR(Issue{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	for _, body := range []string{`{"labels":["a"]}`, `["b"]`, `{"labels":[{"name":"c"}]}`} {
		if got := do(t, ts, "POST", fmt.Sprintf("%s/issues/%d/labels", repoPath, n), body); got.status != 200 {
			t.Errorf("%s: %d %s", body, got.status, got.body)
		}
	}
	if l := s.Labels(n); !slices.Equal(l, []string{"a", "b", "c"}) {
		t.Errorf("labels %v", l)
	}
	do(t, ts, "PUT", fmt.Sprintf("%s/issues/%d/labels", repoPath, n), `{"labels":["C","d"]}`)
	if l := s.Labels(n); !slices.Equal(l, []string{"c", "d"}) {
		t.Errorf("after PUT: %v", l)
	}
	if got := do(t, ts, "POST", fmt.Sprintf("%s/issues/%d/labels", repoPath, n), `{"labels":`); got.status != 400 ||
		!strings.Contains(string(got.body), "Problems parsing JSON") {
		t.Errorf("bad JSON: %d %s", got.status, got.body)
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	clock := NewClock(t0)
	s := New(Options{Now: clock.Now, RateLimit: 3})
	s.AddPR(Issue{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	reset := strconv.FormatInt(t0.Add(time.Hour).Unix(), 10)
	for i, wantRem := range []string{"2", "1", "0"} {
		got := do(t, ts, "GET", repoPath+"/pulls/1", "")
		h := got.header
		if got.status != 200 || h.Get("X-Ratelimit-Remaining") != wantRem || h.Get("X-Ratelimit-Limit") != "3" ||
			h.Get("X-Ratelimit-Used") != strconv.Itoa(i+1) || h.Get("X-Ratelimit-Reset") != reset || h.Get("X-Ratelimit-Resource") != "core" {
			t.Fatalf("request %d: %d %v", i, got.status, h)
		}
	}
	got := do(t, ts, "GET", repoPath+"/pulls/1", "")
	want := `{"message":"API rate limit exceeded for installation ID 1.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting","status":"403"}`
	if got.status != 403 || string(got.body) != want || got.header.Get("X-Ratelimit-Remaining") != "0" {
		t.Fatalf("exhausted: %d %s %v", got.status, got.body, got.header)
	}
	s.setRateLimitStatus(429)
	if got := do(t, ts, "GET", repoPath+"/pulls/1", ""); got.status != 429 {
		t.Errorf("429 option: %d", got.status)
	}
	clock.Advance(time.Hour)
	if got := do(t, ts, "GET", repoPath+"/pulls/1", ""); got.status != 200 || got.header.Get("X-Ratelimit-Remaining") != "2" {
		t.Errorf("after reset: %d %v", got.status, got.header)
	}
	s.SetRateRemaining(0)
	if got := do(t, ts, "GET", repoPath+"/pulls/1", ""); got.status != 429 {
		t.Errorf("SetRateRemaining(0): %d", got.status)
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	want := `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`
	for _, auth := range []string{"", "Bearer wrong", "sekret"} {
		if got := doAuth(t, ts, "GET", repoPath+"/pulls/1", "", auth); got.status != 401 || string(got.body) != want {
			t.Errorf("auth %q: %d %s", auth, got.status, got.body)
		}
	}
	for _, auth := range []string{"Bearer sekret", "token sekret"} {
		if got := doAuth(t, ts, "GET", repoPath+"/pulls/1", "", auth); got.status != 200 {
			t.Errorf("auth %q: %d", auth, got.status)
		}
	}
}

func TestPrefixAndNotFound(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	a := do(t, ts, "GET", "/api/v3/repos/octo-org/widgets/pulls/1", "")
	b := do(t, ts, "GET", "/repos/octo-org/widgets/pulls/1", "")
	if a.status != 200 || b.status != 200 {
		t.Fatalf("prefix %d, bare %d", a.status, b.status)
	}
	var ja, jb map[string]any
	a.json(t, &ja)
	b.json(t, &jb)
	if !strings.HasPrefix(ja["url"].(string), ts.URL+"/api/v3/repos/") || !strings.HasPrefix(jb["url"].(string), ts.URL+"/repos/") {
		t.Errorf("urls %v %v", ja["url"], jb["url"])
	}
	want := `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}`
	for _, p := range []string{"/api/v3/nope", repoPath + "/pulls/999", "/api/v3/repos/other/repo/issues", repoPath + "/pulls/3"} {
		if got := do(t, ts, "GET", p, ""); got.status != 404 || string(got.body) != want {
			t.Errorf("%s: %d %s", p, got.status, got.body)
		}
	}
}

func TestWritesAreAttributedAndMoveUpdatedAt(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	clock := NewClock(t0.Add(time.Hour))
	s.setNow(clock.Now)
	me := s.Identity()
	if me != Bot("github-actions[bot]") {
		t.Fatalf("default identity %+v", me)
	}
	n := 5
	step := func(method, path, body string, wantStatus int) time.Time {
		t.Helper()
		clock.Advance(time.Minute)
		got := do(t, ts, method, fmt.Sprintf("%s/issues/%d%s", repoPath, n, path), body)
		if got.status != wantStatus {
			t.Fatalf("%s %s: %d %s", method, path, got.status, got.body)
		}
		if u := s.MustIssue(n).UpdatedAt; !u.Equal(clock.Now()) {
			t.Errorf("%s %s: updated_at %v, want %v", method, path, u, clock.Now())
		}
		return clock.Now()
	}
	at := step("POST", "/comments", `{"body":"stale notice <!-- stalepr:stale -->"}`, 201)
	cs := s.Comments(n)
	if last := cs[len(cs)-1]; last.User != me || !last.CreatedAt.Equal(at) {
		t.Errorf("comment %+v", last)
	}
	at = step("POST", "/labels", `["stale"]`, 200)
	step("DELETE", "/labels/stale", "", 200)
	closedAt := step("PATCH", "", `{"state":"closed"}`, 200)
	step("PATCH", "", `{"state":"open"}`, 200)

	var types []string
	for _, e := range s.Events(n) {
		if e.At.After(t0) {
			types = append(types, e.Type)
			if e.Actor != me {
				t.Errorf("%s by %+v", e.Type, e.Actor)
			}
		}
	}
	if !slices.Equal(types, []string{"labeled", "unlabeled", "closed", "reopened"}) {
		t.Errorf("events %v", types)
	}
	_ = at
	// The timeline JSON shows the same.
	var tl []map[string]any
	do(t, ts, "GET", fmt.Sprintf("%s/issues/%d/timeline?per_page=100", repoPath, n), "").json(t, &tl)
	last := tl[len(tl)-1]
	if last["event"] != "reopened" || last["actor"].(map[string]any)["login"] != me.Login ||
		last["actor"].(map[string]any)["type"] != "Bot" {
		t.Errorf("last timeline entry %v", last)
	}
	for _, e := range tl {
		if e["event"] == "closed" && e["created_at"] != closedAt.Format(time.RFC3339) {
			t.Errorf("closed at %v, want %v", e["created_at"], closedAt)
		}
		if e["event"] == "commented" {
			if e["actor"] == nil || e["user"] == nil || e["body"] == nil {
				t.Errorf("commented entry %v", e)
			}
		}
	}
	// Closing sets closed_at; reopening clears it.
	if is := s.MustIssue(n); is.State != "open" || !is.ClosedAt.IsZero() {
		t.Errorf("after reopen %+v", is)
	}
}

func TestTimestampsAreRFC3339Z(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	got := do(t, ts, "GET", repoPath+"/issues/1/timeline", "")
	re := regexp.MustCompile(`"(created_at|updated_at|submitted_at|date)":"([^"]+)"`)
	for _, m := range re.FindAllStringSubmatch(string(got.body), -1) {
		if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(m[2]) {
			t.Errorf("%s = %q", m[1], m[2])
		}
	}
}

func TestDeleteRef(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	// Escaped or not, a branch with a slash.
	s.AddBranch("release/1.x")
	if got := do(t, ts, "DELETE", repoPath+"/git/refs/heads/release/1.x", ""); got.status != 204 {
		t.Fatalf("unescaped: %d %s", got.status, got.body)
	}
	if got := do(t, ts, "DELETE", repoPath+"/git/refs/heads/feature%2Fpolish", ""); got.status != 204 {
		t.Fatalf("escaped: %d %s", got.status, got.body)
	}
	if s.HasBranch("feature/polish") || s.HasBranch("release/1.x") {
		t.Fatal("branches not deleted")
	}
	// Deleting an open PR's head branch closes the PR, as on GitHub.
	if is := s.MustIssue(1); is.State != "closed" {
		t.Errorf("PR #1 state %s", is.State)
	}
	got := do(t, ts, "DELETE", repoPath+"/git/refs/heads/feature%2Fpolish", "")
	want := `{"message":"Reference does not exist","documentation_url":"https://docs.github.com/rest/git/refs#delete-a-reference","status":"422"}`
	if got.status != 422 || string(got.body) != want {
		t.Errorf("missing: %d %s", got.status, got.body)
	}
	if got := do(t, ts, "DELETE", repoPath+"/git/refs/heads/main", ""); got.status != 422 || !s.HasBranch("main") {
		t.Errorf("default branch: %d", got.status)
	}
}

// TestGetRef: a branch and the commit it points at, by its exact name,
// escaped or not; 404 for one that does not exist (or that a name only
// begins), and once it is deleted.
func TestGetRef(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	head := s.MustIssue(1).HeadSHA
	api := ts.URL + "/api/v3/repos/octo-org/widgets"
	want := `{"ref":"refs/heads/feature/polish","node_id":"REF_feature/polish","url":"` + api + `/git/refs/heads/feature/polish",` +
		`"object":{"sha":"` + head + `","type":"commit","url":"` + api + `/git/commits/` + head + `"}}`
	for _, path := range []string{"/git/ref/heads/feature/polish", "/git/ref/heads/feature%2Fpolish", "/git/ref/heads%2Ffeature%2Fpolish"} {
		if got := do(t, ts, "GET", repoPath+path, ""); got.status != 200 || string(got.body) != want {
			t.Errorf("GET %s: %d %s\nwant %s", path, got.status, got.body, want)
		}
	}
	notFound := `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/git/refs#get-a-reference","status":"404"}`
	for _, path := range []string{"/git/ref/heads/feature", "/git/ref/heads/nope", "/git/ref/tags/feature/polish"} {
		if got := do(t, ts, "GET", repoPath+path, ""); got.status != 404 || string(got.body) != notFound {
			t.Errorf("GET %s: %d %s", path, got.status, got.body)
		}
	}
	do(t, ts, "DELETE", repoPath+"/git/refs/heads/feature/polish", "")
	if got := do(t, ts, "GET", repoPath+"/git/ref/heads/feature/polish", ""); got.status != 404 {
		t.Errorf("deleted: %d %s", got.status, got.body)
	}
}

// TestBranchHeads: an open PR's head branch points at its head and moves
// with it; PushBranch moves a branch and the open PR from it, never a
// closed PR's head.
func TestBranchHeads(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0)})
	alice := Person("alice")
	open := s.AddPR(Issue{Title: "Open", User: alice, CreatedAt: daysAgo(9), HeadRef: "open-work"})
	closed := s.AddPR(Issue{Title: "Closed", User: alice, CreatedAt: daysAgo(9), HeadRef: "old-work"})
	branch := func(name string) string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.db.branches[name]
	}
	if branch("open-work") != s.MustIssue(open).HeadSHA {
		t.Fatalf("open-work at %s, the PR's head %s", branch("open-work"), s.MustIssue(open).HeadSHA)
	}
	s.Push(open, "alice", daysAgo(5), "More")
	s.Push(closed, "alice", daysAgo(5), "More")
	for _, n := range []int{open, closed} {
		if is := s.MustIssue(n); branch(is.HeadRef) != is.HeadSHA {
			t.Errorf("a push to #%d left its branch at %s, its head at %s", n, branch(is.HeadRef), is.HeadSHA)
		}
	}
	s.Close(closed, alice, daysAgo(4), "")
	head := s.MustIssue(closed).HeadSHA
	if sha := s.PushBranch("old-work", daysAgo(1)); branch("old-work") != sha || sha == head || s.MustIssue(closed).HeadSHA != head {
		t.Errorf("PushBranch: old-work at %s (pushed %s); the closed PR's head %s, was %s", branch("old-work"), sha, s.MustIssue(closed).HeadSHA, head)
	}
	if sha := s.PushBranch("open-work", daysAgo(1)); branch("open-work") != sha || s.MustIssue(open).HeadSHA != sha {
		t.Errorf("PushBranch: open-work at %s (pushed %s); the open PR's head %s", branch("open-work"), sha, s.MustIssue(open).HeadSHA)
	}
	s.DeleteBranch("old-work")
	if s.HasBranch("old-work") || slices.Contains(s.Branches(), "old-work") {
		t.Errorf("old-work not deleted: %v", s.Branches())
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	do(t, ts, "GET", repoPath+"/issues?per_page=2", "")
	do(t, ts, "POST", repoPath+"/issues/1/comments", `{"body":"hi"}`)
	do(t, ts, "DELETE", repoPath+"/issues/1/labels/bug", "")
	do(t, ts, "GET", "/nope", "")
	reqs := s.Requests()
	if s.Count() != 4 || len(reqs) != 4 || s.Writes() != 2 || len(s.WriteRequests()) != 2 {
		t.Fatalf("count %d writes %d", s.Count(), s.Writes())
	}
	want := []RequestInfo{
		{N: 1, Method: "GET", Route: "GET /repos/{owner}/{repo}/issues", Path: repoPath + "/issues?per_page=2", Status: 200, At: t0},
		{N: 2, Method: "POST", Route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", Path: repoPath + "/issues/1/comments", Status: 201, Write: true, Body: `{"body":"hi"}`, At: t0},
		{N: 3, Method: "DELETE", Route: "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", Path: repoPath + "/issues/1/labels/bug", Status: 200, Write: true, At: t0},
		{N: 4, Method: "GET", Route: "GET /nope", Path: "/nope", Status: 404, At: t0},
	}
	if !slices.Equal(reqs, want) {
		t.Errorf("log\n got %+v\nwant %+v", reqs, want)
	}
	if c := s.CountBy(); c["GET /repos/{owner}/{repo}/issues"] != 1 || len(c) != 4 {
		t.Errorf("CountBy %v", c)
	}
	if strings.Contains(fmt.Sprintf("%+v", reqs), "sekret") {
		t.Error("token in the log")
	}
	s.Reset()
	if s.Count() != 0 {
		t.Error("Reset kept entries")
	}
}

func TestRoutesAreOpenAPITemplates(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../testdata/github-api/openapi-subset.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, rt := range routes {
		if rt.method == "POST" && rt.tmpl == "/graphql" {
			continue // GraphQL, not part of the REST description
		}
		if rt.tmpl == "/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers" {
			// Not in the subset either: GitHub's "Request reviewers for a
			// pull request" answers 201 with a pull-request-simple, which
			// the fake renders as for the pulls listing.
			continue
		}
		if rt.tmpl == "/repos/{owner}/{repo}/collaborators/{username}/permission" {
			// Not in the subset yet (a verbatim cut of @octokit/openapi that
			// predates it): its shape is GitHub's
			// repository-collaborator-permission, see collaborators.go.
			continue
		}
		if _, found := doc.Paths[rt.tmpl][strings.ToLower(rt.method)]; !found {
			t.Errorf("%s %s is not an operation of GitHub's description", rt.method, rt.tmpl)
		}
	}
}

// TestReopenNeedsTheBranch: GitHub reopens a pull request only with its
// head branch, by the issues endpoint as by the pulls one: 422 once the
// branch is deleted (or its fork), and for a merged one; 200 otherwise.
func TestReopenNeedsTheBranch(t *testing.T) {
	t.Parallel()
	s, ts := plain(t, 3)
	for n := 1; n <= 3; n++ {
		s.Close(n, Person("maya"), daysAgo(1), "")
	}
	s.DeleteBranch(s.MustIssue(2).HeadRef)
	s.Edit(3, func(is *Issue) { is.HeadRepo, is.HeadRepoDeleted = "fork/widgets", true })
	for _, path := range []string{"/issues/", "/pulls/"} {
		for n, want := range map[int]int{2: 422, 3: 422} {
			got := do(t, ts, "PATCH", repoPath+path+strconv.Itoa(n), `{"state":"open"}`)
			if got.status != want || !strings.Contains(string(got.body), "state cannot be changed") {
				t.Errorf("PATCH %s%d: %d %s, want %d", path, n, got.status, got.body, want)
			}
		}
	}
	if got := do(t, ts, "PATCH", repoPath+"/issues/1", `{"state":"open","labels":["a"]}`); got.status != 200 || s.MustIssue(1).State != "open" {
		t.Errorf("reopen with its branch: %d %s", got.status, got.body)
	}
}
