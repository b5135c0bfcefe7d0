package fakegithub

import (
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"strconv"
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

func (c *call) label(name string) labelJSON {
	l := c.s.db.labelFor(name)
	return labelJSON{ID: l.ID, NodeID: nodeID("LA", l.ID),
		URL:  c.repoURL() + "/labels/" + pathEscape(l.Name),
		Name: l.Name, Color: l.Color, Description: strOrNil(l.Description)}
}

func (c *call) labelList(names []string) []labelJSON {
	out := make([]labelJSON, 0, len(names))
	for _, n := range names {
		out = append(out, c.label(n))
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

func (c *call) milestone(title string) *milestoneJSON {
	if title == "" {
		return nil
	}
	n := c.s.db.milestoneNumber(title)
	id := int64(3000 + n)
	created := ts(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	return &milestoneJSON{
		URL: fmt.Sprintf("%s/milestones/%d", c.repoURL(), n), HTMLURL: fmt.Sprintf("%s/milestone/%d", c.repoHTML(), n),
		LabelsURL: fmt.Sprintf("%s/milestones/%d/labels", c.repoURL(), n), ID: id, NodeID: nodeID("MI", id),
		Number: n, State: "open", Title: title, Creator: c.user(Person(c.s.owner)),
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

func (c *call) repoURL() string  { return c.api + "/repos/" + c.s.owner + "/" + c.s.repo }
func (c *call) repoHTML() string { return c.html + "/" + c.s.owner + "/" + c.s.repo }

func (c *call) issueHTML(is *Issue) string {
	if is.IsPR {
		return fmt.Sprintf("%s/pull/%d", c.repoHTML(), is.Number)
	}
	return fmt.Sprintf("%s/issues/%d", c.repoHTML(), is.Number)
}

func (s *Server) association(u User) string {
	switch {
	case strings.EqualFold(u.Login, s.owner):
		return "OWNER"
	case u.Type == "Bot":
		return "NONE"
	case s.members[strings.ToLower(u.Login)]:
		return "MEMBER"
	case s.db.committers[strings.ToLower(u.Login)] || s.permissions[strings.ToLower(u.Login)] != "":
		// GitHub: has committed to the repository (here: opened a pull
		// request in it, or holds a role without being a member).
		return "CONTRIBUTOR"
	default:
		return "NONE"
	}
}

func issueID(n int) int64 { return 100000000 + int64(n) }

// pullNodeID is a pull request's GraphQL node ID. GitHub's issue endpoints
// give a pull request this ID too (not an Issue ID): convertPullRequestToDraft
// takes it.
func pullNodeID(n int) string { return nodeID("PR", issueID(n)+500000000) }

func (c *call) issue(rec *issueRec, withClosedBy bool) issueJSON {
	is := &rec.Issue
	url := fmt.Sprintf("%s/issues/%d", c.repoURL(), is.Number)
	id := issueID(is.Number)
	out := issueJSON{
		URL: url, RepositoryURL: c.repoURL(), LabelsURL: url + "/labels{/name}",
		CommentsURL: url + "/comments", EventsURL: url + "/events", HTMLURL: c.issueHTML(is),
		ID: id, NodeID: nodeID("I", id), Number: is.Number, Title: is.Title,
		User: c.user(is.User), Labels: c.labelList(is.Labels), State: is.State, Locked: is.Locked,
		Assignees: c.users(is.Assignees), Milestone: c.milestone(is.Milestone),
		Comments: len(rec.comments), CreatedAt: ts(is.CreatedAt), UpdatedAt: ts(is.UpdatedAt),
		ClosedAt: tsOrNil(is.ClosedAt), AuthorAssociation: c.s.association(is.User),
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
		pu := fmt.Sprintf("%s/pulls/%d", c.repoURL(), is.Number)
		hu := c.issueHTML(is)
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

func (c *call) comment(cm Comment, isPR bool) commentJSON {
	url := fmt.Sprintf("%s/issues/comments/%d", c.repoURL(), cm.ID)
	kind := "issues"
	if isPR {
		kind = "pull"
	}
	return commentJSON{
		URL: url, HTMLURL: fmt.Sprintf("%s/%s/%d#issuecomment-%d", c.repoHTML(), kind, cm.Issue, cm.ID),
		IssueURL: fmt.Sprintf("%s/issues/%d", c.repoURL(), cm.Issue), ID: cm.ID, NodeID: nodeID("IC", cm.ID),
		User: c.user(cm.User), CreatedAt: ts(cm.CreatedAt), UpdatedAt: ts(cm.UpdatedAt),
		AuthorAssociation: c.s.association(cm.User), Body: cm.Body, Reactions: reactionsJSON{URL: url + "/reactions"},
	}
}

// repositoryJSON is a full-repository object (also valid as repository),
// its fields in sorted key order: the order the fake wrote when it was a
// map, so the bytes stay the same while it encodes several times faster.
type repositoryJSON struct {
	AllowForking             bool            `json:"allow_forking"`
	ArchiveURL               string          `json:"archive_url"`
	Archived                 bool            `json:"archived"`
	AssigneesURL             string          `json:"assignees_url"`
	BlobsURL                 string          `json:"blobs_url"`
	BranchesURL              string          `json:"branches_url"`
	CloneURL                 string          `json:"clone_url"`
	CollaboratorsURL         string          `json:"collaborators_url"`
	CommentsURL              string          `json:"comments_url"`
	CommitsURL               string          `json:"commits_url"`
	CompareURL               string          `json:"compare_url"`
	ContentsURL              string          `json:"contents_url"`
	ContributorsURL          string          `json:"contributors_url"`
	CreatedAt                string          `json:"created_at"`
	DefaultBranch            string          `json:"default_branch"`
	DeploymentsURL           string          `json:"deployments_url"`
	Description              string          `json:"description"`
	Disabled                 bool            `json:"disabled"`
	DownloadsURL             string          `json:"downloads_url"`
	EventsURL                string          `json:"events_url"`
	Fork                     bool            `json:"fork"`
	Forks                    int             `json:"forks"`
	ForksCount               int             `json:"forks_count"`
	ForksURL                 string          `json:"forks_url"`
	FullName                 string          `json:"full_name"`
	GitCommitsURL            string          `json:"git_commits_url"`
	GitRefsURL               string          `json:"git_refs_url"`
	GitTagsURL               string          `json:"git_tags_url"`
	GitURL                   string          `json:"git_url"`
	HasDiscussions           bool            `json:"has_discussions"`
	HasDownloads             bool            `json:"has_downloads"`
	HasIssues                bool            `json:"has_issues"`
	HasPages                 bool            `json:"has_pages"`
	HasProjects              bool            `json:"has_projects"`
	HasWiki                  bool            `json:"has_wiki"`
	Homepage                 *string         `json:"homepage"`
	HooksURL                 string          `json:"hooks_url"`
	HTMLURL                  string          `json:"html_url"`
	ID                       int64           `json:"id"`
	IsTemplate               bool            `json:"is_template"`
	IssueCommentURL          string          `json:"issue_comment_url"`
	IssueEventsURL           string          `json:"issue_events_url"`
	IssuesURL                string          `json:"issues_url"`
	KeysURL                  string          `json:"keys_url"`
	LabelsURL                string          `json:"labels_url"`
	Language                 string          `json:"language"`
	LanguagesURL             string          `json:"languages_url"`
	License                  *string         `json:"license"`
	MergesURL                string          `json:"merges_url"`
	MilestonesURL            string          `json:"milestones_url"`
	MirrorURL                *string         `json:"mirror_url"`
	Name                     string          `json:"name"`
	NetworkCount             int             `json:"network_count"`
	NodeID                   string          `json:"node_id"`
	NotificationsURL         string          `json:"notifications_url"`
	OpenIssues               int             `json:"open_issues"`
	OpenIssuesCount          int             `json:"open_issues_count"`
	Owner                    userJSON        `json:"owner"`
	Permissions              permissionsJSON `json:"permissions"`
	Private                  bool            `json:"private"`
	PullsURL                 string          `json:"pulls_url"`
	PushedAt                 string          `json:"pushed_at"`
	ReleasesURL              string          `json:"releases_url"`
	Size                     int             `json:"size"`
	SSHURL                   string          `json:"ssh_url"`
	StargazersCount          int             `json:"stargazers_count"`
	StargazersURL            string          `json:"stargazers_url"`
	StatusesURL              string          `json:"statuses_url"`
	SubscribersCount         int             `json:"subscribers_count"`
	SubscribersURL           string          `json:"subscribers_url"`
	SubscriptionURL          string          `json:"subscription_url"`
	SVNURL                   string          `json:"svn_url"`
	TagsURL                  string          `json:"tags_url"`
	TeamsURL                 string          `json:"teams_url"`
	Topics                   []string        `json:"topics"`
	TreesURL                 string          `json:"trees_url"`
	UpdatedAt                string          `json:"updated_at"`
	URL                      string          `json:"url"`
	Visibility               string          `json:"visibility"`
	Watchers                 int             `json:"watchers"`
	WatchersCount            int             `json:"watchers_count"`
	WebCommitSignoffRequired bool            `json:"web_commit_signoff_required"`
}

// permissionsJSON is a repository's permissions, in sorted key order.
type permissionsJSON struct {
	Admin    bool `json:"admin"`
	Maintain bool `json:"maintain"`
	Pull     bool `json:"pull"`
	Push     bool `json:"push"`
	Triage   bool `json:"triage"`
}

// repository renders a full-repository object (also valid as repository).
func (c *call) repository(fullName string, fork bool) *repositoryJSON {
	owner, name, _ := strings.Cut(fullName, "/")
	api := c.api + "/repos/" + fullName
	html := c.html + "/" + fullName
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(fullName)))
	id := int64(200000 + h.Sum32()%1000000)
	created := ts(time.Date(2019, 3, 1, 12, 0, 0, 0, time.UTC))
	openCount := 0
	if !fork {
		for _, rec := range c.s.db.issues {
			if rec.State == "open" {
				openCount++
			}
		}
	}
	defBranch := c.s.defaultBranch
	return &repositoryJSON{
		ID:               id,
		NodeID:           nodeID("R", id),
		Name:             name,
		FullName:         fullName,
		Owner:            c.user(Person(owner)),
		HTMLURL:          html,
		Description:      "Widgets, and the tools to make them.",
		Fork:             fork,
		URL:              api,
		ArchiveURL:       api + "/{archive_format}{/ref}",
		AssigneesURL:     api + "/assignees{/user}",
		BlobsURL:         api + "/git/blobs{/sha}",
		BranchesURL:      api + "/branches{/branch}",
		CollaboratorsURL: api + "/collaborators{/collaborator}",
		CommentsURL:      api + "/comments{/number}",
		CommitsURL:       api + "/commits{/sha}",
		CompareURL:       api + "/compare/{base}...{head}",
		ContentsURL:      api + "/contents/{+path}",
		ContributorsURL:  api + "/contributors",
		DeploymentsURL:   api + "/deployments",
		DownloadsURL:     api + "/downloads",
		EventsURL:        api + "/events",
		ForksURL:         api + "/forks",
		GitCommitsURL:    api + "/git/commits{/sha}",
		GitRefsURL:       api + "/git/refs{/sha}",
		GitTagsURL:       api + "/git/tags{/sha}",
		GitURL:           "git://" + strings.TrimPrefix(strings.TrimPrefix(c.html, "https://"), "http://") + "/" + fullName + ".git",
		IssueCommentURL:  api + "/issues/comments{/number}",
		IssueEventsURL:   api + "/issues/events{/number}",
		IssuesURL:        api + "/issues{/number}",
		KeysURL:          api + "/keys{/key_id}",
		LabelsURL:        api + "/labels{/name}",
		LanguagesURL:     api + "/languages",
		MergesURL:        api + "/merges",
		MilestonesURL:    api + "/milestones{/number}",
		NotificationsURL: api + "/notifications{?since,all,participating}",
		PullsURL:         api + "/pulls{/number}",
		ReleasesURL:      api + "/releases{/id}",
		SSHURL:           "git@" + strings.TrimPrefix(strings.TrimPrefix(c.html, "https://"), "http://") + ":" + fullName + ".git",
		StargazersURL:    api + "/stargazers",
		StatusesURL:      api + "/statuses/{sha}",
		SubscribersURL:   api + "/subscribers",
		SubscriptionURL:  api + "/subscription",
		TagsURL:          api + "/tags",
		TeamsURL:         api + "/teams",
		TreesURL:         api + "/git/trees{/sha}",
		CloneURL:         html + ".git",
		HooksURL:         api + "/hooks",
		SVNURL:           html,
		Language:         "Go",
		Size:             1024,
		DefaultBranch:    defBranch,
		OpenIssuesCount:  openCount,
		OpenIssues:       openCount,
		Topics:           []string{},
		HasIssues:        true,
		HasProjects:      true,
		HasWiki:          true,
		HasDownloads:     true,
		Visibility:       "public",
		PushedAt:         created,
		CreatedAt:        created,
		UpdatedAt:        created,
		AllowForking:     true,
		Permissions:      permissionsJSON{Push: true, Triage: true, Pull: true},
	}
}

// teamID is a team's ID, derived from its slug.
func teamID(slug string) int64 {
	h := fnv.New32a()
	h.Write([]byte(slug))
	return int64(700000 + h.Sum32()%100000)
}

func (c *call) team(slug string) map[string]any {
	id := teamID(slug)
	api := fmt.Sprintf("%s/organizations/1/team/%d", c.api, id)
	return map[string]any{
		"id": id, "node_id": nodeID("T", id), "url": api, "html_url": c.html + "/orgs/" + c.s.owner + "/teams/" + slug,
		"name": slug, "slug": slug, "description": nil, "privacy": "closed", "notification_setting": "notifications_enabled",
		"permission": "pull", "members_url": api + "/members{/member}", "repositories_url": api + "/repos",
		"parent": nil, "type": "organization",
	}
}

func (c *call) teams(slugs []string) []map[string]any {
	out := make([]map[string]any, 0, len(slugs))
	for _, t := range slugs {
		out = append(out, c.team(t))
	}
	return out
}

// pullJSON is a pull request, in both of GitHub's shapes: the listing's
// pull-request-simple, and with the full-only fields set (pointers, so that
// omitempty drops them from the simple shape and nothing else), the single
// read's pull-request. Its fields are in the sorted order encoding/json gives
// a map's keys, the order the fake wrote when these were maps: a struct
// encodes several times faster, and the bytes stay the same.
type pullJSON struct {
	Links               pullLinksJSON    `json:"_links"`
	ActiveLockReason    *string          `json:"active_lock_reason"`
	Additions           *int             `json:"additions,omitempty"`
	Assignee            *userJSON        `json:"assignee"`
	Assignees           []userJSON       `json:"assignees"`
	AuthorAssociation   string           `json:"author_association"`
	AutoMerge           *string          `json:"auto_merge"`
	Base                branchJSON       `json:"base"`
	Body                *string          `json:"body"`
	ChangedFiles        *int             `json:"changed_files,omitempty"`
	ClosedAt            *string          `json:"closed_at"`
	Comments            *int             `json:"comments,omitempty"`
	CommentsURL         string           `json:"comments_url"`
	Commits             *int             `json:"commits,omitempty"`
	CommitsURL          string           `json:"commits_url"`
	CreatedAt           string           `json:"created_at"`
	Deletions           *int             `json:"deletions,omitempty"`
	DiffURL             string           `json:"diff_url"`
	Draft               bool             `json:"draft"`
	Head                branchJSON       `json:"head"`
	HTMLURL             string           `json:"html_url"`
	ID                  int64            `json:"id"`
	IssueURL            string           `json:"issue_url"`
	Labels              []labelJSON      `json:"labels"`
	Locked              bool             `json:"locked"`
	MaintainerCanModify *bool            `json:"maintainer_can_modify,omitempty"`
	MergeCommitSHA      *string          `json:"merge_commit_sha"`
	Mergeable           any              `json:"mergeable,omitempty"` // full: a typed nil, which writes null
	MergeableState      *string          `json:"mergeable_state,omitempty"`
	Merged              *bool            `json:"merged,omitempty"`
	MergedAt            *string          `json:"merged_at"`
	MergedBy            any              `json:"merged_by,omitempty"` // full: a *userJSON, nil for null
	Milestone           *milestoneJSON   `json:"milestone"`
	NodeID              string           `json:"node_id"`
	Number              int              `json:"number"`
	PatchURL            string           `json:"patch_url"`
	Rebaseable          any              `json:"rebaseable,omitempty"` // full: a typed nil, which writes null
	RequestedReviewers  []userJSON       `json:"requested_reviewers"`
	RequestedTeams      []map[string]any `json:"requested_teams"`
	ReviewCommentURL    string           `json:"review_comment_url"`
	ReviewComments      *int             `json:"review_comments,omitempty"`
	ReviewCommentsURL   string           `json:"review_comments_url"`
	State               string           `json:"state"`
	StatusesURL         string           `json:"statuses_url"`
	Title               string           `json:"title"`
	UpdatedAt           string           `json:"updated_at"`
	URL                 string           `json:"url"`
	User                userJSON         `json:"user"`
}

// pullLinksJSON is a pull request's _links, in sorted key order.
type pullLinksJSON struct {
	Comments       hrefJSON `json:"comments"`
	Commits        hrefJSON `json:"commits"`
	HTML           hrefJSON `json:"html"`
	Issue          hrefJSON `json:"issue"`
	ReviewComment  hrefJSON `json:"review_comment"`
	ReviewComments hrefJSON `json:"review_comments"`
	Self           hrefJSON `json:"self"`
	Statuses       hrefJSON `json:"statuses"`
}

type hrefJSON struct {
	Href string `json:"href"`
}

// branchJSON is a pull request's head or base, in sorted key order; Repo
// is nil (null) when the fork was deleted.
type branchJSON struct {
	Label string          `json:"label"`
	Ref   string          `json:"ref"`
	Repo  *repositoryJSON `json:"repo"`
	SHA   string          `json:"sha"`
	User  userJSON        `json:"user"`
}

func (c *call) pullSimple(rec *issueRec) pullJSON {
	is := &rec.Issue
	pu := fmt.Sprintf("%s/pulls/%d", c.repoURL(), is.Number)
	iu := fmt.Sprintf("%s/issues/%d", c.repoURL(), is.Number)
	hu := c.issueHTML(is)
	id := issueID(is.Number) + 500000000 // as pullNodeID
	assignees := c.users(is.Assignees)
	var assignee *userJSON
	if len(assignees) > 0 {
		assignee = &assignees[0]
	}
	var mergeSHA *string
	if !is.MergedAt.IsZero() {
		sha := fakeSHA("merge", int64(is.Number))
		mergeSHA = &sha
	}
	return pullJSON{
		URL: pu, ID: id, NodeID: nodeID("PR", id), HTMLURL: hu, DiffURL: hu + ".diff", PatchURL: hu + ".patch",
		IssueURL: iu, CommitsURL: pu + "/commits", ReviewCommentsURL: pu + "/comments",
		ReviewCommentURL: c.repoURL() + "/pulls/comments{/number}", CommentsURL: iu + "/comments",
		StatusesURL: c.repoURL() + "/statuses/" + is.HeadSHA,
		Number:      is.Number, State: is.State, Locked: is.Locked, Title: is.Title,
		User: c.user(is.User), Body: strOrNil(is.Body), Labels: c.labelList(is.Labels),
		Milestone: c.milestone(is.Milestone),
		CreatedAt: ts(is.CreatedAt), UpdatedAt: ts(is.UpdatedAt), ClosedAt: tsOrNil(is.ClosedAt),
		MergedAt: tsOrNil(is.MergedAt), MergeCommitSHA: mergeSHA,
		Assignee: assignee, Assignees: assignees,
		RequestedReviewers: c.users(is.RequestedReviewers), RequestedTeams: c.teams(is.RequestedTeams),
		Head: c.head(is), Base: c.base(is),
		Links: pullLinksJSON{
			Self: hrefJSON{pu}, HTML: hrefJSON{hu}, Issue: hrefJSON{iu}, Comments: hrefJSON{iu + "/comments"},
			ReviewComments: hrefJSON{pu + "/comments"}, ReviewComment: hrefJSON{c.repoURL() + "/pulls/comments{/number}"},
			Commits: hrefJSON{pu + "/commits"}, Statuses: hrefJSON{c.repoURL() + "/statuses/" + is.HeadSHA},
		},
		AuthorAssociation: c.s.association(is.User), Draft: is.Draft,
	}
}

func (c *call) pullFull(rec *issueRec) pullJSON {
	m := c.pullSimple(rec)
	is := &rec.Issue
	commits, reviewComments := 0, 0
	var mergedBy *userJSON
	for _, e := range rec.events {
		switch e.Type {
		case EventCommitted:
			commits++
		case EventLineCommented:
			reviewComments += len(e.LineComments)
		case EventMerged:
			u := c.user(e.Actor)
			mergedBy = &u
		}
	}
	merged, unknown, no := !is.MergedAt.IsZero(), "unknown", false
	comments, additions, deletions, changed := len(rec.comments), 10, 2, 1
	commits = max(commits, 1)
	m.Merged = &merged
	m.Mergeable, m.Rebaseable = (*bool)(nil), (*bool)(nil)
	m.MergeableState = &unknown
	m.MergedBy = mergedBy
	m.Comments = &comments
	m.ReviewComments = &reviewComments
	m.MaintainerCanModify = &no
	m.Commits = &commits
	m.Additions, m.Deletions, m.ChangedFiles = &additions, &deletions, &changed
	return m
}

func (c *call) head(is *Issue) branchJSON {
	full := is.HeadRepo
	if full == "" {
		full = c.s.FullName()
	}
	owner, _, _ := strings.Cut(full, "/")
	out := branchJSON{Ref: is.HeadRef, SHA: is.HeadSHA, Label: owner + ":" + is.HeadRef}
	if is.HeadRepoDeleted {
		out.User = c.user(is.User)
		out.Label = "unknown:" + is.HeadRef
		return out
	}
	out.Repo = c.repositoryOnce(full, is.HeadRepo != "")
	out.User = c.user(Person(owner))
	return out
}

func (c *call) base(is *Issue) branchJSON {
	return branchJSON{
		Ref: is.BaseRef, SHA: fakeSHA("base", int64(is.Number)), Label: c.s.owner + ":" + is.BaseRef,
		Repo: c.repositoryOnce(c.s.FullName(), false), User: c.user(Person(c.s.owner)),
	}
}

// repositoryOnce is repository, rendered once per request: every pull
// request of a listing holds its base's repository and most hold it again
// as their head's, and each rendering walks every issue to count the open
// ones.
func (c *call) repositoryOnce(fullName string, fork bool) *repositoryJSON {
	key := fullName + "\x00" + strconv.FormatBool(fork)
	if r, hit := c.repoCache[key]; hit {
		return r
	}
	r := c.repository(fullName, fork)
	if c.repoCache == nil {
		c.repoCache = map[string]*repositoryJSON{}
	}
	c.repoCache[key] = r
	return r
}

// issueEvent renders an event in the issue-event shape used by the
// timeline and the events endpoint (labeled, closed, renamed...).
func (c *call) issueEvent(e Event) map[string]any {
	m := map[string]any{
		"id": e.ID, "node_id": nodeID("E", e.ID), "url": fmt.Sprintf("%s/issues/events/%d", c.repoURL(), e.ID),
		"actor": c.user(e.Actor), "event": e.Type, "commit_id": nil, "commit_url": nil,
		"created_at": ts(e.At), "performed_via_github_app": nil,
	}
	switch e.Type {
	case EventLabeled, EventUnlabeled:
		m["label"] = map[string]string{"name": e.Label, "color": c.s.db.labelFor(e.Label).Color}
	case EventClosed:
		m["state_reason"] = strOrNil(e.StateReason)
	case EventReopened:
		m["state_reason"] = nil
	case EventRenamed:
		m["rename"] = map[string]string{"from": e.RenameFrom, "to": e.RenameTo}
	case EventReviewRequested, EventReviewRequestRemoved:
		m["review_requester"] = c.user(e.Actor)
		if e.Team != "" {
			m["requested_team"] = c.team(e.Team)
		} else {
			m["requested_reviewer"] = c.user(userFor(e.Reviewer))
		}
	case EventAssigned, EventUnassigned:
		// REST's assigned-issue-event: the assigner is the actor.
		m["assignee"], m["assigner"] = nil, c.user(e.Actor)
		if e.Assignee.Login != "" {
			m["assignee"] = c.user(e.Assignee)
		}
	case EventMerged, EventHeadRefForcePushed:
		if e.SHA != "" {
			m["commit_id"] = e.SHA
			m["commit_url"] = c.repoURL() + "/commits/" + e.SHA
		}
	}
	return m
}

func reviewStateTimeline(st string) string { return strings.ToLower(st) }

func (c *call) review(n int, e Event, timeline bool) map[string]any {
	hu := fmt.Sprintf("%s/pull/%d#pullrequestreview-%d", c.repoHTML(), n, e.ID)
	pu := fmt.Sprintf("%s/pulls/%d", c.repoURL(), n)
	state := e.ReviewState
	if timeline {
		state = reviewStateTimeline(state)
	}
	m := map[string]any{
		"id": e.ID, "node_id": nodeID("PRR", e.ID), "user": c.user(e.Actor), "body": e.Body, "state": state,
		"html_url": hu, "pull_request_url": pu, "author_association": c.s.association(e.Actor),
		"_links":       map[string]any{"html": map[string]string{"href": hu}, "pull_request": map[string]string{"href": pu}},
		"submitted_at": ts(e.At), "commit_id": fakeSHA("head", int64(n)),
	}
	if timeline {
		m["event"] = EventReviewed
	}
	return m
}

func (c *call) commit(e Event) map[string]any {
	git := map[string]string{"name": e.AuthorName, "email": e.AuthorEmail, "date": ts(e.At)}
	parent := e.Parent
	if parent == "" {
		parent = fakeSHA("parent", e.ID)
	}
	return map[string]any{
		"event": EventCommitted, "sha": e.SHA, "node_id": nodeID("C", e.ID),
		"url":      c.repoURL() + "/git/commits/" + e.SHA,
		"html_url": c.repoHTML() + "/commit/" + e.SHA,
		"author":   git, "committer": git, "message": e.Message,
		"tree": map[string]string{"sha": fakeSHA("tree", e.ID), "url": c.repoURL() + "/git/trees/" + fakeSHA("tree", e.ID)},
		"parents": []map[string]string{{"sha": parent, "url": c.repoURL() + "/git/commits/" + parent,
			"html_url": c.repoHTML() + "/commit/" + parent}},
		"verification": map[string]any{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil, "verified_at": nil},
	}
}

func (c *call) lineComment(n int, e Event, lc LineComment) map[string]any {
	url := fmt.Sprintf("%s/pulls/comments/%d", c.repoURL(), lc.ID)
	hu := fmt.Sprintf("%s/pull/%d#discussion_r%d", c.repoHTML(), n, lc.ID)
	pu := fmt.Sprintf("%s/pulls/%d", c.repoURL(), n)
	sha := fakeSHA("head", int64(n))
	return map[string]any{
		"url": url, "id": lc.ID, "node_id": nodeID("PRRC", lc.ID), "pull_request_review_id": e.ID,
		"diff_hunk": "@@ -1,3 +1,4 @@", "path": lc.Path, "commit_id": sha, "original_commit_id": sha,
		"user": c.user(lc.User), "body": lc.Body, "created_at": ts(lc.CreatedAt), "updated_at": ts(lc.CreatedAt),
		"html_url": hu, "pull_request_url": pu, "author_association": c.s.association(lc.User),
		"_links": map[string]any{"self": map[string]string{"href": url}, "html": map[string]string{"href": hu},
			"pull_request": map[string]string{"href": pu}},
		"line": 2, "original_line": 2, "side": "RIGHT", "subject_type": "line", "start_line": nil, "start_side": nil,
		"reactions": reactionsJSON{URL: url + "/reactions"},
	}
}

func (c *call) timelineItem(rec *issueRec, it TimelineItem) any {
	switch it.Type {
	case EventCommented:
		cj := c.comment(it.Comment, rec.IsPR)
		return map[string]any{
			"event": EventCommented, "actor": cj.User, "id": cj.ID, "node_id": cj.NodeID, "url": cj.URL,
			"html_url": cj.HTMLURL, "issue_url": cj.IssueURL, "user": cj.User, "created_at": cj.CreatedAt,
			"updated_at": cj.UpdatedAt, "author_association": cj.AuthorAssociation, "body": cj.Body,
			"reactions": cj.Reactions, "performed_via_github_app": nil,
		}
	case EventReviewed:
		return c.review(rec.Number, it.Event, true)
	case EventCommitted:
		return c.commit(it.Event)
	case EventLineCommented:
		cs := make([]map[string]any, 0, len(it.Event.LineComments))
		for _, lc := range it.Event.LineComments {
			cs = append(cs, c.lineComment(rec.Number, it.Event, lc))
		}
		return map[string]any{"event": EventLineCommented, "node_id": nodeID("PRRT", it.Event.ID), "comments": cs}
	default:
		return c.issueEvent(it.Event)
	}
}
