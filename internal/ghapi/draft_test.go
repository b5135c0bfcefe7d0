package ghapi_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

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
			checkOneConversion(t, fake, n)
			checkGraphQLPath(t, fake, root)
			if by := c.Usage().ByRoute["POST /graphql"]; by != 2 {
				t.Errorf("usage counts %d POST /graphql, want 2 (%v)", by, c.Usage().ByRoute)
			}
		})
	}
}

// checkOneConversion checks that PR n has exactly one convert_to_draft
// event, by the token's account.
func checkOneConversion(t *testing.T, fake *fakegithub.Server, n int) {
	t.Helper()
	var conversions int
	for _, it := range fake.Timeline(n) {
		if it.Type != fakegithub.EventConvertToDraft {
			continue
		}
		conversions++
		if it.Actor != fake.Identity() {
			t.Errorf("convert_to_draft by %v, want the token's account %v", it.Actor, fake.Identity())
		}
	}
	if conversions != 1 {
		t.Errorf("%d convert_to_draft events, want 1", conversions)
	}
}

// checkGraphQLPath checks that every write went to the GraphQL endpoint of
// the API root: on Enterprise Server (/api/v3) beside it, not under it.
func checkGraphQLPath(t *testing.T, fake *fakegithub.Server, root string) {
	t.Helper()
	wantPath := "/graphql"
	if root == "/api/v3" {
		wantPath = "/api/graphql" // Enterprise Server: beside /api/v3, not under it
	}
	for _, r := range fake.WriteRequests() {
		if r.Path != wantPath {
			t.Errorf("write %s %s, want POST %s", r.Method, r.Path, wantPath)
		}
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
