package ghapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stalepr/stalepr/internal/api"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// The open pull requests are read in GraphQL pages that carry each PR's
// latest history: one query lists a page of PRs with their labels and
// their last 100 timeline items. GitHub's cost rule counts one
// request for the page and one per PR for each connection under it, and
// rounds the sum divided by 100 to the nearest point, so a page costs
// round((1 + size·connections)/100): 74 PRs with two connections (labels,
// timeline) cost 149 requests, 1 point; a page of 100 would cost 2.
// costPerPoint is the most of GitHub's counted requests that round to one
// point: 149 (1.49 rounds to 1).
const costPerPoint = 149

// pageSize is the largest page of PRs that costs one point with n
// connections per PR.
func pageSize(n int) int { return min((costPerPoint-1)/n, 100) }

// PullsPerPage is how many open PRs a page lists, unless GitHub's timeouts
// made it smaller: with their labels and histories (1 point), and with
// their assignees too (a rule reads them; 1 point).
var PullsPerPage, PullsPerPageWithAssignees = pageSize(2), pageSize(3)

// actor is a GraphQL Actor: a User, a Bot (whose login carries no "[bot]"
// there), a Mannequin, an Organization; nil for a deleted account.
type actor struct {
	Typename string `json:"__typename"`
	Login    string
}

// ghost is REST's login for a deleted account: GraphQL gives its comments,
// reviews and pushes a null actor.
const ghost = "ghost"

// identity is the login in REST's form, which every other answer, our
// inputs and the viewer use: a bot as "NAME[bot]". A null actor is a
// deleted account, a person as far as anyone can tell (REST's "ghost"):
// what it did is activity, never nothing.
func (a *actor) identity() (login string, bot bool) {
	if a == nil {
		return ghost, false
	}
	if a.Typename == "Bot" {
		return botLogin(a.Login), true
	}
	return a.Login, lifecycle.IsBotLogin(a.Login)
}

// botLogin is a Bot's REST login. GitHub's coding agent is the one bot REST
// names without the suffix ("Copilot", type Bot).
func botLogin(login string) string {
	if login == "" || lifecycle.IsBotLogin(login) || strings.EqualFold(login, "Copilot") {
		return login
	}
	return login + "[bot]"
}

type gitActor struct {
	Name  string
	Email string
	Date  time.Time
	User  *struct{ Login string }
}

func (g gitActor) person() *gitPerson { return &gitPerson{Name: g.Name, Email: g.Email} }

func (g gitActor) login() string {
	if g.User == nil {
		return ""
	}
	return g.User.Login
}

// timelineItem is one node of PullRequestTimelineItems, a union, decoded
// flat: Typename names the kind, and the fields of every kind's fragment
// (timelineFragments) are here side by side, those the kinds share (actor,
// createdAt, author) once; the fields of other kinds stay zero.
type timelineItem struct {
	Typename string `json:"__typename"`
	// IssueComment and PullRequestReview.
	DatabaseID                int64
	Author                    *actor
	AuthorAssociation         string
	Body                      string
	AuthorCanPushToRepository *bool // nil (null): not known, never "cannot push"
	State                     string
	SubmittedAt               *time.Time
	// PullRequestCommit.
	Commit struct {
		Oid             string
		CommittedDate   time.Time
		MessageHeadline string
		Author          gitActor
		Committer       gitActor
	}
	// The events: who and when, and what each names.
	Actor                *actor
	CreatedAt            time.Time
	AfterCommit          *struct{ Oid string }
	DeletedCommentAuthor *actor
	Label                struct{ Name string }
	// Assignee is an AssignedEvent's GraphQL Assignee union (Bot,
	// Mannequin, Organization, User), every member an Actor; nil for a
	// deleted account. On a coding agent's PR it is the person who
	// delegated the work (lifecycle's human of record).
	Assignee *actor
	// RequestedReviewer is a Bot's or a User's login, or a Team's slugs.
	RequestedReviewer *struct {
		Typename     string `json:"__typename"`
		Login        string
		Slug         string
		CombinedSlug string
	}
}

// timelineKinds are the kinds of item a history asks for: those the rules
// read (the others, cross references, subscriptions, deployments, would only
// fill the page). Pages and the deeper reads of one PR ask the same.
const timelineKinds = `[ISSUE_COMMENT, PULL_REQUEST_REVIEW, PULL_REQUEST_COMMIT, HEAD_REF_FORCE_PUSHED_EVENT, ` +
	`LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT, CLOSED_EVENT, READY_FOR_REVIEW_EVENT, CONVERT_TO_DRAFT_EVENT, ` +
	`RENAMED_TITLE_EVENT, ASSIGNED_EVENT, UNASSIGNED_EVENT, MILESTONED_EVENT, DEMILESTONED_EVENT, BASE_REF_CHANGED_EVENT, ` +
	`REVIEW_REQUESTED_EVENT, REVIEW_REQUEST_REMOVED_EVENT, COMMENT_DELETED_EVENT]`

// timelineFragments ask a page of a timeline (timeline) and its items
// (timelineItem): the fragments of every query that reads a history.
const timelineFragments = `
fragment timeline on PullRequestTimelineItemsConnection {
  totalCount
  pageInfo { hasPreviousPage startCursor }
  nodes { ...item }
}
fragment item on PullRequestTimelineItems {
  __typename
  ... on IssueComment { databaseId author { ...actor } authorAssociation body createdAt }
  ... on PullRequestReview { author { ...actor } authorAssociation authorCanPushToRepository state submittedAt }
  ... on PullRequestCommit {
    commit { oid committedDate messageHeadline author { ...gitActor } committer { ...gitActor } }
  }
  ... on HeadRefForcePushedEvent { actor { ...actor } createdAt afterCommit { oid } }
  ... on CommentDeletedEvent { actor { ...actor } createdAt deletedCommentAuthor { ...actor } }
  ... on LabeledEvent { actor { ...actor } createdAt label { name } }
  ... on UnlabeledEvent { actor { ...actor } createdAt label { name } }
  ... on ReopenedEvent { actor { ...actor } createdAt }
  ... on ClosedEvent { actor { ...actor } createdAt }
  ... on ReadyForReviewEvent { actor { ...actor } createdAt }
  ... on ConvertToDraftEvent { actor { ...actor } createdAt }
  ... on RenamedTitleEvent { actor { ...actor } createdAt }
  ... on AssignedEvent { actor { ...actor } createdAt assignee { __typename ... on Actor { login } } }
  ... on UnassignedEvent { actor { ...actor } createdAt }
  ... on MilestonedEvent { actor { ...actor } createdAt }
  ... on DemilestonedEvent { actor { ...actor } createdAt }
  ... on BaseRefChangedEvent { actor { ...actor } createdAt }
  ... on ReviewRequestedEvent { actor { ...actor } createdAt requestedReviewer { ...reviewer } }
  ... on ReviewRequestRemovedEvent { actor { ...actor } createdAt requestedReviewer { ...reviewer } }
}
fragment actor on Actor { __typename login }
fragment reviewer on RequestedReviewer {
  __typename
  ... on Bot { login }
  ... on User { login }
  ... on Team { slug combinedSlug }
}
` + gitActorFragment

// assignee is the assigned account in REST's form, as actor.identity
// names one; "" when GitHub names none.
func (it *timelineItem) assignee() (login string, bot bool) {
	if it.Assignee == nil {
		return "", false
	}
	return it.Assignee.identity()
}

// timeline is a PR's timelineItems connection, its newest items.
// TotalCount bounds how many pages History may read (api.Pages).
type timeline struct {
	TotalCount int
	PageInfo   struct {
		HasPreviousPage bool
		StartCursor     string
	}
	Nodes []*timelineItem
}

// older is the cursor of the history before a page's items, "" when the
// page reaches the PR's first item. GitHub tells there is more by
// hasPreviousPage, or by a totalCount above the items given; known is
// false when it tells so and gives no cursor to read the rest by (a null
// startCursor): the page is not the whole history, and nothing can say
// what the rest holds.
func (t *timeline) older() (cursor string, known bool) {
	if !t.PageInfo.HasPreviousPage && len(t.Nodes) >= t.TotalCount {
		return "", true
	}
	return t.PageInfo.StartCursor, t.PageInfo.StartCursor != ""
}

// history is a PR's timeline, its newest 100 items (timelineKinds).
type history struct {
	// TimelineItems is nil when GitHub answers the connection null: a
	// history not read, never an empty one.
	TimelineItems *timeline
}

// prFields are the fields of a pull request every page reads (prFragment).
type prFields struct {
	ID        string
	Number    int
	Title     string
	URL       string
	CreatedAt time.Time
	UpdatedAt time.Time
	// IsDraft, Locked and Labels are nil when GitHub answers them null:
	// what an exemption reads is then unknown, never "no".
	IsDraft           *bool
	Locked            *bool
	Author            *actor
	AuthorAssociation string
	Milestone         *struct{ Title string }
	HeadRefOid        string
	// BaseRef dates a conflict: its head commit, the base's latest push.
	BaseRef *struct {
		Target *struct{ CommittedDate time.Time }
	}
	Mergeable      string
	ReviewDecision string
	Labels         *struct {
		TotalCount int
		Nodes      []*struct{ Name string }
	}
	history
}

// prFragment asks prFields.
const prFragment = `
fragment pr on PullRequest {
  id number title url createdAt updatedAt isDraft locked
  author { ...actor } authorAssociation milestone { title } headRefOid
  baseRef { target { ... on Commit { committedDate } } }
  mergeable reviewDecision
  labels(first: 100) { totalCount nodes { name } }
  timelineItems(last: 100, itemTypes: ` + timelineKinds + `) { ...timeline }
}`

// What a PR type reads beside prFields (asks), after ...pr.
const (
	assigneesField   = ` assignees(first: 100) { totalCount nodes { login } }`
	rollupStateField = ` statusCheckRollup { state }`
	closedField      = ` merged closedAt headRef { name }`
)

func (p *prFields) asks() string { return "" }

// nulls names the facts of a PR that GitHub's answer gave as null (or
// left out) without an error: each is one the rules read (when it was
// created and last updated, its draft and lock state, its labels, its
// history), and a null one is not known, so the PR is not decided on it.
func (p *prFields) nulls() []string {
	var out []string
	for _, f := range []struct {
		name string
		null bool
	}{
		{"createdAt", p.CreatedAt.IsZero()}, {"updatedAt", p.UpdatedAt.IsZero()},
		{"isDraft", p.IsDraft == nil}, {"locked", p.Locked == nil},
		{"labels", p.Labels == nil}, {"timelineItems", p.TimelineItems == nil},
	} {
		if f.null {
			out = append(out, f.name)
		}
	}
	return out
}

func (p *prFields) fields() *prFields { return p }
func (p *prFields) assignees() ([]string, bool) {
	return nil, true
}

// prWithAssignees is read instead when a rule reads assignees: a third
// connection, so pages are smaller (pageSize(3)).
type prWithAssignees struct {
	prFields
	// Assignees is nil when GitHub answers the connection null: not
	// known, never "nobody" (an exempt assignee keeps a PR open).
	Assignees *struct {
		TotalCount int
		Nodes      []*struct{ Login string }
	}
}

func (p *prWithAssignees) asks() string { return assigneesField }

func (p *prWithAssignees) assignees() ([]string, bool) {
	if p.Assignees == nil {
		return nil, false
	}
	var out []string
	for _, a := range p.Assignees.Nodes {
		if a != nil {
			out = append(out, a.Login)
		}
	}
	return out, len(out) == p.Assignees.TotalCount
}

type prNode interface {
	fields() *prFields
	assignees() (logins []string, complete bool)
	asks() string // the selection beside ...pr
}

// rateLimit is read with every query: what it cost and what is left.
type rateLimit struct {
	Cost      int
	Limit     int
	Remaining int
	ResetAt   time.Time
}

// pullsQuery is the query of a page of PRs, each with prFields and what
// its type asks besides: built once per shape (queryOnce), not per page.
func pullsQuery(asks string) string {
	return queryOnce(&pullsQueries, asks, func() string {
		return `query($owner: String!, $name: String!, $states: [PullRequestState!]!, $first: Int!, $after: String,
    $labels: [String!], $orderBy: IssueOrder!) {
  viewer { login }
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
    pullRequests(states: $states, first: $first, after: $after, labels: $labels, orderBy: $orderBy) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { ...pr` + asks + ` }
    }
  }
}` + prFragment + timelineFragments
	})
}

var pullsQueries, pullQueries sync.Map // asks → the query text

// queryOnce is the query text build makes for asks, kept in texts: a
// query's text depends only on its shape, and building it (3 kB of
// fragments joined) on every page and every PR read allocated it anew.
func queryOnce(texts *sync.Map, asks string, build func() string) string {
	if q, ok := texts.Load(asks); ok {
		return q.(string)
	}
	q := build()
	texts.Store(asks, q)
	return q
}

type pullsData[N any] struct {
	Viewer struct{ Login string }
	inRepository[pullsRepo[N]]
}

type pullsRepo[N any] struct {
	PullRequests struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   string
		}
		Nodes []*N
	}
}

// OpenPulls reads one page of the open pull requests, each with its latest
// history: the listing and the timelines in one query. A page GitHub cuts
// for time (a timeout, a 502, "something went wrong") is asked again at half
// the size, down to one PR; a PR whose part of the answer is missing or in
// error comes back with Err set, or counted in Page.Unread when GitHub gave
// nothing to name it by.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#repository (pullRequests)
func (c *graphQL) OpenPulls(ctx context.Context, q sweep.Query, after string) ([]sweep.Listed, sweep.Page, error) {
	open := []string{"OPEN"}
	switch {
	case q.Checks && q.Assignees:
		return openPullsWithChecks[prWithAssigneesChecks](ctx, c, q, after, 3)
	case q.Checks:
		return openPullsWithChecks[prWithChecks](ctx, c, q, after, 2)
	case q.Assignees:
		return listedOnly(pulls[prWithAssignees](ctx, c, q, open, after, 3))
	}
	return listedOnly(pulls[prFields](ctx, c, q, open, after, 2))
}

// closedFields are what a closed or merged PR of the closure audit's pages
// adds to a page's fields: whether it was merged, and its head branch (null
// once deleted, with its fork or alone). No connection more.
type closedFields struct {
	Merged   bool
	ClosedAt *time.Time
	HeadRef  *struct{ Name string }
}

func (c *closedFields) closedOf() *closedFields { return c }

type prClosed struct {
	prFields
	closedFields
}

func (p *prClosed) asks() string { return closedField }

// prClosedWithAssignees is read instead when a rule reads assignees: an
// exempt assignee keeps a closed PR closed too.
type prClosedWithAssignees struct {
	prWithAssignees
	closedFields
}

func (p *prClosedWithAssignees) asks() string { return assigneesField + closedField }

// ClosedPulls reads one page of the closed and merged pull requests, the
// most recently updated first, each with its latest history (and its
// assignees, when asked): the same query and pages as OpenPulls, for the
// closure audit, which stops once a page reaches past its window.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#repository (pullRequests)
func (c *graphQL) ClosedPulls(ctx context.Context, assignees bool, after string) ([]sweep.ClosedListed, sweep.Page, error) {
	if assignees {
		return closedPulls[prClosedWithAssignees](ctx, c, after, 3)
	}
	return closedPulls[prClosed](ctx, c, after, 2)
}

func closedPulls[N any, P interface {
	*N
	prNode
	closedOf() *closedFields
}](ctx context.Context, c *graphQL, after string, connections int) ([]sweep.ClosedListed, sweep.Page, error) {
	q := sweep.Query{State: "closed", Sort: "updated", Direction: "desc"}
	states := []string{"CLOSED", "MERGED"}
	nodes, page, err := pulls[N, P](ctx, c, q, states, after, connections)
	if err != nil {
		return nil, page, err
	}
	out := make([]sweep.ClosedListed, len(nodes))
	for i, n := range nodes {
		cf := n.node.closedOf()
		out[i] = sweep.ClosedListed{Listed: n.Listed, Merged: cf.Merged, BranchGone: cf.HeadRef == nil}
		if cf.ClosedAt != nil {
			out[i].ClosedAt = *cf.ClosedAt
		}
	}
	return out, page, nil
}

// listedNode is a PR of a page, converted, and the node it came from.
type listedNode[P any] struct {
	sweep.Listed
	node P
}

func listedOnly[P any](nodes []listedNode[P], page sweep.Page, err error) ([]sweep.Listed, sweep.Page, error) {
	if err != nil {
		return nil, page, err
	}
	out := make([]sweep.Listed, len(nodes))
	for i, n := range nodes {
		out[i] = n.Listed
	}
	return out, page, nil
}

// issueOrder is GraphQL's IssueOrder.
type issueOrder struct {
	Field     string `json:"field"`
	Direction string `json:"direction"`
}

// pullsArgs are the variables of a pulls query that q fixes: the order and
// the label filter (nil: none).
func pullsArgs(q sweep.Query) (order issueOrder, labels []string) {
	order = issueOrder{Field: "UPDATED_AT", Direction: "ASC"}
	if q.Sort == "created" {
		order.Field = "CREATED_AT"
	}
	if q.Direction == "desc" {
		order.Direction = "DESC"
	}
	if len(q.Labels) > 0 {
		labels = q.Labels
	}
	return order, labels
}

// pulls reads one page of the pull requests in states, each with its
// latest history.
func pulls[N any, P interface {
	*N
	prNode
}](ctx context.Context, c *graphQL, q sweep.Query, states []string, after string, connections int) ([]listedNode[P], sweep.Page, error) {
	order, labels := pullsArgs(q)
	doc := pullsQuery(P(new(N)).asks())
	for {
		size := c.pages.sizeFor(connections)
		vars := map[string]any{
			"owner": c.owner, "name": c.repo,
			"first": size, "after": cursorOf(after), "labels": labels,
			"orderBy": order, "states": states,
		}
		out, errs, err := ask[pullsData[N]](ctx, c, size > 1, doc, vars)
		if errors.Is(err, errShrink) {
			c.pages.shrink(connections, size)
			continue
		}
		if err != nil {
			return nil, sweep.Page{}, c.fail(opList, err, "list pull requests")
		}
		if err := c.viewer.saw(out.Viewer.Login, c.t.stop); err != nil {
			return nil, sweep.Page{}, c.fail(opList, err, "list pull requests")
		}
		return pullsPage[N, P](c, q, order.Direction == "ASC", size, out, errs)
	}
}

// pullsPage converts one answer of the pulls query: its PRs, each with Err
// when GitHub's answer names it in an error, and the page, which counts as
// unread the PRs GitHub gave nothing of.
func pullsPage[N any, P interface {
	*N
	prNode
}](c *graphQL, q sweep.Query, ascending bool, size int, out *pullsData[N], errs gqlErrors) ([]listedNode[P], sweep.Page, error) {
	pr := out.repo().PullRequests
	if len(pr.Nodes) > size {
		return nil, sweep.Page{}, c.fail(opList, &malformedError{route: "POST /graphql",
			why: fmt.Sprintf("it holds %d pull requests where %d were asked for", len(pr.Nodes), size)}, "list pull requests")
	}
	page := sweep.Page{After: pr.PageInfo.EndCursor, Total: pr.TotalCount, Ascending: ascending,
		Viewer: out.Viewer.Login}
	if !pr.PageInfo.HasNextPage {
		page.After = ""
	}
	bad := errs.byIndex([]string{"repository", "pullRequests", "nodes"})
	var listed []listedNode[P]
	for i, n := range pr.Nodes {
		if n == nil {
			page.Unread++
			continue
		}
		l := toListed(P(n))
		if why, ok := bad[i]; ok {
			l.Err = c.redact(fmt.Errorf("read #%d: GitHub's answer for it is in error (%s): left untouched this run", l.PR.Number, why))
		}
		see(&page, q.Sort, l.PR.CreatedAt, l.PR.UpdatedAt)
		listed = append(listed, listedNode[P]{Listed: l, node: P(n)})
	}
	if len(errs) > 0 && len(bad) == 0 {
		// Errors that name no PR: nothing of the page can be trusted.
		return nil, sweep.Page{}, c.fail(opList, fmt.Errorf("GitHub's answer has errors: %s", errs), "list pull requests")
	}
	if n := len(pr.Nodes); n < size && pr.PageInfo.HasNextPage {
		// A short page that is not the last: GitHub left PRs out.
		page.Unread += size - n
	}
	return listed, page, nil
}

func toListed(n prNode) sweep.Listed {
	f := n.fields()
	login, bot := f.Author.identity()
	pr := lifecycle.PR{
		Number: f.Number, Title: f.Title, URL: f.URL, Author: login,
		CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt, Draft: f.IsDraft != nil && *f.IsDraft, Locked: f.Locked != nil && *f.Locked,
		NodeID: f.ID, HeadSHA: f.HeadRefOid,
		Mergeable: f.Mergeable, ReviewDecision: f.ReviewDecision, AuthorBot: bot, AuthorAssociation: f.AuthorAssociation,
	}
	if f.Milestone != nil {
		pr.Milestone = f.Milestone.Title
	}
	if f.BaseRef != nil && f.BaseRef.Target != nil {
		pr.BaseHeadAt = f.BaseRef.Target.CommittedDate
	}
	if nulls := f.nulls(); len(nulls) > 0 {
		// Each is a fact the rules read: not known is not "none" (no
		// labels, no history, never updated).
		return sweep.Listed{PR: pr, Err: fmt.Errorf("read #%d: GitHub's answer gives %s null: left untouched this run", pr.Number, strings.Join(nulls, ", "))}
	}
	nulls := 0
	for _, l := range f.Labels.Nodes {
		if l == nil {
			nulls++
			continue
		}
		pr.Labels = append(pr.Labels, l.Name)
	}
	assignees, complete := n.assignees()
	pr.Assignees = assignees
	history, missing := events(f.TimelineItems.Nodes)
	l := sweep.Listed{PR: pr, History: history}
	older, known := f.TimelineItems.older()
	l.Older = older
	switch {
	case nulls+missing > 0:
		// GitHub could not give part of the PR's facts: a null label might
		// be an exempt one, a null item the comment that keeps it open.
		l.Err = fmt.Errorf("read #%d: GitHub's answer has %d null labels or null or undated timeline items: left untouched this run", pr.Number, nulls+missing)
	case !known:
		l.Err = fmt.Errorf("read #%d: GitHub's answer says it has older history and gives no cursor to read it by: left untouched this run", pr.Number)
	case len(pr.Labels) != f.Labels.TotalCount:
		l.Err = fmt.Errorf("read #%d: it has %d labels, more than one page: left untouched this run", pr.Number, f.Labels.TotalCount)
	case !complete && assignees == nil:
		l.Err = fmt.Errorf("read #%d: GitHub's answer gives its assignees null: left untouched this run", pr.Number)
	case !complete:
		l.Err = fmt.Errorf("read #%d: it has more than 100 assignees: left untouched this run", pr.Number)
	}
	return l
}

const historyQuery = `query($owner: String!, $name: String!, $number: Int!, $before: String) {
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      timelineItems(last: 100, before: $before, itemTypes: ` + timelineKinds + `) { ...timeline }
    }
  }
}` + timelineFragments

type historyRepo struct {
	PullRequest *history
}

// History reads a PR's history older than the cursor before ("": all of
// it), back to its beginning: 100 items (one point) a query, oldest first. Only a PR
// whose latest items do not settle its facts is read this way.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#pullrequest (timelineItems)
func (c *graphQL) History(ctx context.Context, number int, before string) ([]lifecycle.Event, error) {
	var older [][]lifecycle.Event
	seen := map[string]bool{}
	var pages api.Pages
	for first := true; first || before != ""; first = false {
		if seen[before] {
			return nil, c.fail(opRead, errors.New("GitHub's pages loop: the history's cursor points back to a page already read"), "read the history of #%d", number)
		}
		seen[before] = true
		t, err := historyPage(ctx, c, number, before)
		if err != nil {
			return nil, c.fail(opRead, err, "read the history of #%d", number)
		}
		page, missing := events(t.Nodes)
		if missing > 0 {
			return nil, c.fail(opRead, fmt.Errorf("GitHub's answer has %d null or undated timeline items", missing), "read the history of #%d", number)
		}
		older = append(older, page)
		// Past the first page, totalCount counts the newer pages too:
		// only hasPreviousPage says there is more.
		before = ""
		if t.PageInfo.HasPreviousPage {
			if before = t.PageInfo.StartCursor; before == "" {
				return nil, c.fail(opRead, errors.New("GitHub's answer says there is older history and gives no cursor to read it by"), "read the history of #%d", number)
			}
		}
		// A cursor met before is the loop the check above names. A server
		// whose cursors are new on every page never loops back: each page
		// counts 100, and the pages may reach one past totalCount.
		if err := pages.Next(len(t.Nodes), 100, t.TotalCount+100, before != "" && !seen[before]); err != nil {
			return nil, c.fail(opRead, err, "read the history of #%d", number)
		}
	}
	return oldestFirst(older), nil
}

// historyPage reads the page of a PR's history before the cursor before:
// an answer with errors, or without the PR or its timeline, is an error,
// never an empty history.
func historyPage(ctx context.Context, c *graphQL, number int, before string) (*timeline, error) {
	vars := map[string]any{"owner": c.owner, "name": c.repo, "number": number, "before": cursorOf(before)}
	q, errs, err := ask[inRepository[historyRepo]](ctx, c, false, historyQuery, vars)
	if err != nil {
		return nil, err
	}
	out := q.repo()
	switch {
	case len(errs) > 0:
		return nil, fmt.Errorf("GitHub's answer has errors: %s", errs)
	case out.PullRequest == nil:
		return nil, errors.New("GitHub's answer names no such pull request")
	case out.PullRequest.TimelineItems == nil:
		return nil, errors.New("GitHub's answer gives its timeline null")
	}
	return out.PullRequest.TimelineItems, nil
}

// oldestFirst joins the pages History read, newest page first, into one
// history, oldest first.
func oldestFirst(pages [][]lifecycle.Event) []lifecycle.Event {
	var all []lifecycle.Event
	for i := len(pages) - 1; i >= 0; i-- {
		all = append(all, pages[i]...)
	}
	return all
}

// events converts a page of timeline items; missing counts the null ones,
// items GitHub failed to give, and those it gave with their date null: an
// undated comment or push cannot be placed before or after anything.
func events(items []*timelineItem) (out []lifecycle.Event, missing int) {
	out = make([]lifecycle.Event, 0, len(items))
	for _, it := range items {
		if it == nil {
			missing++
			continue
		}
		switch e, ok := it.event(); {
		case !ok:
		case e.At.IsZero():
			missing++
		default:
			out = append(out, e)
		}
	}
	return out, missing
}

// plainKinds are the events whose kind, actor and time are all the rules
// read.
var plainKinds = map[string]lifecycle.EventKind{
	"ReopenedEvent":       lifecycle.Reopened,
	"ClosedEvent":         lifecycle.Closed,
	"ReadyForReviewEvent": lifecycle.ReadyForReview,
	"ConvertToDraftEvent": lifecycle.ConvertedToDraft,
	"RenamedTitleEvent":   lifecycle.Renamed,
	"UnassignedEvent":     lifecycle.Edited,
	"MilestonedEvent":     lifecycle.Edited,
	"DemilestonedEvent":   lifecycle.Edited,
	"BaseRefChangedEvent": lifecycle.Edited,
}

// event converts one timeline item, as the REST timeline's events are: a
// review is dated by its submission, a commit by its committer's date (who
// pushed it GitHub does not record). ok is false for an item the rules do
// not read (a kind not asked for, a pending review).
func (it *timelineItem) event() (lifecycle.Event, bool) {
	var e lifecycle.Event
	switch it.Typename {
	case "IssueComment":
		e = lifecycle.Event{Kind: lifecycle.Commented, At: it.CreatedAt, CommentID: it.DatabaseID, Association: it.AuthorAssociation}
		e.Actor, e.Bot = it.Author.identity()
		e.Body = it.Body
	case "PullRequestReview":
		if it.SubmittedAt == nil {
			return e, false // pending: not submitted, seen by its author only
		}
		e = lifecycle.Event{Kind: lifecycle.Reviewed, At: *it.SubmittedAt, ReviewState: it.State, Association: it.AuthorAssociation}
		e.Actor, e.Bot = it.Author.identity()
		if p := it.AuthorCanPushToRepository; p != nil {
			e.Access = lifecycle.AccessNone
			if *p {
				e.Access = lifecycle.AccessWrite
			}
		}
	case "PullRequestCommit":
		c := it.Commit
		e = lifecycle.Event{Kind: lifecycle.Committed, At: c.CommittedDate, SHA: c.Oid, Headline: c.MessageHeadline,
			Bot:          c.Author.person().isBot() || c.Committer.person().isBot(),
			CommitAuthor: c.Author.login(), CommitCommitter: c.Committer.login()}
	default:
		return it.actorEvent()
	}
	return e, true
}

// actorEvent converts an item that is an event: an actor's, dated by its
// creation.
func (it *timelineItem) actorEvent() (lifecycle.Event, bool) {
	e := lifecycle.Event{At: it.CreatedAt}
	switch it.Typename {
	case "HeadRefForcePushedEvent":
		e.Kind = lifecycle.ForcePushed
		if it.AfterCommit != nil {
			e.SHA = it.AfterCommit.Oid
		}
	case "CommentDeletedEvent":
		e.Kind = lifecycle.CommentDeleted
		e.DeletedAuthor, _ = it.DeletedCommentAuthor.identity()
	case "LabeledEvent", "UnlabeledEvent":
		e.Kind, e.Label = lifecycle.Labeled, it.Label.Name
		if it.Typename == "UnlabeledEvent" {
			e.Kind = lifecycle.Unlabeled
		}
	case "AssignedEvent":
		e.Kind = lifecycle.Edited
		e.Assignee, e.AssigneeBot = it.assignee()
	case "ReviewRequestedEvent", "ReviewRequestRemovedEvent":
		e.Kind = lifecycle.ReviewRequested
		if it.Typename == "ReviewRequestRemovedEvent" {
			e.Kind = lifecycle.ReviewRequestRemoved
		}
		e.Reviewer, e.Team, e.ReviewerBot = it.reviewer()
	default:
		kind, ok := plainKinds[it.Typename]
		if !ok {
			return e, false
		}
		e.Kind = kind
	}
	e.Actor, e.Bot = it.Actor.identity()
	return e, true
}

// reviewer names a requested reviewer: a user's or a bot's login, or a
// team's "org/slug".
func (it *timelineItem) reviewer() (login, team string, bot bool) {
	rr := it.RequestedReviewer
	if rr == nil {
		return "", "", false
	}
	switch rr.Typename {
	case "Team":
		return "", rr.CombinedSlug, false
	case "Bot":
		return botLogin(rr.Login), "", true
	}
	return rr.Login, "", lifecycle.IsBotLogin(rr.Login)
}

// prOne is one pull request as Pull reads it: a page's fields, its
// assignees and its state.
type prOne struct {
	prWithAssignees
	State string
	// HeadRef is null once the head branch is gone (alone or with its
	// fork): a closed PR that cannot be reopened. No connection more.
	HeadRef *struct{ Name string }
}

func (p *prOne) asks() string { return assigneesField + " state headRef { name }" }

func (p *prOne) state() string            { return p.State }
func (p *prOne) branchGone() bool         { return p.HeadRef == nil }
func (p *prOne) checks() lifecycle.Checks { return lifecycle.Checks{} }

// prOneChecks is read instead when author-turn-when-checks-fail is on: with
// the head commit's checks, each with whether it is required for this PR.
type prOneChecks struct {
	prOne
	StatusCheckRollup *rollup
}

func (p *prOneChecks) asks() string {
	return p.prOne.asks() + " statusCheckRollup {" + rollupFields("$number") + "}"
}

func (p *prOneChecks) checks() lifecycle.Checks {
	return (&checkRollup{HeadRefOid: p.HeadRefOid, StatusCheckRollup: p.StatusCheckRollup}).checks()
}

// pullQuery is the query of one PR, with prFields and what its type asks
// besides, built once per shape.
func pullQuery(asks string) string {
	return queryOnce(&pullQueries, asks, func() string {
		return `query($owner: String!, $name: String!, $number: Int!) {
  viewer { login }
  ` + rateLimitField + `
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) { ...pr` + asks + ` }
  }
}` + prFragment + timelineFragments
	})
}

type pullData[N any] struct {
	Viewer struct{ Login string }
	inRepository[struct{ PullRequest *N }]
}

// Pull reads one pull request as a listing page gives it (its fields,
// labels, assignees and latest 100 timeline items, the viewer), with its
// head commit's checks when asked (checks), and whether it is open: one
// query, the event path's one read.
//
// GitHub API docs: https://docs.github.com/graphql/reference/objects#repository (pullRequest)
func (c *graphQL) Pull(ctx context.Context, number int, checks bool) (sweep.ClosedListed, bool, error) {
	if checks {
		return pull[prOneChecks](ctx, c, number)
	}
	return pull[prOne](ctx, c, number)
}

func pull[N any, P interface {
	*N
	prNode
	state() string
	checks() lifecycle.Checks
	branchGone() bool
}](ctx context.Context, c *graphQL, number int) (sweep.ClosedListed, bool, error) {
	vars := map[string]any{"owner": c.owner, "name": c.repo, "number": number}
	out, errs, err := ask[pullData[N]](ctx, c, false, pullQuery(P(new(N)).asks()), vars)
	switch {
	case err == nil && len(errs) > 0:
		err = fmt.Errorf("GitHub's answer has errors: %s", errs)
	case err == nil && out.repo().PullRequest == nil:
		err = errors.New("GitHub's answer names no such pull request")
	}
	if err == nil {
		err = c.viewer.saw(out.Viewer.Login, c.t.stop)
	}
	if err != nil {
		return sweep.ClosedListed{}, false, c.fail(opRead, err, "read #%d", number)
	}
	p := P(out.repo().PullRequest)
	l := sweep.ClosedListed{Listed: toListed(p), Merged: p.state() == "MERGED", BranchGone: p.state() != "OPEN" && p.branchGone()}
	l.PR.Checks = p.checks()
	l.PR.Merged = l.Merged
	return l, p.state() == "OPEN", nil
}

// gitActorFragment asks a commit's author or committer (gitActor).
const gitActorFragment = `fragment gitActor on GitActor { name email date user { login } }`
