package ghapi

import (
	"context"
	"fmt"

	"github.com/stalepr/stalepr/internal/lifecycle"
)

// The ancestry read: the PR's commits, each with its first parent, in one
// query. GitHub refuses a query nested deeper than 25 fields, so a commit's
// chain of parents cannot be asked for as nested parents (two levels a
// commit); the PR's commits connection gives the newest 100 commits on its
// head and each one's parent at depth 8. By GitHub's cost rule that is 1 +
// 100 requests: 1 point. The walk back from the head (lifecycle) follows
// first parents through these: a merge's first parent is the line it was
// made on.

// AncestryDepth is how many of a PR's commits an ancestry read gives: the
// newest, as many as a connection page holds.
const AncestryDepth = 100

const ancestryQuery = `query($owner: String!, $name: String!, $number: Int!) {
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      commits(last: 100) {
        nodes {
          commit {
            oid
            author { ...gitActor }
            committer { ...gitActor }
            parents(first: 1) { nodes { oid } }
          }
        }
      }
    }
  }
}
` + gitActorFragment

type ancestryRepo struct {
	PullRequest *struct {
		Commits struct {
			Nodes []*struct {
				Commit struct {
					Oid       string
					Author    gitActor
					Committer gitActor
					Parents   struct {
						Nodes []*struct{ Oid string }
					}
				}
			}
		}
	}
}

// Ancestry reads the newest commits on PR number's head, each with its
// first parent: 1 point. An answer in error or in part fails the read: the
// PR is left untouched.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#pullrequest (commits)
func (c *graphQL) Ancestry(ctx context.Context, number int) ([]lifecycle.Commit, error) {
	q, errs, err := ask[inRepository[ancestryRepo]](ctx, c, false, ancestryQuery,
		map[string]any{"owner": c.owner, "name": c.repo, "number": number})
	var out *ancestryRepo
	if err == nil {
		out = q.repo()
	}
	switch {
	case err != nil:
	case len(errs) > 0:
		err = fmt.Errorf("GitHub's answer has errors: %s", errs)
	case out.PullRequest == nil:
		err = fmt.Errorf("GitHub's answer names no pull request #%d", number)
	case len(out.PullRequest.Commits.Nodes) == 0:
		err = fmt.Errorf("GitHub's answer names no commit") // a PR has one at least
	}
	if err != nil {
		return nil, c.fail(opRead, err, "read the head commits of #%d", number)
	}
	var commits []lifecycle.Commit
	for _, n := range out.PullRequest.Commits.Nodes {
		if n == nil {
			return nil, c.fail(opRead, fmt.Errorf("GitHub's answer left a commit out"), "read the head commits of #%d", number)
		}
		k := n.Commit
		lc := lifecycle.Commit{SHA: k.Oid, Author: k.Author.login(), Committer: k.Committer.login(),
			Bot: k.Author.person().isBot() || k.Committer.person().isBot()}
		if len(k.Parents.Nodes) > 0 && k.Parents.Nodes[0] != nil {
			lc.Parent = k.Parents.Nodes[0].Oid
		}
		commits = append(commits, lc)
	}
	return commits, nil
}
