package ghapi

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
)

const collaboratorsQuery = `query($owner: String!, $name: String!, $after: String) {
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
    collaborators(first: 100, after: $after, affiliation: ALL) {
      totalCount
      edges { permission node { login } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

// collaboratorsRepo is the answer's repository: Collaborators nil when
// GitHub answered the field null.
type collaboratorsRepo struct {
	Collaborators *collaboratorsPage
}

type collaboratorsPage struct {
	TotalCount int
	Edges      []*struct {
		Permission string
		Node       struct{ Login string }
	}
	PageInfo struct {
		HasNextPage bool
		EndCursor   string
	}
}

// Collaborators reads who may push to the repository: every account with
// access (affiliation ALL: direct and outside collaborators, organisation
// members through teams or the base permission, owners) and its
// permission, 100 a query (one point each). GitHub answers the field null
// with FORBIDDEN to a token that may not list them: that refusal is
// api.ErrPermissionRefused, so the caller falls back to reading an
// account's permission. A null edge is an account not read: the listing
// fails rather than say no for it. complete is false when the pages end
// short of GitHub's own totalCount, or say there is more and give no
// cursor to it: an account the listing does not hold may then have access
// all the same.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#repository (collaborators)
func (c *graphQL) Collaborators(ctx context.Context) (access map[string]lifecycle.Access, complete bool, err error) {
	out := map[string]lifecycle.Access{}
	seen := map[string]bool{}
	var pages api.Pages
	read, total, complete := 0, 0, true
	for after, first := "", true; first || after != ""; first = false {
		if seen[after] {
			return nil, false, c.fail(opRead, errors.New("GitHub's pages loop: the collaborators' cursor points back to a page already read"), "list the repository's collaborators")
		}
		seen[after] = true
		cs, err := c.readCollaborators(ctx, after)
		if err != nil {
			return nil, false, err
		}
		for _, e := range cs.Edges {
			if e == nil || e.Node.Login == "" {
				return nil, false, c.fail(opRead, errors.New("GitHub's answer has a null collaborator"), "list the repository's collaborators")
			}
			out[strings.ToLower(e.Node.Login)] = accessOfPermission(e.Permission)
		}
		read, total = read+len(cs.Edges), max(total, cs.TotalCount)
		after = ""
		if cs.PageInfo.HasNextPage {
			after = cs.PageInfo.EndCursor
			complete = complete && after != ""
		}
		if err := pages.Next(len(cs.Edges), 100, cs.TotalCount+100, after != "" && !seen[after]); err != nil {
			return nil, false, c.fail(opRead, err, "list the repository's collaborators")
		}
	}
	return out, complete && read >= total, nil
}

// readCollaborators reads one page of the listing, after the cursor after.
func (c *graphQL) readCollaborators(ctx context.Context, after string) (*collaboratorsPage, error) {
	vars := map[string]any{"owner": c.owner, "name": c.repo, "after": cursorOf(after)}
	q, errs, err := ask[inRepository[collaboratorsRepo]](ctx, c, false, collaboratorsQuery, vars)
	for _, e := range errs {
		if refusesListing(e) && err == nil {
			return nil, fmt.Errorf("%w: list the repository's collaborators: %s", api.ErrPermissionRefused, e.Message)
		}
	}
	switch {
	case err == nil && len(errs) > 0:
		err = fmt.Errorf("GitHub's answer has errors: %s", errs)
	case err == nil && q.repo().Collaborators == nil:
		err = errors.New("GitHub's answer holds no collaborators and names no error")
	}
	if err != nil {
		return nil, c.fail(opRead, err, "list the repository's collaborators")
	}
	return q.repo().Collaborators, nil
}

// refusesListing reports GitHub's refusal to list the collaborators to
// this token: FORBIDDEN (no write access), NOT_FOUND (what it may not see
// it does not name), INSUFFICIENT_SCOPES (a classic token without repo and
// read:org).
func refusesListing(e gqlError) bool {
	switch e.Type {
	case "FORBIDDEN", "NOT_FOUND", "INSUFFICIENT_SCOPES":
		return true
	}
	return false
}

// accessOfPermission is GraphQL's RepositoryPermission as write access:
// ADMIN, MAINTAIN and WRITE may push (a custom role answers its base
// role); an unknown word is unknown (the sweep then reads that account's
// permission).
func accessOfPermission(p string) lifecycle.Access {
	switch strings.ToUpper(p) {
	case "ADMIN", "MAINTAIN", "WRITE":
		return lifecycle.AccessWrite
	case "READ", "TRIAGE":
		return lifecycle.AccessNone
	}
	return lifecycle.AccessUnknown
}
