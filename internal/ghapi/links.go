package ghapi

import (
	"fmt"

	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The intake clock's facts: the issues each listed pull request closes
// when merged (GitHub's closingIssuesReferences, the description's closing
// keywords and the Development sidebar's links), with what says whether a
// maintainer accepted each, read in the listing's own page and only when
// the clock is on (sweep.Query.Links). GitHub counts one request per PR
// for the references and one per issue for each of its two connections:
// linksConnections more per PR, so pages are smaller (pageSize).

// linksFirst is how many closing references a page reads of each PR: a
// PR that links more is not known to link no accepted issue among the
// rest (lifecycle.Links.More), and stays out of the intake clock.
const linksFirst = 3

// linksConnections are the connections the references add per PR.
const linksConnections = 1 + 2*linksFirst

// linksField asks the references beside ...pr.
var linksField = fmt.Sprintf(` closingIssuesReferences(first: %d) { totalCount nodes {`, linksFirst) + `
  number author { ...actor } authorAssociation
  labels(first: 20) { totalCount nodes { name } }
  assignees(first: 10) { totalCount nodes { login } } } }`

// linkedIssues is the references' connection, decoded flat.
type linkedIssues struct {
	TotalCount int
	Nodes      []*linkedIssue
}

// withLinks adds the references to what a page asks beside ...pr, and
// their connections to its count, when q asks for them.
func withLinks(q sweep.Query, asks string, connections int) (string, int) {
	if !q.Links {
		return asks, connections
	}
	return asks + linksField, connections + linksConnections
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
