package ghapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/ghapi"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// serve starts the fake and a client for its repository at root: "/api/v3"
// (Enterprise Server's layout) or "" (github.com's).
func serve(t *testing.T, fake *fakegithub.Server, root string) *ghapi.Client {
	t.Helper()
	ts := httptest.NewServer(fake)
	t.Cleanup(ts.Close)
	c, err := ghapi.New(ghapi.Options{APIURL: ts.URL + root, Owner: fake.Owner(), Repo: fake.Repo(), Clock: fake.Clock()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newFake() *fakegithub.Server {
	return fakegithub.New(fakegithub.Options{Clock: fakegithub.NewClock(t0)})
}

func TestConvertToDraft(t *testing.T) {
	t.Parallel()
	for _, root := range []string{"/api/v3", ""} {
		t.Run("root "+root, func(t *testing.T) {
			fake := newFake()
			n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
			c := serve(t, fake, root)
			ctx := context.Background()

			// The node ID comes with the listing: no extra read.
			prs, _, err := c.ListPRs(ctx, sweep.Query{State: "open"}, 1)
			if err != nil || len(prs) != 1 {
				t.Fatalf("ListPRs: %v, %d PRs", err, len(prs))
			}
			if prs[0].NodeID == "" || prs[0].NodeID != fake.PullNodeID(n) {
				t.Fatalf("NodeID %q, want the PullRequest node ID %q", prs[0].NodeID, fake.PullNodeID(n))
			}
			if err := c.ConvertToDraft(ctx, prs[0].NodeID); err != nil {
				t.Fatal(err)
			}
			if !fake.MustIssue(n).Draft {
				t.Fatal("the PR is not a draft after ConvertToDraft")
			}
			// Idempotent: a second conversion changes nothing.
			if err := c.ConvertToDraft(ctx, prs[0].NodeID); err != nil {
				t.Fatal(err)
			}
			var conversions int
			for _, it := range fake.Timeline(n) {
				if it.Type == fakegithub.EventConvertToDraft {
					conversions++
					if it.Actor != fake.Identity() {
						t.Errorf("convert_to_draft by %v, want the token's account %v", it.Actor, fake.Identity())
					}
				}
			}
			if conversions != 1 {
				t.Errorf("%d convert_to_draft events, want 1", conversions)
			}
			wantPath := "/graphql"
			if root == "/api/v3" {
				wantPath = "/api/graphql" // Enterprise Server: beside /api/v3, not under it
			}
			for _, r := range fake.WriteRequests() {
				if r.Path != wantPath {
					t.Errorf("write %s %s, want POST %s", r.Method, r.Path, wantPath)
				}
			}
			if by := c.Usage().ByRoute["POST /graphql"]; by != 2 {
				t.Errorf("usage counts %d POST /graphql, want 2 (%v)", by, c.Usage().ByRoute)
			}
		})
	}
}

func TestConvertToDraftForbiddenForGitHubToken(t *testing.T) {
	t.Parallel()
	fake := newFake()
	n := fake.AddPR(fakegithub.Issue{Title: "x", User: fakegithub.Person("alice"), CreatedAt: t0.Add(-90 * lifecycle.Day)})
	fake.SetDraftForbidden(true)
	c := serve(t, fake, "/api/v3")
	err := c.ConvertToDraft(context.Background(), fake.PullNodeID(n))
	if !errors.Is(err, api.ErrDraftForbidden) {
		t.Fatalf("err = %v, want ErrDraftForbidden", err)
	}
	if !strings.Contains(err.Error(), "personal access token") || !strings.Contains(err.Error(), "repo-token") {
		t.Errorf("the error does not say which token to use: %v", err)
	}
	if api.IsStop(err) {
		t.Error("a refused conversion stops the whole run; other PRs' marks and un-stales can go on")
	}
	if fake.MustIssue(n).Draft {
		t.Error("the PR became a draft although GitHub refused")
	}
	if got := fake.Count(); got != 1 {
		t.Errorf("%d requests, want 1 (a GraphQL error is not retried)", got)
	}
}

func TestConvertToDraftUnknownNode(t *testing.T) {
	t.Parallel()
	fake := newFake()
	c := serve(t, fake, "")
	err := c.ConvertToDraft(context.Background(), "PR_nope")
	if err == nil || errors.Is(err, api.ErrDraftForbidden) || !strings.Contains(err.Error(), "PR_nope") {
		t.Errorf("err = %v, want an error naming the node", err)
	}
}

func TestListRepositories(t *testing.T) {
	t.Parallel()
	fake := newFake() // its own repository, octo-org/widgets, comes first
	fake.AddInstalledRepo(
		fakegithub.InstalledRepo{Name: "old", Archived: true},
		fakegithub.InstalledRepo{Name: "upstream-copy", Fork: true},
		fakegithub.InstalledRepo{Name: "secret", Private: true},
	)
	for i := range 120 {
		fake.AddInstalledRepo(fakegithub.InstalledRepo{Name: fmt.Sprintf("r%03d", i)})
	}
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	got, err := c.ListRepositories(ctx, "OCTO-ORG", ghapi.RepoListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 122 || got[0] != "octo-org/widgets" || got[1] != "octo-org/secret" || got[121] != "octo-org/r119" {
		t.Errorf("got %d repositories %v..., want 122: widgets, secret and r000..r119, archived and forks left out", len(got), got[:min(3, len(got))])
	}
	if slices.Contains(got, "octo-org/old") || slices.Contains(got, "octo-org/upstream-copy") {
		t.Error("archived or forked repository listed without being asked")
	}
	if pages := fake.CountBy()["GET /installation/repositories"]; pages != 2 {
		t.Errorf("%d requests for 124 repositories, want 2 pages of 100", pages)
	}

	all, err := c.ListRepositories(ctx, "octo-org", ghapi.RepoListOptions{IncludeArchived: true, IncludeForks: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 124 || !slices.Contains(all, "octo-org/old") || !slices.Contains(all, "octo-org/upstream-copy") {
		t.Errorf("with archived and forks: %d repositories, want 124", len(all))
	}

	other, err := c.ListRepositories(ctx, "someone-else", ghapi.RepoListOptions{})
	if err != nil || len(other) != 0 {
		t.Errorf("another owner: %v, %v; want none", other, err)
	}
}

func TestRepoFile(t *testing.T) {
	t.Parallel()
	fake := newFake()
	content := "# stalepr overrides\ndays-before-stale: 30\nstale-pr-message: |\n  " + strings.Repeat("long line ", 20) + "\n"
	fake.SetFile(".github/stalepr.yml", []byte(content))
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	got, found, err := c.RepoFile(ctx, ".github/stalepr.yml")
	if err != nil || !found || string(got) != content {
		t.Fatalf("RepoFile = %q, %v, %v; want the file", got, found, err)
	}
	got, found, err = c.RepoFile(ctx, ".github/absent.yml")
	if err != nil || found || got != nil {
		t.Errorf("absent file: %q, %v, %v; want not found and no error", got, found, err)
	}
	if n := fake.Count(); n != 2 {
		t.Errorf("%d requests for two reads, want 2", n)
	}
	if by := c.Usage().ByRoute["GET /repos/{owner}/{repo}/contents/{path}"]; by != 2 {
		t.Errorf("usage by route: %v", c.Usage().ByRoute)
	}
}
