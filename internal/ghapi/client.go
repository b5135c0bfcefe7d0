package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v62/github"
	"golang.org/x/oauth2"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Options configure a Client.
type Options struct {
	Token       string
	APIURL      string // GITHUB_API_URL; empty or https://api.github.com for github.com
	Owner, Repo string
	Limits      Limits
	Clock       Clock
	Base        http.RoundTripper // nil: http.DefaultTransport
	UserAgent   string
	// Workflow: the client runs in a GitHub Actions job. Advice on a
	// missing permission then speaks of the workflow's permissions:, and
	// outside one of the token's scopes.
	Workflow bool
}

// Client implements the calls a sweep makes (the sweep's port,
// sweep.GitHub), in two parts over one connection: the GraphQL API's
// (graphQL: the listings, the histories, the checks, the statuses, the
// draft conversion) and the REST API's (rest: the issue listing, the
// comments, the labels, the writes). Its own methods are the meter's.
type Client struct {
	*conn
	*graphQL
	*rest
}

// conn is what every request of a run shares: the one transport (its
// count, budget and limits), the repository, and what an error's text
// must keep out.
type conn struct {
	gh          *github.Client
	owner, repo string
	t           *transport
	clock       Clock
	token       string // only to keep it out of error texts
	workflow    bool   // Options.Workflow
}

// graphQL is the client's GraphQL part: its endpoint and what its answers
// taught it (the page size GitHub answers in time, the viewer).
type graphQL struct {
	*conn
	hc     *http.Client // the transport's client: GraphQL's (ask) beside go-github's
	gqlURL string       // the GraphQL endpoint, beside the REST API (graphqlURL)
	pages  pages        // the page size GitHub answers in time
	viewer viewerSeen   // the login a query's viewer named
}

// rest is the client's REST part, through go-github, and the login its
// comments were created as.
type rest struct {
	*conn
	wroteAs string // the author GitHub gave a comment this client created (WroteAs)
}

// The client is the sweep's whole port: every stage's room is part of it.
var _ sweep.GitHub = (*Client)(nil)

const perPage = 100

// New builds a client. It makes no request.
func New(o Options) (*Client, error) {
	t := newTransport(o.Base, o.Limits, o.Clock)
	var rt http.RoundTripper = t
	if o.Token != "" {
		rt = &oauth2.Transport{Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: o.Token}), Base: t}
	}
	base, err := apiBase(o.APIURL)
	if err != nil {
		return nil, err
	}
	// No http.Client timeout: it would cover the transport's waits on
	// secondary limits too. Each attempt has its own (Limits.AttemptTimeout).
	hc := &http.Client{Transport: rt, CheckRedirect: sameOrigin(base)}
	gh := github.NewClient(hc)
	if o.UserAgent != "" {
		gh.UserAgent = o.UserAgent
	}
	gh.BaseURL, gh.UploadURL = base, base
	cn := &conn{gh: gh, owner: o.Owner, repo: o.Repo, t: t, clock: o.Clock, token: o.Token, workflow: o.Workflow}
	return &Client{conn: cn, graphQL: &graphQL{conn: cn, hc: hc, gqlURL: graphqlURL(gh.BaseURL)}, rest: &rest{conn: cn}}, nil
}

// apiBase parses GITHUB_API_URL by config's rule and in its words
// (api.ParseURL): the listing command builds a client without config.
func apiBase(apiURL string) (*url.URL, error) {
	base, err := api.ParseURL(apiURL)
	if err != nil {
		return nil, fmt.Errorf("environment variable GITHUB_API_URL: %w", err)
	}
	return base, nil
}

// sameOrigin follows redirects within the API's origin only (GitHub answers
// 301 for a renamed repository). oauth2.Transport adds the token to every
// request, redirects included, so a redirect elsewhere is not followed.
func sameOrigin(api *url.URL) func(*http.Request, []*http.Request) error {
	origin := originOf(api)
	return func(req *http.Request, via []*http.Request) error {
		if originOf(req.URL) != origin {
			return &redirectError{from: api.Host, to: req.URL.Host}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// fail wraps err with the operation, explained when its class is known.
// Response bodies can echo anything, the token included: no error leaves
// this package with it in its text.
func (c *conn) fail(kind opKind, err error, format string, args ...any) error {
	if g := (*guardError)(nil); errors.As(err, &g) {
		return g.err // the caller's own check said no: its words, not a request's failure
	}
	op := fmt.Sprintf(format, args...)
	if p := classify(err, kind, failureContext{repo: c.owner + "/" + c.repo, workflow: c.workflow, sends: c.t.sends, token: c.token}); p != nil {
		p.Op = op
		return c.redact(asStop(p))
	}
	return c.redact(asStop(fmt.Errorf("%s: %w", op, err)))
}

// redact makes err's text safe to print: the token and any URL's
// credentials hidden, control characters escaped (a server's message may
// hold terminal escapes or a newline and a workflow command). errors.Is and
// errors.As still see what it wraps.
func (c *conn) redact(err error) error {
	if err == nil {
		return nil
	}
	text := sanitize(err.Error(), c.token)
	if text == err.Error() {
		return err
	}
	return &redacted{err: err, text: text}
}

type redacted struct {
	err  error
	text string
}

func (r *redacted) Error() string { return r.text }
func (r *redacted) Unwrap() error { return r.err }

// Usage reports the requests made so far.
func (c *Client) Usage() api.Usage { return c.t.usage() }

// RefuseWrite is a dry run's n write requests, not sent: each is admitted
// as the real run's would be (a stop, operations-per-run, run-timeout,
// rate-limit-reserve unless ctx may use it), and counted as sent against
// operations-per-run and the rate limit left, so a dry run stops where the
// real run would. The error is the one the real write would meet before
// being sent. Only in a dry run.
func (c *Client) RefuseWrite(ctx context.Context, n int) error { return c.t.refuse(ctx, n) }

// RequestsLeft is how many requests the run may still make; -1 when unbounded.
func (c *Client) RequestsLeft() int { return c.t.left() }

// Hold sets n requests of the run's budget (operations-per-run) aside for a
// step after the sweep (the dashboard's): until release, every request and RequestsLeft count
// them as spent, so a capped sweep leaves them. The rate-limit reserve is
// not lent: a run the rate limit stops leaves nothing to the step. release
// is safe to call more than once.
func (c *Client) Hold(n int) (release func()) {
	t := c.t
	t.mu.Lock()
	t.held += n
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			t.held -= n
			t.mu.Unlock()
		})
	}
}

// ListPRs reads one page of the issue listing and keeps the pull requests.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#list-repository-issues
func (c *rest) ListPRs(ctx context.Context, q sweep.Query, page int) ([]lifecycle.PR, sweep.Page, error) {
	opts := &github.IssueListByRepoOptions{
		State: q.State, Labels: q.Labels, Sort: q.Sort, Direction: q.Direction, Since: q.Since,
		ListOptions: github.ListOptions{PerPage: perPage, Page: page},
	}
	issues, resp, err := c.gh.Issues.ListByRepo(ctx, c.owner, c.repo, opts)
	if err != nil {
		return nil, sweep.Page{}, c.fail(opList, err, "list pull requests (page %d)", max(page, 1))
	}
	prs := make([]lifecycle.PR, 0, len(issues))
	p := sweep.Page{Ascending: true}
	for _, is := range issues {
		see(&p, q.Sort, is.GetCreatedAt().Time, is.GetUpdatedAt().Time)
		if is.IsPullRequest() {
			prs = append(prs, toPR(is))
		}
	}
	p.Next, p.Last = resp.NextPage, resp.LastPage
	return prs, p, nil
}

// see takes one item's sort key into the page's order check.
func see(p *sweep.Page, sort string, created, updated time.Time) {
	key := updated
	if sort == "created" {
		key = created
	}
	if p.FirstKey.IsZero() {
		p.FirstKey = key
	} else if key.Before(p.LastKey) {
		p.Ascending = false
	}
	p.LastKey = key
}

func toPR(is *github.Issue) lifecycle.PR {
	pr := lifecycle.PR{
		Number:    is.GetNumber(),
		Title:     is.GetTitle(),
		URL:       is.GetHTMLURL(),
		Author:    is.GetUser().GetLogin(),
		CreatedAt: is.GetCreatedAt().Time,
		UpdatedAt: is.GetUpdatedAt().Time,
		Draft:     is.GetDraft(),
		Milestone: is.GetMilestone().GetTitle(),
		NodeID:    is.GetNodeID(),
		Labels:    labelNames(is.Labels),
		Assignees: logins(is.Assignees),
		Locked:    is.GetLocked(),
		Merged:    !is.GetPullRequestLinks().GetMergedAt().IsZero(),
		AuthorBot: is.GetUser().GetType() == "Bot",

		AuthorAssociation: is.GetAuthorAssociation(),
	}
	return pr
}

func labelNames(labels []*github.Label) []string {
	var out []string
	for _, l := range labels {
		out = append(out, l.GetName())
	}
	return out
}

func logins(users []*github.User) []string {
	var out []string
	for _, u := range users {
		out = append(out, u.GetLogin())
	}
	return out
}

func toComment(ic *github.IssueComment) sweep.Comment {
	n := 0
	if u := ic.GetIssueURL(); u != "" {
		fmt.Sscanf(u[strings.LastIndex(u, "/")+1:], "%d", &n)
	}
	return sweep.Comment{
		ID: ic.GetID(), Issue: n, UpdatedAt: ic.GetUpdatedAt().Time, Body: ic.GetBody(),
		Event: lifecycle.Event{
			Kind: lifecycle.Commented, At: ic.GetCreatedAt().Time, CommentID: ic.GetID(),
			Actor: ic.GetUser().GetLogin(), Bot: ic.GetUser().GetType() == "Bot",
			Body: ic.GetBody(), Association: ic.GetAuthorAssociation(),
		},
	}
}

// PRComments reads the comments of one PR updated since a time.
//
// GitHub API docs: https://docs.github.com/rest/issues/comments#list-issue-comments
func (c *rest) PRComments(ctx context.Context, number int, since time.Time) ([]sweep.Comment, error) {
	var out []sweep.Comment
	opts := &github.IssueListCommentsOptions{Since: &since, ListOptions: github.ListOptions{PerPage: perPage}}
	for {
		list, resp, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, number, opts)
		if err != nil {
			return nil, c.fail(opRead, err, "list comments of #%d", number)
		}
		for _, ic := range list {
			cm := toComment(ic)
			cm.Issue = number
			out = append(out, cm)
		}
		next, err := nextPage(resp, opts.Page)
		if err != nil {
			return nil, c.fail(opRead, err, "list comments of #%d", number)
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}

// PullHead reads a PR's head and base.
//
// GitHub API docs: https://docs.github.com/rest/pulls/pulls#get-a-pull-request
func (c *rest) PullHead(ctx context.Context, number int) (sweep.Head, error) {
	pr, _, err := c.gh.PullRequests.Get(ctx, c.owner, c.repo, number)
	if err != nil {
		return sweep.Head{}, c.fail(opRead, err, "read #%d", number)
	}
	h := sweep.Head{Ref: pr.GetHead().GetRef(), SHA: pr.GetHead().GetSHA(), DefaultBranch: pr.GetBase().GetRepo().GetDefaultBranch()}
	if hr := pr.GetHead().GetRepo(); hr != nil {
		h.SameRepo = hr.GetFullName() != "" && strings.EqualFold(hr.GetFullName(), pr.GetBase().GetRepo().GetFullName())
	}
	return h, nil
}

// AddLabels adds labels to a PR.
//
// GitHub API docs: https://docs.github.com/rest/issues/labels#add-labels-to-an-issue
func (c *rest) AddLabels(ctx context.Context, number int, labels []string) error {
	if _, _, err := c.gh.Issues.AddLabelsToIssue(ctx, c.owner, c.repo, number, labels); err != nil {
		return c.fail(opWrite, err, "label #%d", number)
	}
	return nil
}

// SetLabels replaces a PR's labels in one request.
//
// GitHub API docs: https://docs.github.com/rest/issues/labels#set-labels-for-an-issue
func (c *rest) SetLabels(ctx context.Context, number int, labels []string) error {
	if _, _, err := c.gh.Issues.ReplaceLabelsForIssue(ctx, c.owner, c.repo, number, labels); err != nil {
		return c.fail(opWrite, err, "set labels of #%d", number)
	}
	return nil
}

// RemoveLabel removes one label; a label already gone is not an error.
//
// GitHub API docs: https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue
func (c *rest) RemoveLabel(ctx context.Context, number int, label string) error {
	// go-github puts the name into the path unescaped: a "/" or "#" in a
	// label would address another route.
	_, err := c.gh.Issues.RemoveLabelForIssue(ctx, c.owner, c.repo, number, url.PathEscape(label))
	if err != nil && !IsNotFound(err) {
		return c.fail(opWrite, err, "remove label %q from #%d", label, number)
	}
	return nil
}

// ErrOutcomeUnknown means a comment was sent and no answer told whether GitHub
// made it (a timeout, a connection cut after sending, a server error), and a
// read of the PR's comments did not find it. It is not sent again: GitHub may
// still make it after the read (a write it finishes after the client gave
// up), and a second try would then be a second notice. It is the port's
// api.ErrOutcomeUnknown, so the sweep tells such a PR from one left untouched.
var ErrOutcomeUnknown = api.ErrOutcomeUnknown

// PostComment posts a comment, once. When the outcome is unknown, it reads
// the PR's recent comments: found, the comment was made; not found, it fails
// with ErrOutcomeUnknown and is not retried (the caller leaves the PR for
// the next run, which finds the comment if it landed late, and posts it if
// it did not).
//
// GitHub API docs: https://docs.github.com/rest/issues/comments#create-an-issue-comment
func (c *rest) PostComment(ctx context.Context, number int, body string) error {
	before := c.clock.Now().Add(-time.Minute)
	created, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, number, &github.IssueComment{Body: &body})
	if err == nil {
		if login := created.GetUser().GetLogin(); login != "" {
			c.wroteAs = login // GitHub named who the token writes as
		}
		return nil
	}
	if !unknownOutcome(err) {
		return c.fail(opWrite, err, "comment on #%d", number)
	}
	cause := c.fail(opWrite, err, "comment on #%d", number)
	recent, rerr := c.PRComments(ctx, number, before)
	if rerr != nil {
		return c.redact(fmt.Errorf("%w; %w: could not look for it (%w), so it is not sent again: the next run looks and posts it if it never landed",
			cause, ErrOutcomeUnknown, rerr))
	}
	for _, cm := range recent {
		if cm.Body == body {
			return nil
		}
	}
	return c.redact(fmt.Errorf("%w; %w: not among the PR's comments yet, and GitHub may still make it, so it is not sent again: the next run posts it if it never landed",
		cause, ErrOutcomeUnknown))
}

func unknownOutcome(err error) bool {
	if errors.Is(err, errUnknownWrite) {
		return true
	}
	s := statusOf(err)
	return s >= 500 && s != http.StatusNotImplemented
}

// DeleteComment deletes a comment; one already gone is not an error.
//
// GitHub API docs: https://docs.github.com/rest/issues/comments#delete-an-issue-comment
func (c *rest) DeleteComment(ctx context.Context, id int64) error {
	if _, err := c.gh.Issues.DeleteComment(ctx, c.owner, c.repo, id); err != nil && !IsNotFound(err) {
		return c.fail(opWrite, err, "delete comment %d", id)
	}
	return nil
}

// Close closes a PR and sets its labels in the same request.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#update-an-issue
func (c *rest) Close(ctx context.Context, number int, labels []string) error {
	state := "closed"
	req := &github.IssueRequest{State: &state}
	if labels != nil {
		req.Labels = &labels
	}
	if _, _, err := c.gh.Issues.Edit(ctx, c.owner, c.repo, number, req); err != nil {
		return c.fail(opWrite, err, "close #%d", number)
	}
	return nil
}

// RequestReviewers requests the review of logins on a pull request (a
// team as org/team: GitHub takes its slug, in the repository's organisation), adding to the reviewers requested already: it un-requests
// nobody. GitHub answers 422 for an account that cannot review (not a
// collaborator, the author), refusing the whole request; for one that is
// not a collaborator the error is api.ErrNotCollaborator.
//
// GitHub API docs: https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request
func (c *rest) RequestReviewers(ctx context.Context, number int, logins []string) error {
	var req github.ReviewersRequest
	for _, l := range logins {
		if _, slug, team := strings.Cut(l, "/"); team {
			req.TeamReviewers = append(req.TeamReviewers, slug)
		} else {
			req.Reviewers = append(req.Reviewers, l)
		}
	}
	_, _, err := c.gh.PullRequests.RequestReviewers(ctx, c.owner, c.repo, number, req)
	var er *github.ErrorResponse
	if statusOf(err) == http.StatusUnprocessableEntity && errors.As(err, &er) && strings.Contains(strings.ToLower(er.Message), "not a collaborator") {
		return c.redact(fmt.Errorf("request the review of %s on #%d: %w: GitHub answered 422 %s", strings.Join(logins, ", "), number, api.ErrNotCollaborator, er.Message))
	}
	if err != nil {
		return c.fail(opWrite, err, "request the review of %s on #%d", strings.Join(logins, ", "), number)
	}
	return nil
}

// Reopen reopens a closed pull request and, unless labels is nil, sets
// its labels in the same request, as Close closes. GitHub refuses (422)
// one that was merged or whose head branch is gone.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#update-an-issue
func (c *rest) Reopen(ctx context.Context, number int, labels []string) error {
	state := "open"
	req := &github.IssueRequest{State: &state}
	if labels != nil {
		req.Labels = &labels
	}
	if _, _, err := c.gh.Issues.Edit(ctx, c.owner, c.repo, number, req); err != nil {
		return c.fail(opWrite, err, "reopen #%d", number)
	}
	return nil
}

// DeleteBranch deletes a branch of the repository; one already gone (422 or
// 404) is not an error.
//
// GitHub API docs: https://docs.github.com/rest/git/refs#delete-a-reference
func (c *rest) DeleteBranch(ctx context.Context, branch string) error {
	_, err := c.gh.Git.DeleteRef(ctx, c.owner, c.repo, "heads/"+branch)
	var er *github.ErrorResponse
	switch s := statusOf(err); {
	case err == nil, s == http.StatusNotFound:
		return nil
	case s == http.StatusUnprocessableEntity && errors.As(err, &er) && strings.Contains(strings.ToLower(er.Message), "does not exist"):
		return nil // gone already
	case s == http.StatusUnprocessableEntity && errors.As(err, &er):
		// A protected branch, the default branch: GitHub keeps it.
		return c.redact(fmt.Errorf("%w: branch %q: %s", api.ErrBranchKept, branch, er.Message))
	}
	return c.fail(opBranch, err, "delete branch %q", branch)
}

// Viewer tells who the token acts as: the login its comments carry.
// GitHub's GraphQL viewer names it for every kind of token: a personal
// token's user, github-actions[bot] for a workflow's GITHUB_TOKEN,
// APP-SLUG[bot] for a GitHub App's installation token. (REST's GET /user
// refuses both installation tokens alike with 403, so it cannot tell them
// apart, and GET /app needs the app's JWT.) One read, which a dry run
// sends too.
//
// GitHub API docs: https://docs.github.com/graphql/reference/queries#viewer
func (c *graphQL) Viewer(ctx context.Context) (string, error) {
	if login := c.viewer.known(); login != "" {
		return login, nil // a page's query asked already
	}
	req, err := c.gh.NewRequest(http.MethodPost, c.gqlURL, map[string]string{"query": viewerQuery})
	if err != nil {
		return "", err
	}
	var out struct {
		Data struct {
			Viewer struct {
				Login string `json:"login"`
			} `json:"viewer"`
		} `json:"data"`
		graphqlResponse
	}
	if _, err := c.gh.Do(asRead(ctx), req, &out); err != nil { // viewerQuery is a query
		return "", c.fail(opRead, err, "ask GitHub who the token acts as")
	}
	if len(out.Errors) > 0 {
		e := out.Errors[0]
		return "", c.redact(fmt.Errorf("ask GitHub who the token acts as: GitHub answered %s: %s", strings.ToLower(def(e.Type, "an error")), e.Message))
	}
	if out.Data.Viewer.Login == "" {
		return "", errors.New("ask GitHub who the token acts as: GitHub's answer named no login")
	}
	if err := c.viewer.saw(out.Data.Viewer.Login, c.t.stop); err != nil {
		return "", c.redact(err) // a page named another since: one answer or none
	}
	return out.Data.Viewer.Login, nil
}

// WroteAs is the login GitHub gave the comments this client created, the
// same that Viewer asks for, known without a request; "" before the first.
func (c *rest) WroteAs() string { return c.wroteAs }

// BranchInUse reports whether an open pull request has branch as its base or
// its head (in this repository): deleting it would close or orphan that PR.
//
// GitHub API docs: https://docs.github.com/rest/pulls/pulls#list-pull-requests
func (c *rest) BranchInUse(ctx context.Context, branch string) (bool, error) {
	for _, opts := range []*github.PullRequestListOptions{
		{State: "open", Base: branch},
		{State: "open", Head: c.owner + ":" + branch},
	} {
		opts.ListOptions = github.ListOptions{PerPage: 1}
		prs, _, err := c.gh.PullRequests.List(ctx, c.owner, c.repo, opts)
		if err != nil {
			return false, c.fail(opRead, err, "look for open pull requests on branch %q", branch)
		}
		if len(prs) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// BranchHead reads the commit a branch of the repository points at now;
// exists is false, with no error, when there is no such branch (404). The
// name goes into the path one escaped segment per "/" (go-github's
// GetRef), as DeleteBranch's does: "heads/fix/a#1" is refs/heads/fix/a#1.
//
// GitHub API docs: https://docs.github.com/rest/git/refs#get-a-reference
func (c *rest) BranchHead(ctx context.Context, branch string) (sha string, exists bool, err error) {
	ref, _, err := c.gh.Git.GetRef(ctx, c.owner, c.repo, "heads/"+branch)
	switch {
	case IsNotFound(err):
		return "", false, nil
	case err != nil:
		return "", false, c.fail(opRead, err, "read branch %q", branch)
	case ref.GetObject().GetSHA() == "":
		return "", false, c.redact(fmt.Errorf("read branch %q: GitHub's answer named no commit", branch))
	}
	return ref.GetObject().GetSHA(), true, nil
}

// RecentComments reads every repository comment updated since a time. It
// pages by the last updated_at seen rather than by page number, so a
// concurrent run deleting comments cannot shift one out of sight between two
// pages.
//
// GitHub API docs: https://docs.github.com/rest/issues/comments#list-issue-comments-for-a-repository
func (c *rest) RecentComments(ctx context.Context, since time.Time) ([]sweep.Comment, error) {
	sort, dir := "updated", "asc"
	seen := map[int64]bool{}
	var out []sweep.Comment
	for page := 1; ; {
		opts := &github.IssueListCommentsOptions{
			Sort: &sort, Direction: &dir, Since: &since,
			ListOptions: github.ListOptions{PerPage: perPage, Page: page},
		}
		list, resp, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, 0, opts)
		if err != nil {
			return nil, c.fail(opList, err, "list recent comments")
		}
		last := since
		for _, ic := range list {
			cm := toComment(ic)
			if !seen[cm.ID] {
				seen[cm.ID] = true
				out = append(out, cm)
			}
			if cm.UpdatedAt.After(last) {
				last = cm.UpdatedAt
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		if last.After(since) {
			since, page = last, 1 // the comments at `last` come again: seen drops them
		} else if page, err = nextPage(resp, page); err != nil { // a whole page in one second: page on
			return nil, c.fail(opList, err, "list recent comments")
		}
	}
}

// Permission reads what an account may do in the repository, GitHub's
// repository permission ("admin", "maintain", "write", "triage", "read";
// "none"): whether it is a maintainer for whose turn it is. A 404 is an
// account that is no collaborator: "none". One read per account.
//
// GitHub API docs: https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
func (c *rest) Permission(ctx context.Context, login string) (lifecycle.Access, error) {
	// go-github's RepositoryPermissionLevel has no role_name.
	var p struct {
		Permission string `json:"permission"`
		RoleName   string `json:"role_name"`
	}
	req, err := c.gh.NewRequest(http.MethodGet, fmt.Sprintf("repos/%v/%v/collaborators/%v/permission", c.owner, c.repo, url.PathEscape(login)), nil)
	if err == nil {
		_, err = c.gh.Do(ctx, req, &p)
	}
	switch {
	case IsNotFound(err):
		return lifecycle.AccessNone, nil
	case err != nil && statusOf(err) == http.StatusForbidden && !IsRateLimited(err):
		// GitHub's documented answer to a token without push access.
		return lifecycle.AccessUnknown, fmt.Errorf("%w: %w", api.ErrPermissionRefused, c.fail(opRead, err, "read the repository permission of %s", login))
	case err != nil:
		return lifecycle.AccessUnknown, c.fail(opRead, err, "read the repository permission of %s", login)
	}
	return accessOf(p.RoleName, p.Permission), nil
}

// accessOf maps a role and a permission to an access: write access is write, maintain or admin. role_name tells the
// custom and fine-grained roles; permission is the legacy word, which maps
// maintain to write and triage to read.
func accessOf(role, permission string) lifecycle.Access {
	switch strings.ToLower(def(role, permission)) {
	case "admin", "maintain", "write":
		return lifecycle.AccessWrite
	case "":
		return lifecycle.AccessUnknown
	}
	if strings.EqualFold(permission, "write") || strings.EqualFold(permission, "admin") {
		return lifecycle.AccessWrite // a custom role built on write
	}
	return lifecycle.AccessNone
}

func toIssue(is *github.Issue) api.Issue {
	return api.Issue{
		Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), URL: is.GetHTMLURL(), State: is.GetState(),
		Author: is.GetUser().GetLogin(), Labels: labelNames(is.Labels),
	}
}

// LabelledIssues reads the first page of the issues carrying label, open and
// closed, oldest first: one request. Pull requests are left out.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#list-repository-issues
func (c *rest) LabelledIssues(ctx context.Context, label string) ([]api.Issue, error) {
	opts := &github.IssueListByRepoOptions{
		State: "all", Labels: []string{label}, Sort: "created", Direction: "asc",
		ListOptions: github.ListOptions{PerPage: perPage},
	}
	issues, _, err := c.gh.Issues.ListByRepo(ctx, c.owner, c.repo, opts)
	if err != nil {
		return nil, c.fail(opList, err, "list the issues labelled %q", label)
	}
	var out []api.Issue
	for _, is := range issues {
		if !is.IsPullRequest() {
			out = append(out, toIssue(is))
		}
	}
	return out, nil
}

// CreateIssue opens an issue with its labels in the same request, so it is
// never without them. It is not retried: a lost answer may hide an issue
// created, which the caller finds by listing.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#create-an-issue
func (c *rest) CreateIssue(ctx context.Context, title, body string, labels []string) (api.Issue, error) {
	is, _, err := c.gh.Issues.Create(ctx, c.owner, c.repo, &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		return api.Issue{}, c.fail(opWrite, err, "create issue %q", title)
	}
	return toIssue(is), nil
}

// EditIssue replaces an issue's body and, with close, closes it as not
// planned, in one request. An edit notifies nobody.
//
// GitHub API docs: https://docs.github.com/rest/issues/issues#update-an-issue
func (c *rest) EditIssue(ctx context.Context, number int, body string, close bool) error {
	req := &github.IssueRequest{Body: &body}
	if close {
		req.State, req.StateReason = github.String("closed"), github.String("not_planned")
	}
	if _, _, err := c.gh.Issues.Edit(ctx, c.owner, c.repo, number, req); err != nil {
		return c.fail(opWrite, err, "edit issue #%d", number)
	}
	return nil
}
