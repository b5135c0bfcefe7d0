package fakegithub

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestGraphQLClosingIssuesReferences: a pull request's closing references
// are the issues its description's keywords name (on the default branch
// only, this repository's, issues not pull requests) and those linked by
// hand, each with its labels, assignees, author and author_association;
// paged and counted as every connection.
func TestGraphQLClosingIssuesReferences(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0)})
	s.SetPermission("carol", "write")
	accepted := s.AddIssue(Issue{Title: "Crash on start", User: Person("carol"), Labels: []string{"accepted"}, Assignees: []string{"dave"},
		CreatedAt: daysAgo(30), UpdatedAt: daysAgo(30)})
	other := s.AddIssue(Issue{Title: "Typo", User: Person("erin"), CreatedAt: daysAgo(20), UpdatedAt: daysAgo(20)})
	byHand := s.AddIssue(Issue{Title: "Docs", User: Person("erin"), CreatedAt: daysAgo(20), UpdatedAt: daysAgo(20)})
	prior := s.AddPR(Issue{Title: "Earlier", User: Person("dave"), CreatedAt: daysAgo(20), UpdatedAt: daysAgo(20)})
	body := fmt.Sprintf("Fixes #%d, closes: octo-org/widgets#%d; also fixes #%d (a PR), resolves other/repo#%d, fixes #999 and see #%d",
		accepted, other, prior, byHand, byHand)
	pr := s.AddPR(Issue{Title: "Fix the crash", Body: body, User: Person("dave"), CreatedAt: daysAgo(2), UpdatedAt: daysAgo(2),
		LinkedIssues: []int{byHand, accepted}})
	offMain := s.AddPR(Issue{Title: "Backport", Body: fmt.Sprintf("Fixes #%d", other), BaseRef: "release-1", User: Person("dave"),
		CreatedAt: daysAgo(2), UpdatedAt: daysAgo(2)})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)

	const q = `query($owner: String!, $name: String!, $n: Int!, $first: Int!) { repository(owner: $owner, name: $name) {
		pullRequest(number: $n) { closingIssuesReferences(first: $first) { totalCount pageInfo { hasNextPage }
			nodes { number author { login } authorAssociation labels(first: 20) { nodes { name } } assignees(first: 10) { nodes { login } } } } } } }`
	type answer struct {
		Repository struct {
			PullRequest struct {
				Refs struct {
					TotalCount int
					PageInfo   struct{ HasNextPage bool }
					Nodes      []struct {
						Number            int
						Author            struct{ Login string }
						AuthorAssociation string
						Labels            struct{ Nodes []struct{ Name string } }
						Assignees         struct{ Nodes []struct{ Login string } }
					}
				} `json:"closingIssuesReferences"`
			}
		}
	}
	var a answer
	gql(t, ts, q, withVars(map[string]any{"n": pr, "first": 10})).into(t, &a)
	refs := a.Repository.PullRequest.Refs
	var got []string
	for _, n := range refs.Nodes {
		var labels, assignees []string
		for _, l := range n.Labels.Nodes {
			labels = append(labels, l.Name)
		}
		for _, u := range n.Assignees.Nodes {
			assignees = append(assignees, u.Login)
		}
		got = append(got, fmt.Sprintf("#%d by %s (%s) %v %v", n.Number, n.Author.Login, n.AuthorAssociation, labels, assignees))
	}
	want := []string{
		fmt.Sprintf("#%d by carol (CONTRIBUTOR) [accepted] [dave]", accepted),
		fmt.Sprintf("#%d by erin (NONE) [] []", other),
		fmt.Sprintf("#%d by erin (NONE) [] []", byHand),
	}
	if !slices.Equal(got, want) || refs.TotalCount != 3 || refs.PageInfo.HasNextPage {
		t.Errorf("closingIssuesReferences = %q (total %d, more %v), want %q (3, false)", got, refs.TotalCount, refs.PageInfo.HasNextPage, want)
	}

	a = answer{}
	gql(t, ts, q, withVars(map[string]any{"n": pr, "first": 1})).into(t, &a)
	if refs := a.Repository.PullRequest.Refs; len(refs.Nodes) != 1 || refs.TotalCount != 3 || !refs.PageInfo.HasNextPage {
		t.Errorf("first: 1 gives %d nodes of %d, more %v; want 1 of 3, more", len(refs.Nodes), refs.TotalCount, refs.PageInfo.HasNextPage)
	}

	a = answer{}
	gql(t, ts, q, withVars(map[string]any{"n": offMain, "first": 10})).into(t, &a)
	if refs := a.Repository.PullRequest.Refs; refs.TotalCount != 0 {
		t.Errorf("a pull request to another branch links %d issues by keyword, want none", refs.TotalCount)
	}
}
