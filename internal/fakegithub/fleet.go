package fakegithub

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// This file serves what issue 12 added: the repositories an App installation
// sees, a file's contents, the GraphQL mutation convertPullRequestToDraft,
// and dismissed reviews.

const (
	docContents     = "https://docs.github.com/rest/repos/contents#get-repository-content"
	docInstallRepos = "https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation"
	docGraphQL      = "https://docs.github.com/graphql"
)

// InstalledRepo is another repository the installation token can see, for
// GET /installation/repositories. The server's own repository is always
// listed first.
type InstalledRepo struct {
	Name     string // repository name; the owner is the server's
	Archived bool
	Fork     bool
	Private  bool
}

// AddInstalledRepo adds repositories to the installation's listing.
func (s *Server) AddInstalledRepo(repos ...InstalledRepo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.installed = append(s.installed, repos...)
}

// SetFile stores a file of the default branch, served base64-encoded by
// GET /repos/{owner}/{repo}/contents/{path}. A nil content removes it.
func (s *Server) SetFile(path string, content []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	if content == nil {
		delete(s.files, path)
		return
	}
	s.files[path] = slices.Clone(content)
}

// SetDraftForbidden makes the GraphQL mutation convertPullRequestToDraft
// answer as GitHub does for a workflow's GITHUB_TOKEN: HTTP 200 with a
// FORBIDDEN error, "Resource not accessible by integration".
func (s *Server) SetDraftForbidden(forbidden bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draftForbidden = forbidden
}

// PullNodeID is the GraphQL node ID of pull request n, as the issue and
// pull request endpoints give it.
func (s *Server) PullNodeID(n int) string { return pullNodeID(n) }

// DismissReview dismisses a review as u: GitHub rewrites the review's state
// to DISMISSED (in the reviews listing and the timeline) and records a
// review_dismissed event.
func (s *Server) DismissReview(n int, reviewID int64, u User, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.mustGet(n)
	for i := range rec.events {
		if rec.events[i].ID == reviewID && rec.events[i].Type == EventReviewed {
			rec.events[i].ReviewState = "DISMISSED"
			s.addEventLocked(rec, Event{Type: EventReviewDismissed, Actor: u, At: at})
			return
		}
	}
	panic(fmt.Sprintf("fakegithub: #%d has no review %d", n, reviewID))
}

func (s *Server) getContents(c *call) reply {
	path := c.params["path"]
	content, found := s.files[path]
	if !found {
		return notFound()
	}
	name := path[strings.LastIndex(path, "/")+1:]
	sha := fakeSHA("blob:"+path, int64(len(content)))
	u := s.repoURL(c) + "/contents/" + path + "?ref=" + s.defaultBranch
	html := s.repoHTML(c) + "/blob/" + s.defaultBranch + "/" + path
	git := s.repoURL(c) + "/git/blobs/" + sha
	// GitHub wraps the base64 text at 60 characters with "\n".
	enc := base64.StdEncoding.EncodeToString(content)
	var lines []string
	for len(enc) > 60 {
		lines = append(lines, enc[:60])
		enc = enc[60:]
	}
	lines = append(lines, enc)
	return ok(map[string]any{
		"type": "file", "encoding": "base64", "size": len(content), "name": name, "path": path,
		"content": strings.Join(lines, "\n") + "\n", "sha": sha, "url": u, "git_url": git, "html_url": html,
		"download_url": strings.Replace(html, "/blob/", "/raw/", 1),
		"_links":       map[string]string{"self": u, "git": git, "html": html},
	})
}

func (s *Server) listInstallationRepos(c *call) reply {
	type entry struct {
		full string
		r    InstalledRepo
	}
	items := []entry{{full: s.owner + "/" + s.repo, r: InstalledRepo{Name: s.repo}}}
	for _, r := range s.installed {
		items = append(items, entry{full: s.owner + "/" + r.Name, r: r})
	}
	p := pageOf(c.q)
	lo, hi := p.bounds(len(items))
	repos := make([]*repositoryJSON, 0, hi-lo)
	for _, it := range items[lo:hi] {
		m := s.repository(c, it.full, it.r.Fork)
		m.Archived = it.r.Archived
		m.Private = it.r.Private
		if it.r.Private {
			m.Visibility = "private"
		}
		repos = append(repos, m)
	}
	rep := ok(map[string]any{"total_count": len(items), "repository_selection": "all", "repositories": repos})
	if l := link(c, p, len(items)); l != "" {
		rep.header = http.Header{"Link": {l}}
	}
	return rep
}

type gqlError struct {
	Type      string         `json:"type,omitempty"`
	Path      []string       `json:"path,omitempty"`
	Locations []gqlLocation  `json:"locations"`
	Message   string         `json:"message"`
	Ext       map[string]any `json:"extensions,omitempty"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// graphql serves the one GraphQL operation stalepr sends:
//
//	mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { ... } }
//
// with the pull request's node ID in a variable. GitHub answers GraphQL
// errors with HTTP 200 and an "errors" array, and so does the fake. Already
// a draft: the PR is returned unchanged and no event is recorded.
func (s *Server) graphql(c *call) reply {
	rep := s.graphqlReply(c)
	// GitHub counts GraphQL in its own rate-limit resource. The fake keeps
	// one counter, but names the resource as GitHub does.
	rep.header = http.Header{"X-Ratelimit-Resource": {"graphql"}}
	return rep
}

// isGraphQLQuery reports a GraphQL request that only reads: a query (the
// keyword "query" or an anonymous "{ ... }"), not a mutation.
func isGraphQLQuery(body []byte) bool {
	var req struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(body, &req) != nil {
		return false
	}
	q := strings.TrimSpace(req.Query)
	return strings.HasPrefix(q, "query") || strings.HasPrefix(q, "{")
}

// getViewer answers the query { viewer { login } } as GitHub does for each
// kind of token: the token's own account, whatever it is. A personal token
// gets its user's login; the workflow's GITHUB_TOKEN (an installation token
// of the GitHub Actions app) github-actions[bot]; a GitHub App's
// installation token its app's bot, APP-SLUG[bot]. (REST's GET /user, which
// the client does not send, refuses both installation tokens alike with
// 403 "Resource not accessible by integration".)
func (s *Server) getViewer() reply {
	return ok(map[string]any{"data": map[string]any{"viewer": map[string]any{"login": s.identity.Login}}})
}

func (s *Server) graphqlReply(c *call) reply {
	var req struct {
		Query     string                     `json:"query"`
		Variables map[string]json.RawMessage `json:"variables"`
	}
	if err := json.Unmarshal(c.body, &req); err != nil || strings.TrimSpace(req.Query) == "" {
		return reply{status: http.StatusBadRequest, body: map[string]any{
			"message": "Problems parsing JSON", "documentation_url": docGraphQL}}
	}
	if isGraphQLQuery(c.body) && strings.Contains(req.Query, "viewer") {
		return s.getViewer()
	}
	const field = "convertPullRequestToDraft"
	loc := []gqlLocation{{Line: 1, Column: max(strings.Index(req.Query, field)+1, 1)}}
	if !strings.HasPrefix(strings.TrimSpace(req.Query), "mutation") || !strings.Contains(req.Query, field) {
		return ok(map[string]any{"errors": []gqlError{{Locations: loc,
			Message: "fakegithub serves only the mutation " + field}}})
	}
	fail := func(typ, msg string) reply {
		return ok(map[string]any{"data": map[string]any{field: nil},
			"errors": []gqlError{{Type: typ, Path: []string{field}, Locations: loc, Message: msg}}})
	}
	var id string
	for _, raw := range req.Variables {
		var v string
		if json.Unmarshal(raw, &v) == nil && v != "" {
			id = v
			break
		}
	}
	var rec *issueRec
	for _, r := range s.issues {
		if r.IsPR && pullNodeID(r.Number) == id {
			rec = r
			break
		}
	}
	switch {
	case rec == nil:
		return fail("NOT_FOUND", fmt.Sprintf("Could not resolve to a node with the global id of '%s'", id))
	case s.draftForbidden:
		return fail("FORBIDDEN", "Resource not accessible by integration")
	}
	if !rec.Draft {
		s.setDraftLocked(rec, s.identity, c.now, true)
	}
	return ok(map[string]any{"data": map[string]any{field: map[string]any{
		"pullRequest": map[string]any{"id": id, "number": rec.Number, "isDraft": true}}}})
}
