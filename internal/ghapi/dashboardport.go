package ghapi

import (
	"context"
	"sync"

	"github.com/google/go-github/v62/github"

	"github.com/stalepr/stalepr/internal/api"
)

// Hold sets n requests of the run's budget (operations-per-run) aside for a
// step after the sweep: until release, every request and RequestsLeft count
// them as spent, so a capped sweep leaves them. The rate-limit reserve is
// not lent: a run the rate limit stops leaves nothing to the step. release
// is safe to call more than once.
func (c *Client) Hold(n int) (release func()) {
	t := c.t
	t.mu.Lock()
	t.held += n
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			t.held -= n
			t.mu.Unlock()
		})
	}
}

func toIssue(is *github.Issue) api.Issue {
	return api.Issue{
		Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), URL: is.GetHTMLURL(), State: is.GetState(),
		Author: is.GetUser().GetLogin(), Labels: labelNames(is.Labels),
	}
}

// LabelledIssues reads the first page of the issues carrying label, open and
// closed, oldest first: one request. Pull requests are left out.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#list-repository-issues
func (c *Client) LabelledIssues(ctx context.Context, label string) ([]api.Issue, error) {
	opts := &github.IssueListByRepoOptions{
		State: "all", Labels: []string{label}, Sort: "created", Direction: "asc",
		ListOptions: github.ListOptions{PerPage: perPage},
	}
	issues, _, err := c.gh.Issues.ListByRepo(ctx, c.owner, c.repo, opts)
	if err != nil {
		return nil, c.fail(opList, err, "list the issues labelled %q", label)
	}
	var out []api.Issue
	for _, is := range issues {
		if !is.IsPullRequest() {
			out = append(out, toIssue(is))
		}
	}
	return out, nil
}

// CreateIssue opens an issue with its labels in the same request, so it is
// never without them. It is not retried: a lost answer may hide an issue
// created, which the caller finds by listing.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#create-an-issue
func (c *Client) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	is, _, err := c.gh.Issues.Create(ctx, c.owner, c.repo, &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		return api.Issue{}, c.fail(opWrite, err, "create issue %q", title)
	}
	return toIssue(is), nil
}

// EditIssue replaces an issue's body and, with close, closes it as not
// planned, in one request. An edit notifies nobody.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#update-an-issue
func (c *Client) EditIssue(ctx context.Context, number int, body string, close bool) error {
	req := &github.IssueRequest{Body: &body}
	if close {
		req.State, req.StateReason = github.String("closed"), github.String("not_planned")
	}
	if _, _, err := c.gh.Issues.Edit(ctx, c.owner, c.repo, number, req); err != nil {
		return c.fail(opWrite, err, "edit issue #%d", number)
	}
	return nil
}
