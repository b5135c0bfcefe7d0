package ghapi

import (
	"context"
	"fmt"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The intake clock's facts: the issues a pull request closes when merged
// (GitHub's closingIssuesReferences, the description's closing keywords and
// the Development sidebar's links), with what says whether a maintainer
// accepted each, read only for the PRs that may be in its class
// (lifecycle.IntakeCandidate), sweep.LinksPerRead to a query. Read in the
// listing's own page instead, they would make every page of every PR
// dearer: 7 connections more a PR, 16 PRs a point instead of 74, 97 more
// points on 2,000 PRs, where this read costs one point per 21 candidates
// and nothing in a repository where none is (docs/cost.md).

// linksFirst is how many closing references are read of each PR: a PR
// that links more is not known to link no accepted issue among the rest
// (lifecycle.Links.More), and stays out of the intake clock.
const linksFirst = 3

// linksField asks the references of a pull request.
var linksField = fmt.Sprintf(`closingIssuesReferences(first: %d) { totalCount nodes {`, linksFirst) + `
  number author { ...actor } authorAssociation
  labels(first: 20) { totalCount nodes { name } }
  assignees(first: 10) { totalCount nodes { login } } } }`

// linkedIssues is the references' connection, decoded flat.
type linkedIssues struct {
	TotalCount int
	Nodes      []*linkedIssue
}

// linksOf is a PR's part of the answer.
type linksOf struct {
	ClosingIssuesReferences *linkedIssues
}

// Links reads the closing references of the PRs numbers (at most
// sweep.LinksPerRead) in one query, one point. A PR GitHub does not
// answer for (an error, a null) is left out: unknown, which keeps it out
// of the intake clock; a query that fails altogether is an error.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#pullrequest (closingIssuesReferences)
func (c *graphQL) Links(ctx context.Context, numbers []int) (map[int]lifecycle.Links, error) {
	if len(numbers) > sweep.LinksPerRead {
		return nil, fmt.Errorf("read the links of %d pull requests: at most %d a query", len(numbers), sweep.LinksPerRead)
	}
	doc := eachPRQuery(len(numbers), func(int) string { return linksField }, "\nfragment actor on Actor { __typename login }\n")
	prs, err := eachPR[linksOf](ctx, c, numbers, doc)
	if err != nil {
		return nil, c.fail(opRead, err, "read the linked issues of %d pull requests", len(numbers))
	}
	out := map[int]lifecycle.Links{}
	for n, r := range prs {
		if l := r.ClosingIssuesReferences.links(); l.Read {
			out[n] = l
		}
	}
	return out, nil
}

// linkedIssue is one reference of the connection, decoded flat.
type linkedIssue struct {
	Number            int
	Author            *actor
	AuthorAssociation string
	Labels            *struct {
		TotalCount int
		Nodes      []*struct{ Name string }
	}
	Assignees *struct {
		TotalCount int
		Nodes      []*struct{ Login string }
	}
}

// links converts the references; nil (not asked, or GitHub answered null)
// is not read: unknown, never "links nothing". A null issue, label or
// assignee, or a connection cut short, leaves what it hid unknown.
func (l *linkedIssues) links() lifecycle.Links {
	if l == nil {
		return lifecycle.Links{}
	}
	out := lifecycle.Links{Read: true, More: len(l.Nodes) < l.TotalCount}
	for _, n := range l.Nodes {
		if n == nil {
			out.More = true
			continue
		}
		out.Issues = append(out.Issues, n.issue())
	}
	return out
}

func (n *linkedIssue) issue() lifecycle.LinkedIssue {
	is := lifecycle.LinkedIssue{Number: n.Number, AuthorAssociation: n.AuthorAssociation,
		Partial: n.Labels == nil || n.Assignees == nil}
	if n.Author != nil {
		is.Author, _ = n.Author.identity()
	}
	if n.Labels != nil {
		for _, lb := range n.Labels.Nodes {
			if lb != nil {
				is.Labels = append(is.Labels, lb.Name)
			}
		}
		is.Partial = is.Partial || len(is.Labels) < n.Labels.TotalCount
	}
	if n.Assignees != nil {
		for _, a := range n.Assignees.Nodes {
			if a != nil {
				is.Assignees = append(is.Assignees, a.Login)
			}
		}
		is.Partial = is.Partial || len(is.Assignees) < n.Assignees.TotalCount
	}
	return is
}
