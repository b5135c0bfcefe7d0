package fakegithub

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestContents(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	content := []byte("enabled: false\n" + strings.Repeat("# a long comment line\n", 10))
	s.SetFile(".github/stalepr.yml", content)
	for _, prefix := range []string{"", apiPrefix} {
		got := do(t, ts, "GET", prefix+"/repos/octo-org/widgets/contents/.github/stalepr.yml", "")
		if got.status != 200 {
			t.Fatalf("status %d: %s", got.status, got.body)
		}
		var f struct {
			Type, Encoding, Content, Path, Name, SHA string
			Size                                     int
		}
		if err := json.Unmarshal(got.body, &f); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(f.Content, "\n"), "\n") {
			if len(line) > 60 {
				t.Errorf("base64 line of %d characters; GitHub wraps at 60", len(line))
			}
		}
		dec, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(f.Content, "\n", ""))
		if err != nil || string(dec) != string(content) {
			t.Errorf("content decodes to %q (%v), want the file", dec, err)
		}
		if f.Type != "file" || f.Encoding != "base64" || f.Path != ".github/stalepr.yml" || f.Name != "stalepr.yml" || f.Size != len(content) || f.SHA == "" {
			t.Errorf("metadata %+v", f)
		}
	}
	if got := do(t, ts, "GET", "/repos/octo-org/widgets/contents/.github/none.yml", ""); got.status != 404 {
		t.Errorf("absent file: status %d, want 404", got.status)
	}
	if got := do(t, ts, "GET", "/repos/octo-org/other/contents/.github/stalepr.yml", ""); got.status != 404 {
		t.Errorf("another repository: status %d, want 404", got.status)
	}
}

func TestInstallationRepositories(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.AddInstalledRepo(InstalledRepo{Name: "old", Archived: true}, InstalledRepo{Name: "copy", Fork: true})
	for i := range 3 {
		s.AddInstalledRepo(InstalledRepo{Name: fmt.Sprintf("r%d", i), Private: true})
	}
	got := do(t, ts, "GET", apiPrefix+"/installation/repositories?per_page=2&page=2", "")
	if got.status != 200 {
		t.Fatalf("status %d: %s", got.status, got.body)
	}
	var body struct {
		TotalCount   int `json:"total_count"`
		Repositories []struct {
			FullName   string `json:"full_name"`
			Archived   bool   `json:"archived"`
			Fork       bool   `json:"fork"`
			Private    bool   `json:"private"`
			Visibility string `json:"visibility"`
			Owner      struct{ Login string }
		} `json:"repositories"`
	}
	if err := json.Unmarshal(got.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.TotalCount != 6 || len(body.Repositories) != 2 {
		t.Fatalf("total_count %d, %d on page 2 of 2 a page; want 6 and 2", body.TotalCount, len(body.Repositories))
	}
	if r := body.Repositories[0]; r.FullName != "octo-org/copy" || !r.Fork || r.Archived || r.Owner.Login != "octo-org" {
		t.Errorf("first of page 2: %+v, want the fork octo-org/copy", r)
	}
	if r := body.Repositories[1]; r.FullName != "octo-org/r0" || !r.Private || r.Visibility != "private" {
		t.Errorf("second of page 2: %+v, want the private octo-org/r0", r)
	}
	if link := got.header.Get("Link"); !strings.Contains(link, `rel="next"`) || !strings.Contains(link, `rel="prev"`) {
		t.Errorf("Link %q, want next and prev", link)
	}
}

func TestGraphQLConvertToDraft(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	const n = 1 // an open, ready PR of the fixture
	query := `{"query":"mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }","variables":{"id":%q}}`

	s.SetDraftForbidden(true)
	got := do(t, ts, "POST", "/api/graphql", fmt.Sprintf(query, s.PullNodeID(n)))
	want := `{"data":{"convertPullRequestToDraft":null},"errors":[{"type":"FORBIDDEN","path":["convertPullRequestToDraft"],"locations":[{"line":1,"column":22}],"message":"Resource not accessible by integration"}]}`
	if got.status != 200 || string(got.body) != want {
		t.Errorf("forbidden: %d %s\nwant 200 %s", got.status, got.body, want)
	}
	if s.MustIssue(n).Draft {
		t.Fatal("converted although forbidden")
	}
	if res := got.header.Get("X-Ratelimit-Resource"); res != "graphql" {
		t.Errorf("X-Ratelimit-Resource %q, want graphql", res)
	}

	s.SetDraftForbidden(false)
	got = do(t, ts, "POST", "/graphql", fmt.Sprintf(query, s.PullNodeID(n)))
	if got.status != 200 || !strings.Contains(string(got.body), `"isDraft":true`) || strings.Contains(string(got.body), "errors") {
		t.Errorf("convert: %d %s", got.status, got.body)
	}
	if !s.MustIssue(n).Draft {
		t.Error("not a draft after the mutation")
	}
	tl := s.Timeline(n)
	if last := tl[len(tl)-1]; last.Type != EventConvertToDraft || last.Actor != s.Identity() || !last.At.Equal(t0) {
		t.Errorf("last timeline item %+v, want convert_to_draft by the token's account now", last)
	}

	got = do(t, ts, "POST", "/graphql", fmt.Sprintf(query, "PR_unknown"))
	if !strings.Contains(string(got.body), `"type":"NOT_FOUND"`) {
		t.Errorf("unknown node: %s", got.body)
	}
	got = do(t, ts, "POST", "/graphql", `{"query":"query { repository(owner: \"o\", name: \"r\") { id } }"}`)
	if got.status != 200 || !strings.Contains(string(got.body), `"errors"`) {
		t.Errorf("another operation: %d %s, want a GraphQL error", got.status, got.body)
	}
	got = do(t, ts, "POST", "/graphql", `not json`)
	if got.status != 400 {
		t.Errorf("bad JSON: status %d, want 400", got.status)
	}
}

func TestIssueListingGivesPullRequestNodeID(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	got := do(t, ts, "GET", "/repos/octo-org/widgets/issues?state=all", "")
	var items []struct {
		Number      int
		NodeID      string `json:"node_id"`
		PullRequest any    `json:"pull_request"`
	}
	if err := json.Unmarshal(got.body, &items); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, it := range items {
		isPR := it.PullRequest != nil
		if isPR && it.NodeID != s.PullNodeID(it.Number) {
			t.Errorf("#%d: node_id %q, want the PullRequest node ID %q", it.Number, it.NodeID, s.PullNodeID(it.Number))
		}
		if !isPR && !strings.HasPrefix(it.NodeID, "I_") {
			t.Errorf("issue #%d: node_id %q, want an Issue node ID", it.Number, it.NodeID)
		}
		if isPR {
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no pull request in the listing")
	}
}

func TestDismissedReview(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	rev := s.Review(1, Person("erin"), daysAgo(50), "APPROVED", "")
	s.DismissReview(1, rev.ID, Person("bob"), daysAgo(49))
	got := do(t, ts, "GET", "/repos/octo-org/widgets/pulls/1/reviews", "")
	if !strings.Contains(string(got.body), `"state":"DISMISSED"`) || strings.Contains(string(got.body), `"state":"APPROVED"`) {
		t.Errorf("reviews after dismissal: %s", got.body)
	}
	got = do(t, ts, "GET", "/repos/octo-org/widgets/issues/1/timeline?per_page=100", "")
	if !strings.Contains(string(got.body), `"state":"dismissed"`) || !strings.Contains(string(got.body), `"event":"review_dismissed"`) {
		t.Errorf("timeline after dismissal lacks the dismissed review or the review_dismissed event")
	}
}

// The GraphQL viewer names the token's own account for every kind of token,
// as GitHub does, and asking is a read, not a write.
func TestViewerNamesEveryKindOfToken(t *testing.T) {
	t.Parallel()
	for _, who := range []User{
		Bot("github-actions[bot]"), // the workflow's GITHUB_TOKEN
		Bot("stalepr-app[bot]"),    // a GitHub App's installation token
		Person("release-robot"),    // a personal access token
	} {
		s := New(Options{Token: "sekret", Login: who.Login, LoginType: who.Type})
		ts := httptest.NewServer(s)
		got := do(t, ts, "POST", "/graphql", `{"query":"query { viewer { login } }"}`)
		ts.Close()
		want := fmt.Sprintf(`{"data":{"viewer":{"login":%q}}}`, who.Login)
		if got.status != 200 || string(got.body) != want {
			t.Errorf("%s: %d %s, want 200 %s", who.Login, got.status, got.body, want)
		}
		if s.Writes() != 0 {
			t.Errorf("%s: the viewer query was logged as a write", who.Login)
		}
	}
}
