package fakegithub

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// JSON shapes follow GitHub's OpenAPI description (schemas simple-user,
// label, issue, issue-comment, pull-request, timeline-*...). Hot shapes are
// structs; rarely listed ones are maps.

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func tsOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := ts(t)
	return &s
}

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nodeID(kind string, id int64) string {
	return kind + "_" + base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d", id))
}

func userID(login string) int64 {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(login)))
	return 10000 + int64(h.Sum32()%90000000)
}

type userJSON struct {
	Login             string `json:"login"`
	ID                int64  `json:"id"`
	NodeID            string `json:"node_id"`
	AvatarURL         string `json:"avatar_url"`
	GravatarID        string `json:"gravatar_id"`
	URL               string `json:"url"`
	HTMLURL           string `json:"html_url"`
	FollowersURL      string `json:"followers_url"`
	FollowingURL      string `json:"following_url"`
	GistsURL          string `json:"gists_url"`
	StarredURL        string `json:"starred_url"`
	SubscriptionsURL  string `json:"subscriptions_url"`
	OrganizationsURL  string `json:"organizations_url"`
	ReposURL          string `json:"repos_url"`
	EventsURL         string `json:"events_url"`
	ReceivedEventsURL string `json:"received_events_url"`
	Type              string `json:"type"`
	UserViewType      string `json:"user_view_type"`
	SiteAdmin         bool   `json:"site_admin"`
}

func (c *call) user(u User) userJSON {
	key := u.Login + "\x00" + u.Type
	if j, hit := c.userCache[key]; hit {
		return j
	}
	j := c.renderUser(u)
	if c.userCache == nil {
		c.userCache = map[string]userJSON{}
	}
	c.userCache[key] = j
	return j
}

func (c *call) renderUser(u User) userJSON {
	id := userID(u.Login)
	typ := u.Type
	if typ == "" {
		typ = userFor(u.Login).Type
	}
	api := c.api + "/users/" + u.Login
	html := c.html + "/" + u.Login
	if typ == "Bot" {
		html = c.html + "/apps/" + strings.TrimSuffix(u.Login, "[bot]")
	}
	return userJSON{
		Login: u.Login, ID: id, NodeID: nodeID("U", id),
		AvatarURL:  fmt.Sprintf("%s/avatars/u/%d?v=4", c.html, id),
		GravatarID: "", URL: api, HTMLURL: html,
		FollowersURL: api + "/followers", FollowingURL: api + "/following{/other_user}",
		GistsURL: api + "/gists{/gist_id}", StarredURL: api + "/starred{/owner}{/repo}",
		SubscriptionsURL: api + "/subscriptions", OrganizationsURL: api + "/orgs",
		ReposURL: api + "/repos", EventsURL: api + "/events{/privacy}",
		ReceivedEventsURL: api + "/received_events", Type: typ, UserViewType: "public",
	}
}

func (c *call) users(logins []string) []userJSON {
	out := make([]userJSON, 0, len(logins))
	for _, l := range logins {
		out = append(out, c.user(userFor(l)))
	}
	return out
}

type labelJSON struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	URL         string  `json:"url"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Default     bool    `json:"default"`
	Description *string `json:"description"`
}

func (s *Server) label(c *call, name string) labelJSON {
	l := s.labelFor(name)
	return labelJSON{ID: l.ID, NodeID: nodeID("LA", l.ID),
		URL:  s.repoURL(c) + "/labels/" + pathEscape(l.Name),
		Name: l.Name, Color: l.Color, Description: strOrNil(l.Description)}
}

func (s *Server) labelList(c *call, names []string) []labelJSON {
	out := make([]labelJSON, 0, len(names))
	for _, n := range names {
		out = append(out, s.label(c, n))
	}
	return out
}

func pathEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(s, "%", "%25"), "/", "%2F"), " ", "%20")
}

type milestoneJSON struct {
	URL          string   `json:"url"`
	HTMLURL      string   `json:"html_url"`
	LabelsURL    string   `json:"labels_url"`
	ID           int64    `json:"id"`
	NodeID       string   `json:"node_id"`
	Number       int      `json:"number"`
	State        string   `json:"state"`
	Title        string   `json:"title"`
	Description  *string  `json:"description"`
	Creator      userJSON `json:"creator"`
	OpenIssues   int      `json:"open_issues"`
	ClosedIssues int      `json:"closed_issues"`
	CreatedAt    string   `json:"created_at"`
	UpdatedAt    string   `json:"updated_at"`
	ClosedAt     *string  `json:"closed_at"`
	DueOn        *string  `json:"due_on"`
}

func (s *Server) milestone(c *call, title string) *milestoneJSON {
	if title == "" {
		return nil
	}
	n := s.milestoneNumber(title)
	id := int64(3000 + n)
	created := ts(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	return &milestoneJSON{
		URL: fmt.Sprintf("%s/milestones/%d", s.repoURL(c), n), HTMLURL: fmt.Sprintf("%s/milestone/%d", s.repoHTML(c), n),
		LabelsURL: fmt.Sprintf("%s/milestones/%d/labels", s.repoURL(c), n), ID: id, NodeID: nodeID("MI", id),
		Number: n, State: "open", Title: title, Creator: c.user(Person(s.owner)),
		CreatedAt: created, UpdatedAt: created,
	}
}

type reactionsJSON struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Hooray     int    `json:"hooray"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Rocket     int    `json:"rocket"`
	Eyes       int    `json:"eyes"`
}

type prLinkJSON struct {
	URL      string  `json:"url"`
	HTMLURL  string  `json:"html_url"`
	DiffURL  string  `json:"diff_url"`
	PatchURL string  `json:"patch_url"`
	MergedAt *string `json:"merged_at"`
}

type issueJSON struct {
	URL               string         `json:"url"`
	RepositoryURL     string         `json:"repository_url"`
	LabelsURL         string         `json:"labels_url"`
	CommentsURL       string         `json:"comments_url"`
	EventsURL         string         `json:"events_url"`
	HTMLURL           string         `json:"html_url"`
	ID                int64          `json:"id"`
	NodeID            string         `json:"node_id"`
	Number            int            `json:"number"`
	Title             string         `json:"title"`
	User              userJSON       `json:"user"`
	Labels            []labelJSON    `json:"labels"`
	State             string         `json:"state"`
	Locked            bool           `json:"locked"`
	Assignee          *userJSON      `json:"assignee"`
	Assignees         []userJSON     `json:"assignees"`
	Milestone         *milestoneJSON `json:"milestone"`
	Comments          int            `json:"comments"`
	CreatedAt         string         `json:"created_at"`
	UpdatedAt         string         `json:"updated_at"`
	ClosedAt          *string        `json:"closed_at"`
	AuthorAssociation string         `json:"author_association"`
	ActiveLockReason  *string        `json:"active_lock_reason"`
	Draft             *bool          `json:"draft,omitempty"`
	PullRequest       *prLinkJSON    `json:"pull_request,omitempty"`
	Body              *string        `json:"body"`
	ClosedBy          *userJSON      `json:"closed_by,omitempty"`
	Reactions         reactionsJSON  `json:"reactions"`
	TimelineURL       string         `json:"timeline_url"`
	PerformedViaApp   *struct{}      `json:"performed_via_github_app"`
	StateReason       *string        `json:"state_reason"`
}

func (s *Server) repoURL(c *call) string  { return c.api + "/repos/" + s.owner + "/" + s.repo }
func (s *Server) repoHTML(c *call) string { return c.html + "/" + s.owner + "/" + s.repo }

func (s *Server) issueHTML(c *call, is *Issue) string {
	if is.IsPR {
		return fmt.Sprintf("%s/pull/%d", s.repoHTML(c), is.Number)
	}
	return fmt.Sprintf("%s/issues/%d", s.repoHTML(c), is.Number)
}

func (s *Server) association(u User) string {
	switch {
	case strings.EqualFold(u.Login, s.owner):
		return "OWNER"
	case u.Type == "Bot":
		return "NONE"
	case s.members[strings.ToLower(u.Login)]:
		return "MEMBER"
	default:
		return "CONTRIBUTOR"
	}
}

func issueID(n int) int64 { return 100000000 + int64(n) }

// pullNodeID is a pull request's GraphQL node ID. GitHub's issue endpoints
// give a pull request this ID too (not an Issue ID): convertPullRequestToDraft
// takes it.
func pullNodeID(n int) string { return nodeID("PR", issueID(n)+500000000) }

func (s *Server) issue(c *call, rec *issueRec, withClosedBy bool) issueJSON {
	is := &rec.Issue
	url := fmt.Sprintf("%s/issues/%d", s.repoURL(c), is.Number)
	id := issueID(is.Number)
	out := issueJSON{
		URL: url, RepositoryURL: s.repoURL(c), LabelsURL: url + "/labels{/name}",
		CommentsURL: url + "/comments", EventsURL: url + "/events", HTMLURL: s.issueHTML(c, is),
		ID: id, NodeID: nodeID("I", id), Number: is.Number, Title: is.Title,
		User: c.user(is.User), Labels: s.labelList(c, is.Labels), State: is.State, Locked: is.Locked,
		Assignees: c.users(is.Assignees), Milestone: s.milestone(c, is.Milestone),
		Comments: len(rec.comments), CreatedAt: ts(is.CreatedAt), UpdatedAt: ts(is.UpdatedAt),
		ClosedAt: tsOrNil(is.ClosedAt), AuthorAssociation: s.association(is.User),
		Body:        strOrNil(is.Body),
		Reactions:   reactionsJSON{URL: url + "/reactions"},
		TimelineURL: url + "/timeline", StateReason: strOrNil(is.StateReason),
	}
	if len(out.Assignees) > 0 {
		a := out.Assignees[0]
		out.Assignee = &a
	}
	if is.IsPR {
		out.NodeID = pullNodeID(is.Number)
		d := is.Draft
		out.Draft = &d
		pu := fmt.Sprintf("%s/pulls/%d", s.repoURL(c), is.Number)
		hu := s.issueHTML(c, is)
		out.PullRequest = &prLinkJSON{URL: pu, HTMLURL: hu, DiffURL: hu + ".diff", PatchURL: hu + ".patch", MergedAt: tsOrNil(is.MergedAt)}
	}
	if withClosedBy && is.State == "closed" {
		for i := len(rec.events) - 1; i >= 0; i-- {
			if rec.events[i].Type == EventClosed {
				u := c.user(rec.events[i].Actor)
				out.ClosedBy = &u
				break
			}
		}
	}
	return out
}

type commentJSON struct {
	URL               string        `json:"url"`
	HTMLURL           string        `json:"html_url"`
	IssueURL          string        `json:"issue_url"`
	ID                int64         `json:"id"`
	NodeID            string        `json:"node_id"`
	User              userJSON      `json:"user"`
	CreatedAt         string        `json:"created_at"`
	UpdatedAt         string        `json:"updated_at"`
	AuthorAssociation string        `json:"author_association"`
	Body              string        `json:"body"`
	Reactions         reactionsJSON `json:"reactions"`
	PerformedViaApp   *struct{}     `json:"performed_via_github_app"`
}

func (s *Server) comment(c *call, cm Comment, isPR bool) commentJSON {
	url := fmt.Sprintf("%s/issues/comments/%d", s.repoURL(c), cm.ID)
	kind := "issues"
	if isPR {
		kind = "pull"
	}
	return commentJSON{
		URL: url, HTMLURL: fmt.Sprintf("%s/%s/%d#issuecomment-%d", s.repoHTML(c), kind, cm.Issue, cm.ID),
		IssueURL: fmt.Sprintf("%s/issues/%d", s.repoURL(c), cm.Issue), ID: cm.ID, NodeID: nodeID("IC", cm.ID),
		User: c.user(cm.User), CreatedAt: ts(cm.CreatedAt), UpdatedAt: ts(cm.UpdatedAt),
		AuthorAssociation: s.association(cm.User), Body: cm.Body, Reactions: reactionsJSON{URL: url + "/reactions"},
	}
}

// repository renders a full-repository object (also valid as repository).
func (s *Server) repository(c *call, fullName string, fork bool) map[string]any {
	owner, name, _ := strings.Cut(fullName, "/")
	api := c.api + "/repos/" + fullName
	html := c.html + "/" + fullName
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(fullName)))
	id := int64(200000 + h.Sum32()%1000000)
	created := ts(time.Date(2019, 3, 1, 12, 0, 0, 0, time.UTC))
	openCount := 0
	if !fork {
		for _, rec := range s.issues {
			if rec.State == "open" {
				openCount++
			}
		}
	}
	defBranch := s.defaultBranch
	return map[string]any{
		"id": id, "node_id": nodeID("R", id), "name": name, "full_name": fullName,
		"owner": c.user(Person(owner)), "private": false, "html_url": html, "description": "Widgets, and the tools to make them.",
		"fork": fork, "url": api,
		"archive_url":       api + "/{archive_format}{/ref}",
		"assignees_url":     api + "/assignees{/user}",
		"blobs_url":         api + "/git/blobs{/sha}",
		"branches_url":      api + "/branches{/branch}",
		"collaborators_url": api + "/collaborators{/collaborator}",
		"comments_url":      api + "/comments{/number}",
		"commits_url":       api + "/commits{/sha}",
		"compare_url":       api + "/compare/{base}...{head}",
		"contents_url":      api + "/contents/{+path}",
		"contributors_url":  api + "/contributors",
		"deployments_url":   api + "/deployments",
		"downloads_url":     api + "/downloads",
		"events_url":        api + "/events",
		"forks_url":         api + "/forks",
		"git_commits_url":   api + "/git/commits{/sha}",
		"git_refs_url":      api + "/git/refs{/sha}",
		"git_tags_url":      api + "/git/tags{/sha}",
		"git_url":           "git://" + strings.TrimPrefix(strings.TrimPrefix(c.html, "https://"), "http://") + "/" + fullName + ".git",
		"issue_comment_url": api + "/issues/comments{/number}",
		"issue_events_url":  api + "/issues/events{/number}",
		"issues_url":        api + "/issues{/number}",
		"keys_url":          api + "/keys{/key_id}",
		"labels_url":        api + "/labels{/name}",
		"languages_url":     api + "/languages",
		"merges_url":        api + "/merges",
		"milestones_url":    api + "/milestones{/number}",
		"notifications_url": api + "/notifications{?since,all,participating}",
		"pulls_url":         api + "/pulls{/number}",
		"releases_url":      api + "/releases{/id}",
		"ssh_url":           "git@" + strings.TrimPrefix(strings.TrimPrefix(c.html, "https://"), "http://") + ":" + fullName + ".git",
		"stargazers_url":    api + "/stargazers",
		"statuses_url":      api + "/statuses/{sha}",
		"subscribers_url":   api + "/subscribers",
		"subscription_url":  api + "/subscription",
		"tags_url":          api + "/tags",
		"teams_url":         api + "/teams",
		"trees_url":         api + "/git/trees{/sha}",
		"clone_url":         html + ".git",
		"mirror_url":        nil,
		"hooks_url":         api + "/hooks",
		"svn_url":           html,
		"homepage":          nil,
		"language":          "Go",
		"forks_count":       0, "forks": 0,
		"stargazers_count": 0, "watchers_count": 0, "watchers": 0,
		"size": 1024, "default_branch": defBranch,
		"open_issues_count": openCount, "open_issues": openCount,
		"is_template": false, "topics": []string{},
		"has_issues": true, "has_projects": true, "has_wiki": true, "has_pages": false,
		"has_downloads": true, "has_discussions": false, "archived": false, "disabled": false,
		"visibility": "public", "pushed_at": created, "created_at": created, "updated_at": created,
		"allow_forking": true, "web_commit_signoff_required": false,
		"license": nil, "network_count": 0, "subscribers_count": 0,
		"permissions": map[string]bool{"admin": false, "maintain": false, "push": true, "triage": true, "pull": true},
	}
}

func (s *Server) team(c *call, slug string) map[string]any {
	h := fnv.New32a()
	h.Write([]byte(slug))
	id := int64(700000 + h.Sum32()%100000)
	api := fmt.Sprintf("%s/organizations/1/team/%d", c.api, id)
	return map[string]any{
		"id": id, "node_id": nodeID("T", id), "url": api, "html_url": c.html + "/orgs/" + s.owner + "/teams/" + slug,
		"name": slug, "slug": slug, "description": nil, "privacy": "closed", "notification_setting": "notifications_enabled",
		"permission": "pull", "members_url": api + "/members{/member}", "repositories_url": api + "/repos",
		"parent": nil, "type": "organization",
	}
}

func (s *Server) teams(c *call, slugs []string) []map[string]any {
	out := make([]map[string]any, 0, len(slugs))
	for _, t := range slugs {
		out = append(out, s.team(c, t))
	}
	return out
}

func (s *Server) pullSimple(c *call, rec *issueRec) map[string]any {
	is := &rec.Issue
	pu := fmt.Sprintf("%s/pulls/%d", s.repoURL(c), is.Number)
	iu := fmt.Sprintf("%s/issues/%d", s.repoURL(c), is.Number)
	hu := s.issueHTML(c, is)
	id := issueID(is.Number) + 500000000 // as pullNodeID
	var assignee any
	assignees := c.users(is.Assignees)
	if len(assignees) > 0 {
		assignee = assignees[0]
	}
	var mergeSHA any
	if !is.MergedAt.IsZero() {
		mergeSHA = fakeSHA("merge", int64(is.Number))
	}
	var ms any
	if m := s.milestone(c, is.Milestone); m != nil {
		ms = m
	}
	link := func(h string) map[string]string { return map[string]string{"href": h} }
	return map[string]any{
		"url": pu, "id": id, "node_id": nodeID("PR", id), "html_url": hu, "diff_url": hu + ".diff", "patch_url": hu + ".patch",
		"issue_url": iu, "commits_url": pu + "/commits", "review_comments_url": pu + "/comments",
		"review_comment_url": s.repoURL(c) + "/pulls/comments{/number}", "comments_url": iu + "/comments",
		"statuses_url": s.repoURL(c) + "/statuses/" + is.HeadSHA,
		"number":       is.Number, "state": is.State, "locked": is.Locked, "title": is.Title,
		"user": c.user(is.User), "body": strOrNil(is.Body), "labels": s.labelList(c, is.Labels),
		"milestone": ms, "active_lock_reason": nil,
		"created_at": ts(is.CreatedAt), "updated_at": ts(is.UpdatedAt), "closed_at": tsOrNil(is.ClosedAt),
		"merged_at": tsOrNil(is.MergedAt), "merge_commit_sha": mergeSHA,
		"assignee": assignee, "assignees": assignees,
		"requested_reviewers": c.users(is.RequestedReviewers), "requested_teams": s.teams(c, is.RequestedTeams),
		"head": s.head(c, is), "base": s.base(c, is),
		"_links": map[string]any{
			"self": link(pu), "html": link(hu), "issue": link(iu), "comments": link(iu + "/comments"),
			"review_comments": link(pu + "/comments"), "review_comment": link(s.repoURL(c) + "/pulls/comments{/number}"),
			"commits": link(pu + "/commits"), "statuses": link(s.repoURL(c) + "/statuses/" + is.HeadSHA),
		},
		"author_association": s.association(is.User), "auto_merge": nil, "draft": is.Draft,
	}
}

func (s *Server) pullFull(c *call, rec *issueRec) map[string]any {
	m := s.pullSimple(c, rec)
	is := &rec.Issue
	commits, reviewComments := 0, 0
	var mergedBy any
	for _, e := range rec.events {
		switch e.Type {
		case EventCommitted:
			commits++
		case EventLineCommented:
			reviewComments += len(e.LineComments)
		case EventMerged:
			mergedBy = c.user(e.Actor)
		}
	}
	m["merged"] = !is.MergedAt.IsZero()
	m["mergeable"] = nil
	m["rebaseable"] = nil
	m["mergeable_state"] = "unknown"
	m["merged_by"] = mergedBy
	m["comments"] = len(rec.comments)
	m["review_comments"] = reviewComments
	m["maintainer_can_modify"] = false
	m["commits"] = max(commits, 1)
	m["additions"] = 10
	m["deletions"] = 2
	m["changed_files"] = 1
	return m
}

func (s *Server) head(c *call, is *Issue) map[string]any {
	full := is.HeadRepo
	if full == "" {
		full = s.FullName()
	}
	owner, _, _ := strings.Cut(full, "/")
	out := map[string]any{"ref": is.HeadRef, "sha": is.HeadSHA, "label": owner + ":" + is.HeadRef}
	if is.HeadRepoDeleted {
		out["repo"] = nil
		out["user"] = c.user(is.User)
		out["label"] = "unknown:" + is.HeadRef
		return out
	}
	out["repo"] = s.repository(c, full, is.HeadRepo != "")
	out["user"] = c.user(Person(owner))
	return out
}

func (s *Server) base(c *call, is *Issue) map[string]any {
	return map[string]any{
		"ref": is.BaseRef, "sha": fakeSHA("base", int64(is.Number)), "label": s.owner + ":" + is.BaseRef,
		"repo": s.repository(c, s.FullName(), false), "user": c.user(Person(s.owner)),
	}
}

// issueEvent renders an event in the issue-event shape used by the
// timeline and the events endpoint (labeled, closed, renamed...).
func (s *Server) issueEvent(c *call, e Event) map[string]any {
	m := map[string]any{
		"id": e.ID, "node_id": nodeID("E", e.ID), "url": fmt.Sprintf("%s/issues/events/%d", s.repoURL(c), e.ID),
		"actor": c.user(e.Actor), "event": e.Type, "commit_id": nil, "commit_url": nil,
		"created_at": ts(e.At), "performed_via_github_app": nil,
	}
	switch e.Type {
	case EventLabeled, EventUnlabeled:
		m["label"] = map[string]string{"name": e.Label, "color": s.labelFor(e.Label).Color}
	case EventClosed:
		m["state_reason"] = strOrNil(e.StateReason)
	case EventReopened:
		m["state_reason"] = nil
	case EventRenamed:
		m["rename"] = map[string]string{"from": e.RenameFrom, "to": e.RenameTo}
	case EventReviewRequested, EventReviewRequestRemoved:
		m["review_requester"] = c.user(e.Actor)
		if e.Team != "" {
			m["requested_team"] = s.team(c, e.Team)
		} else {
			m["requested_reviewer"] = c.user(userFor(e.Reviewer))
		}
	case EventMerged, EventHeadRefForcePushed:
		if e.SHA != "" {
			m["commit_id"] = e.SHA
			m["commit_url"] = s.repoURL(c) + "/commits/" + e.SHA
		}
	}
	return m
}

func reviewStateTimeline(st string) string { return strings.ToLower(st) }

func (s *Server) review(c *call, n int, e Event, timeline bool) map[string]any {
	hu := fmt.Sprintf("%s/pull/%d#pullrequestreview-%d", s.repoHTML(c), n, e.ID)
	pu := fmt.Sprintf("%s/pulls/%d", s.repoURL(c), n)
	state := e.ReviewState
	if timeline {
		state = reviewStateTimeline(state)
	}
	m := map[string]any{
		"id": e.ID, "node_id": nodeID("PRR", e.ID), "user": c.user(e.Actor), "body": e.Body, "state": state,
		"html_url": hu, "pull_request_url": pu, "author_association": s.association(e.Actor),
		"_links":       map[string]any{"html": map[string]string{"href": hu}, "pull_request": map[string]string{"href": pu}},
		"submitted_at": ts(e.At), "commit_id": fakeSHA("head", int64(n)),
	}
	if timeline {
		m["event"] = EventReviewed
	}
	return m
}

func (s *Server) commit(c *call, e Event) map[string]any {
	git := map[string]string{"name": e.AuthorName, "email": e.AuthorEmail, "date": ts(e.At)}
	parent := e.Parent
	if parent == "" {
		parent = fakeSHA("parent", e.ID)
	}
	return map[string]any{
		"event": EventCommitted, "sha": e.SHA, "node_id": nodeID("C", e.ID),
		"url":      s.repoURL(c) + "/git/commits/" + e.SHA,
		"html_url": s.repoHTML(c) + "/commit/" + e.SHA,
		"author":   git, "committer": git, "message": e.Message,
		"tree": map[string]string{"sha": fakeSHA("tree", e.ID), "url": s.repoURL(c) + "/git/trees/" + fakeSHA("tree", e.ID)},
		"parents": []map[string]string{{"sha": parent, "url": s.repoURL(c) + "/git/commits/" + parent,
			"html_url": s.repoHTML(c) + "/commit/" + parent}},
		"verification": map[string]any{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil, "verified_at": nil},
	}
}

func (s *Server) lineComment(c *call, n int, e Event, lc LineComment) map[string]any {
	url := fmt.Sprintf("%s/pulls/comments/%d", s.repoURL(c), lc.ID)
	hu := fmt.Sprintf("%s/pull/%d#discussion_r%d", s.repoHTML(c), n, lc.ID)
	pu := fmt.Sprintf("%s/pulls/%d", s.repoURL(c), n)
	sha := fakeSHA("head", int64(n))
	return map[string]any{
		"url": url, "id": lc.ID, "node_id": nodeID("PRRC", lc.ID), "pull_request_review_id": e.ID,
		"diff_hunk": "@@ -1,3 +1,4 @@", "path": lc.Path, "commit_id": sha, "original_commit_id": sha,
		"user": c.user(lc.User), "body": lc.Body, "created_at": ts(lc.CreatedAt), "updated_at": ts(lc.CreatedAt),
		"html_url": hu, "pull_request_url": pu, "author_association": s.association(lc.User),
		"_links": map[string]any{"self": map[string]string{"href": url}, "html": map[string]string{"href": hu},
			"pull_request": map[string]string{"href": pu}},
		"line": 2, "original_line": 2, "side": "RIGHT", "subject_type": "line", "start_line": nil, "start_side": nil,
		"reactions": reactionsJSON{URL: url + "/reactions"},
	}
}

func (s *Server) timelineItem(c *call, rec *issueRec, it TimelineItem) any {
	switch it.Type {
	case EventCommented:
		cj := s.comment(c, it.Comment, rec.IsPR)
		return map[string]any{
			"event": EventCommented, "actor": cj.User, "id": cj.ID, "node_id": cj.NodeID, "url": cj.URL,
			"html_url": cj.HTMLURL, "issue_url": cj.IssueURL, "user": cj.User, "created_at": cj.CreatedAt,
			"updated_at": cj.UpdatedAt, "author_association": cj.AuthorAssociation, "body": cj.Body,
			"reactions": cj.Reactions, "performed_via_github_app": nil,
		}
	case EventReviewed:
		return s.review(c, rec.Number, it.Event, true)
	case EventCommitted:
		return s.commit(c, it.Event)
	case EventLineCommented:
		cs := make([]map[string]any, 0, len(it.Event.LineComments))
		for _, lc := range it.Event.LineComments {
			cs = append(cs, s.lineComment(c, rec.Number, it.Event, lc))
		}
		return map[string]any{"event": EventLineCommented, "node_id": nodeID("PRRT", it.Event.ID), "comments": cs}
	default:
		return s.issueEvent(c, it.Event)
	}
}
