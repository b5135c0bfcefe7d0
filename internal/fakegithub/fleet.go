package fakegithub

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// This file serves what the fleet, close-action: draft and exempt-approved
// read and write: the repositories an App installation
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
	rec := s.db.mustGet(n)
	for i := range rec.events {
		if rec.events[i].ID == reviewID && rec.events[i].Type == EventReviewed {
			rec.events[i].ReviewState = "DISMISSED"
			s.db.addEventLocked(rec, Event{Type: EventReviewDismissed, Actor: u, At: at})
			return
		}
	}
	panic(fmt.Sprintf("fakegithub: #%d has no review %d", n, reviewID))
}

func (h rest) getContents(c *call) reply {
	path := c.params["path"]
	content, found := h.s.files[path]
	if !found {
		return notFound()
	}
	name := path[strings.LastIndex(path, "/")+1:]
	sha := fakeSHA("blob:"+path, int64(len(content)))
	u := c.repoURL() + "/contents/" + path + "?ref=" + h.s.defaultBranch
	html := c.repoHTML() + "/blob/" + h.s.defaultBranch + "/" + path
	git := c.repoURL() + "/git/blobs/" + sha
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

func (h rest) listInstallationRepos(c *call) reply {
	type entry struct {
		full string
		r    InstalledRepo
	}
	items := []entry{{full: h.s.owner + "/" + h.s.repo, r: InstalledRepo{Name: h.s.repo}}}
	for _, r := range h.s.installed {
		items = append(items, entry{full: h.s.owner + "/" + r.Name, r: r})
	}
	p := pageOf(c.q)
	lo, hi := p.bounds(len(items))
	repos := make([]*repositoryJSON, 0, hi-lo)
	for _, it := range items[lo:hi] {
		m := c.repository(it.full, it.r.Fork)
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
