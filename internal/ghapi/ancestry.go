package ghapi

import (
	"context"
	"fmt"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The ancestry read: one query for a commit and its first-parent chain,
// AncestryDepth commits deep, nested as parents(first: 1) under each (the
// sweep reads on from where one read ends, when it must). GitHub's cost rule counts one request per parents connection (the
// product of the first values above each is 1), so the query is
// AncestryDepth requests: 1 point, far under the 149 that round to one.
// A merge is followed through its first parent, the line it was made on.

// AncestryDepth is how many commits an ancestry read gives whole: the
// first and its first parents; the oid of the next comes with the last, so
// a chain that reaches the mark's head within this many commits proves it.
// A branch updater's daily merges for three weeks fit one read.
const AncestryDepth = 25

// parentLink is one level of the nested chain.
type parentLink interface {
	oid() string
	// chain is the commits from this one back, first parents; nil for the
	// last level, of which only the oid was read.
	chain() []lifecycle.Commit
}

// ancestor is a commit and its first parent P (a *P is a parentLink).
// One type parameter: with a second (*P) the instantiated names double in
// length at every level.
type ancestor[P any] struct {
	Oid       string
	Author    gitActor
	Committer gitActor
	Parents   struct {
		Nodes []*P
	} `graphql:"parents(first: 1)"`
}

func (a *ancestor[P]) oid() string { return a.Oid }

func (a *ancestor[P]) chain() []lifecycle.Commit {
	c := lifecycle.Commit{SHA: a.Oid,
		Author: a.Author.login(), Committer: a.Committer.login(),
		Bot: a.Author.person().isBot() || a.Committer.person().isBot()}
	var p parentLink
	if len(a.Parents.Nodes) > 0 && a.Parents.Nodes[0] != nil {
		p, _ = any(a.Parents.Nodes[0]).(parentLink)
	}
	if p == nil {
		return []lifecycle.Commit{c} // a root, or a parent GitHub did not give: not followed
	}
	c.Parent = p.oid()
	return append([]lifecycle.Commit{c}, p.chain()...)
}

// tip is the last level: its oid only.
type tip struct{ Oid string }

func (t *tip) oid() string               { return t.Oid }
func (t *tip) chain() []lifecycle.Commit { return nil }

// The levels, the first commit's (ancestry0) to the tip's: AncestryDepth
// commits read whole.
type (
	ancestry24 = ancestor[tip]
	ancestry23 = ancestor[ancestry24]
	ancestry22 = ancestor[ancestry23]
	ancestry21 = ancestor[ancestry22]
	ancestry20 = ancestor[ancestry21]
	ancestry19 = ancestor[ancestry20]
	ancestry18 = ancestor[ancestry19]
	ancestry17 = ancestor[ancestry18]
	ancestry16 = ancestor[ancestry17]
	ancestry15 = ancestor[ancestry16]
	ancestry14 = ancestor[ancestry15]
	ancestry13 = ancestor[ancestry14]
	ancestry12 = ancestor[ancestry13]
	ancestry11 = ancestor[ancestry12]
	ancestry10 = ancestor[ancestry11]
	ancestry9  = ancestor[ancestry10]
	ancestry8  = ancestor[ancestry9]
	ancestry7  = ancestor[ancestry8]
	ancestry6  = ancestor[ancestry7]
	ancestry5  = ancestor[ancestry6]
	ancestry4  = ancestor[ancestry5]
	ancestry3  = ancestor[ancestry4]
	ancestry2  = ancestor[ancestry3]
	ancestry1  = ancestor[ancestry2]
	ancestry0  = ancestor[ancestry1]
)

type ancestryQuery struct {
	RateLimit  rateLimit
	Repository struct {
		Object *struct {
			Commit ancestry0 `graphql:"... on Commit"`
		} `graphql:"object(oid: $head)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

// Ancestry reads commit head of PR number (its head, or where an earlier
// read ended) and its first parents, head first: AncestryDepth commits, 1
// point. An answer in error or in part, or
// naming no such commit, fails the read: the PR is left untouched.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#repository (object)
func (c *Client) Ancestry(ctx context.Context, number int, head string) ([]lifecycle.Commit, error) {
	var out ancestryQuery
	vars := map[string]any{
		"owner": githubv4.String(c.owner), "name": githubv4.String(c.repo),
		"head": githubv4.GitObjectID(head),
	}
	errs, err := c.query(ctx, false, &out, vars)
	switch {
	case err != nil:
	case len(errs) > 0:
		err = fmt.Errorf("GitHub's answer has errors: %s", errs)
	case out.Repository.Object == nil || !strings.EqualFold(out.Repository.Object.Commit.Oid, head):
		err = fmt.Errorf("GitHub's answer names no commit %s", head)
	}
	if err != nil {
		return nil, c.fail(opRead, err, "read the head commits of #%d", number)
	}
	return out.Repository.Object.Commit.chain(), nil
}
