package ghapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// TestListedPullKeepsWhatFromPullReads: the listing decodes only
// listedPull's fields, so a field fromPull starts reading must be added
// there too. On a page of PRs with every field fromPull reads set, decoding
// into go-github's PullRequest and into listedPull gives the same PRs.
func TestListedPullKeepsWhatFromPullReads(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	fake := fakegithub.New(fakegithub.Options{Owner: "o", Repo: "r", Token: "t", Clock: fakegithub.NewClock(t0)})
	fake.AddPR(fakegithub.Issue{Title: "Full", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-50 * time.Hour),
		UpdatedAt: t0.Add(-2 * time.Hour), Labels: []string{"bug", "stale"}, Milestone: "v1.0",
		Assignees: []string{"bob", "carol"}, Locked: true, Draft: true, HeadRef: "feature", Body: "Body."})
	fake.AddPR(fakegithub.Issue{Title: "Plain", User: fakegithub.Bot("dependabot[bot]"), CreatedAt: t0.Add(-time.Hour)})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v3/repos/o/r/pulls?state=all", nil)
	req.Header.Set("Authorization", "Bearer t")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the fake's listing: %d, %v", resp.StatusCode, err)
	}
	var full []*github.PullRequest
	var listed []*listedPull
	if err := json.Unmarshal(page, &full); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(page, &listed); err != nil {
		t.Fatal(err)
	}
	if len(full) != 2 || len(listed) != 2 {
		t.Fatalf("%d and %d PRs, want 2", len(full), len(listed))
	}
	for i := range full {
		want, got := fromPull(full[i]), fromPull(listed[i].pull())
		if want.Title == "Full" && (want.Milestone == "" || len(want.Labels) != 2 || len(want.Assignees) != 2 ||
			want.HeadSHA == "" || want.NodeID == "" || !want.Locked || !want.Draft || want.UpdatedAt.IsZero()) {
			t.Fatalf("a PR lacks a field it was made with: %+v", want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("#%d:\nlisted %+v\nfull   %+v", want.Number, got, want)
		}
	}
}
