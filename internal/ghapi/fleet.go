package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v62/github"
)

// errNotInstallation means GET /installation/repositories needs a GitHub App
// installation token.
var errNotInstallation = errors.New("listing repositories needs a GitHub App installation token " +
	"(actions/create-github-app-token); a personal access token or GITHUB_TOKEN cannot list an installation's repositories")

// Fleet is the fleet's reads, outside the sweep's port: the repositories
// an installation token sees, and a repository's own file of overrides. It
// shares its Client's transport: the same budget, limits and deadline.
type Fleet struct{ c *Client }

// FleetOf is c's fleet reads.
func FleetOf(c *Client) Fleet { return Fleet{c} }

// RepoListOptions select repositories of an installation.
type RepoListOptions struct {
	IncludeArchived bool
	IncludeForks    bool
}

// ListRepositories lists the repositories of owner that the GitHub App
// installation token can see ("owner/name", in GitHub's order), leaving
// out archived and forked ones unless asked: ceil(repositories/100)
// requests.
//
// GitHub API docs: https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation
func (f Fleet) ListRepositories(ctx context.Context, owner string, o RepoListOptions) ([]string, error) {
	c := f.c
	var out []string
	opts := &github.ListOptions{PerPage: perPage}
	for {
		list, resp, err := c.gh.Apps.ListRepos(ctx, opts)
		// A 401 is a bad token of any kind, which classify words; a 403
		// here is a token of the wrong kind.
		if statusOf(err) == http.StatusForbidden {
			return nil, c.redact(fmt.Errorf("list repositories of %s: %w (%v)", owner, errNotInstallation, err))
		}
		if err != nil {
			return nil, c.fail(opRead, err, "list repositories of %s", owner)
		}
		for _, r := range list.Repositories {
			if !strings.EqualFold(r.GetOwner().GetLogin(), owner) ||
				(r.GetArchived() && !o.IncludeArchived) || (r.GetFork() && !o.IncludeForks) {
				continue
			}
			out = append(out, r.GetFullName())
		}
		next, err := nextPage(resp, opts.Page)
		if err != nil {
			return nil, c.fail(opRead, err, "list repositories of %s", owner)
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}

// RepoFile reads a file of the repository's default branch with one
// request; found is false when there is no such file (404).
//
// GitHub API docs: https://docs.github.com/rest/repos/contents#get-repository-content
func (f Fleet) RepoFile(ctx context.Context, path string) (content []byte, found bool, err error) {
	c := f.c
	fc, _, _, err := c.gh.Repositories.GetContents(ctx, c.owner, c.repo, path, nil)
	if IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, c.fail(opFile, err, "read %s", path)
	}
	if fc == nil {
		return nil, false, fmt.Errorf("read %s: it is a directory, want a file", path)
	}
	text, err := fc.GetContent()
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return []byte(text), true, nil
}
