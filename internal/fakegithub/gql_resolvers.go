package fakegithub

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The resolvers: one table per GraphQL type of the schema subset, each
// field reading the fake's state (the same records the REST routes
// render). The values behind the types:
//
//	Repository         repoRef
//	PullRequest        *issueRec
//	User, Bot          actor
//	Team               teamRef
//	Label, Milestone   string (name, title)
//	ReviewRequest      reviewReq
//	timeline items     tlItem (IssueComment, PullRequestReview, events...)
//	PullRequestCommit  tlItem; Commit commitRef; GitActor gitActor
//	connections        conn; PageInfo pageInfo; RateLimit rateInfo

type repoRef struct{ full string }

// actor is an account as GraphQL names it.
type actor struct{ login string }

type teamRef struct{ slug string }

type reviewReq struct {
	n          int
	user, team string
}

type tlItem struct {
	rec *issueRec
	it  TimelineItem
}

type commitRef struct{ e Event }

type gitActor struct {
	name, email, login string
	at                 time.Time
}

type draftPayload struct {
	rec  *issueRec
	cmid any
}

var resolvers = map[string]map[string]resolver{}

func init() {
	resolvers["Query"] = queryResolvers
	resolvers["Mutation"] = mutationResolvers
	resolvers["ConvertPullRequestToDraftPayload"] = map[string]resolver{
		"clientMutationId": func(_ *gexec, src any, _ map[string]any) (any, error) { return src.(draftPayload).cmid, nil },
		"pullRequest": func(_ *gexec, src any, _ map[string]any) (any, error) {
			return gobj{"PullRequest", src.(draftPayload).rec}, nil
		},
	}
	resolvers["RateLimit"] = rateLimitResolvers
	resolvers["PageInfo"] = pageInfoResolvers
	for _, t := range []string{"PullRequestConnection", "LabelConnection", "UserConnection", "ReviewRequestConnection", "PullRequestTimelineItemsConnection"} {
		resolvers[t] = connResolvers
	}
	resolvers["Repository"] = repositoryResolvers
	resolvers["RepositoryCollaboratorConnection"] = map[string]resolver{
		"edges": field(func(c conn) any {
			out := make([]any, len(c.nodes))
			for i, n := range c.nodes {
				out[i] = gobj{"RepositoryCollaboratorEdge", n}
			}
			return out
		}),
		"nodes": field(func(c conn) any {
			out := make([]any, len(c.nodes))
			for i, n := range c.nodes {
				out[i] = gobj{"User", actor{n.(collaborator).login}}
			}
			return out
		}),
		"pageInfo":   field(func(c conn) any { return gobj{"PageInfo", c.info} }),
		"totalCount": field(func(c conn) any { return c.total }),
	}
	resolvers["RepositoryCollaboratorEdge"] = map[string]resolver{
		"cursor":     field(func(e collaborator) any { return encodeCursor(e.key) }),
		"node":       field(func(e collaborator) any { return gobj{"User", actor{e.login}} }),
		"permission": field(func(e collaborator) any { return strings.ToUpper(e.role) }),
	}
	resolvers["PullRequest"] = pullRequestResolvers
	for _, t := range []string{"Bot", "Mannequin", "Organization"} {
		resolvers[t] = actorResolvers
	}
	resolvers["User"] = userResolvers
	resolvers["UserStatus"] = userStatusResolvers
	resolvers["Team"] = teamResolvers
	resolvers["Label"] = map[string]resolver{
		"id": func(x *gexec, src any, _ map[string]any) (any, error) {
			return nodeID("LA", x.s.db.labelFor(src.(string)).ID), nil
		},
		"name": func(_ *gexec, src any, _ map[string]any) (any, error) { return src, nil },
	}
	resolvers["Milestone"] = map[string]resolver{
		"id": func(x *gexec, src any, _ map[string]any) (any, error) {
			return nodeID("MI", int64(x.s.db.milestoneNumber(src.(string)))), nil
		},
		"title": func(_ *gexec, src any, _ map[string]any) (any, error) { return src, nil },
	}
	resolvers["Ref"] = map[string]resolver{
		"id":     func(_ *gexec, src any, _ map[string]any) (any, error) { return refNodeID(src.(string)), nil },
		"name":   func(_ *gexec, src any, _ map[string]any) (any, error) { return src, nil },
		"prefix": func(_ *gexec, _ any, _ map[string]any) (any, error) { return "refs/heads/", nil },
		// The fake models the commits of the base repository's branches
		// only where a test pushed one (PushBase); null otherwise.
		"target": func(x *gexec, src any, _ map[string]any) (any, error) {
			e, ok := x.s.db.baseHeads[src.(string)]
			if !ok {
				return nil, nil
			}
			return gobj{"Commit", commitRef{e}}, nil
		},
	}
	resolvers["ReviewRequest"] = reviewRequestResolvers
	resolvers["IssueComment"] = issueCommentResolvers
	resolvers["PullRequestReview"] = reviewResolvers
	resolvers["PullRequestCommit"] = map[string]resolver{
		"id": func(_ *gexec, src any, _ map[string]any) (any, error) {
			return nodeID("PURC", src.(tlItem).it.Event.ID), nil
		},
		"commit": func(_ *gexec, src any, _ map[string]any) (any, error) {
			return gobj{"Commit", commitRef{src.(tlItem).it.Event}}, nil
		},
		"url": func(x *gexec, src any, _ map[string]any) (any, error) {
			it := src.(tlItem)
			return fmt.Sprintf("%s/pull/%d/commits/%s", x.c.repoHTML(), it.rec.Number, it.it.Event.SHA), nil
		},
	}
	resolvers["Commit"] = commitResolvers
	resolvers["GitActor"] = gitActorResolvers
	for _, t := range gqlItemTypes {
		if _, done := resolvers[t]; !done {
			resolvers[t] = eventResolvers(t)
		}
	}
}

// ---- roots ----

var queryResolvers = map[string]resolver{
	"viewer": func(x *gexec, _ any, _ map[string]any) (any, error) {
		// The token's own account as GitHub names it for every kind of
		// token, "github-actions[bot]" for the workflow's GITHUB_TOKEN.
		return gobj{"User", actor{x.s.identity.Login}}, nil
	},
	"rateLimit": func(x *gexec, _ any, _ map[string]any) (any, error) { return gobj{"RateLimit", x.rate}, nil },
	"user":      userResolve,
	"repository": func(x *gexec, _ any, args map[string]any) (any, error) {
		owner, name := strArg(args, "owner"), strArg(args, "name")
		if !strings.EqualFold(owner, x.s.owner) || !strings.EqualFold(name, x.s.repo) {
			return nil, &gqlFieldError{"NOT_FOUND", fmt.Sprintf("Could not resolve to a Repository with the name '%s/%s'.", owner, name)}
		}
		return gobj{"Repository", repoRef{x.s.FullName()}}, nil
	},
	"node": func(x *gexec, _ any, args map[string]any) (any, error) { return x.node(strArg(args, "id")) },
	"nodes": func(x *gexec, _ any, args map[string]any) (any, error) {
		ids, _ := strsArg(args, "ids")
		out := make([]any, len(ids))
		for i, id := range ids {
			n, err := x.node(id)
			if err != nil {
				out[i] = errItem{err.(*gqlFieldError)}
				continue
			}
			out[i] = n
		}
		return out, nil
	},
}

// node resolves a global ID; the fake knows its pull requests' and its
// check runs' and commit statuses'.
func (x *gexec) node(id string) (any, error) {
	if rec := x.pullByNodeID(id); rec != nil {
		return gobj{"PullRequest", rec}, nil
	}
	if c := x.checkByNodeID(id); c != nil {
		return gobj{c.typename(), c}, nil
	}
	return nil, &gqlFieldError{"NOT_FOUND", fmt.Sprintf("Could not resolve to a node with the global id of '%s'", id)}
}

func (x *gexec) pullByNodeID(id string) *issueRec {
	for _, r := range x.s.db.issues {
		if r.IsPR && pullNodeID(r.Number) == id {
			return r
		}
	}
	return nil
}

var mutationResolvers = map[string]resolver{
	// convertPullRequestToDraft: already a draft, the PR is returned
	// unchanged and no event is recorded.
	"convertPullRequestToDraft": func(x *gexec, _ any, args map[string]any) (any, error) {
		input, _ := args["input"].(map[string]any)
		id := strArg(input, "pullRequestId")
		rec := x.pullByNodeID(id)
		switch {
		case rec == nil:
			return nil, &gqlFieldError{"NOT_FOUND", fmt.Sprintf("Could not resolve to a node with the global id of '%s'", id)}
		case x.s.draftForbidden:
			return nil, &gqlFieldError{"FORBIDDEN", "Resource not accessible by integration"}
		}
		if !rec.Draft {
			x.s.db.setDraftLocked(rec, x.s.identity, x.c.now, true)
		}
		return gobj{"ConvertPullRequestToDraftPayload", draftPayload{rec: rec, cmid: input["clientMutationId"]}}, nil
	},
}

func field[T any](get func(T) any) resolver {
	return func(_ *gexec, src any, _ map[string]any) (any, error) { return get(src.(T)), nil }
}

var rateLimitResolvers = map[string]resolver{
	"cost":      field(func(r rateInfo) any { return r.cost }),
	"limit":     field(func(r rateInfo) any { return r.limit }),
	"nodeCount": field(func(r rateInfo) any { return r.nodeCount }),
	"remaining": field(func(r rateInfo) any { return r.remaining }),
	"resetAt":   field(func(r rateInfo) any { return ts(r.resetAt) }),
	"used":      field(func(r rateInfo) any { return r.used }),
}

var pageInfoResolvers = map[string]resolver{
	"endCursor":       field(func(p pageInfo) any { return nullStr(p.end) }),
	"startCursor":     field(func(p pageInfo) any { return nullStr(p.start) }),
	"hasNextPage":     field(func(p pageInfo) any { return p.hasNext }),
	"hasPreviousPage": field(func(p pageInfo) any { return p.hasPrev }),
}

var connResolvers = map[string]resolver{
	"nodes":         field(func(c conn) any { return c.nodes }),
	"pageInfo":      field(func(c conn) any { return gobj{"PageInfo", c.info} }),
	"totalCount":    field(func(c conn) any { return c.total }),
	"filteredCount": field(func(c conn) any { return c.filtered }),
	"pageCount":     field(func(c conn) any { return len(c.nodes) }),
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ts(t)
}

// ---- accounts ----

// actorObj is an account as an Actor: a Bot's login without "[bot]"
// (REST's "dependabot[bot]" is GraphQL's Bot "dependabot"); a deleted
// account (REST's "ghost") is null.
func actorObj(u User) any {
	if u.Login == "" || u.Login == "ghost" {
		return nil
	}
	if u.Type == "" {
		u = userFor(u.Login)
	}
	if u.Type == "Bot" {
		return gobj{"Bot", actor{strings.TrimSuffix(u.Login, "[bot]")}}
	}
	return gobj{"User", actor{u.Login}}
}

var actorResolvers = map[string]resolver{
	"id":    field(func(a actor) any { return nodeID("U", userID(a.login)) }),
	"login": field(func(a actor) any { return a.login }),
}

var teamResolvers = map[string]resolver{
	"id":   field(func(t teamRef) any { return nodeID("T", teamID(t.slug)) }),
	"slug": field(func(t teamRef) any { return t.slug }),
	"combinedSlug": func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.s.owner + "/" + src.(teamRef).slug, nil
	},
}

var reviewRequestResolvers = map[string]resolver{
	"id":                field(func(r reviewReq) any { return nodeID("RR", issueID(r.n)*100000+userID(r.user+"/"+r.team)%100000) }),
	"requestedReviewer": field(reviewReqResolve),
}

// ---- repository and pull requests ----

var repositoryResolvers = map[string]resolver{
	"id":            field(func(r repoRef) any { return nodeID("R", userID(r.full)) }),
	"nameWithOwner": field(func(r repoRef) any { return r.full }),
	"pullRequest": func(x *gexec, src any, args map[string]any) (any, error) {
		n, _ := intArg(args, "number")
		rec, found := x.s.db.byNum[n]
		if src.(repoRef).full != x.s.FullName() || !found || !rec.IsPR {
			return nil, &gqlFieldError{"NOT_FOUND", fmt.Sprintf("Could not resolve to a PullRequest with the number of %d.", n)}
		}
		if f := x.fault; f != nil && !f.Timeline && (x.faultPR == 0 || x.faultPR == n) {
			x.faultPR, x.faultFired = n, true
			if f.Kind == GraphQLMissing {
				return nil, nil
			}
			return nil, partialError()
		}
		return gobj{"PullRequest", rec}, nil
	},
	"collaborators": func(x *gexec, src any, args map[string]any) (any, error) {
		if x.s.collaboratorsForbidden {
			return nil, &gqlFieldError{"FORBIDDEN", "Resource not accessible by integration"}
		}
		return paginate(x.collaboratorItems(), args)
	},
	"pullRequests": func(x *gexec, src any, args map[string]any) (any, error) {
		if src.(repoRef).full != x.s.FullName() {
			return paginate(nil, args)
		}
		c, err := paginate(x.pullItems(args), args)
		if err != nil {
			return nil, err
		}
		c.nodes = x.pageFault(c.nodes)
		return c, nil
	},
}

func partialError() *gqlFieldError {
	return &gqlFieldError{msg: "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug."}
}

// pageFault applies a partial or missing fault to a page of pull requests.
func (x *gexec) pageFault(nodes []any) []any {
	f := x.fault
	if f == nil || len(nodes) == 0 {
		return nodes
	}
	if x.faultPR == 0 {
		x.faultPR = nodes[0].(gobj).v.(*issueRec).Number
	}
	if f.Timeline {
		return nodes
	}
	i := slices.IndexFunc(nodes, func(n any) bool { return n.(gobj).v.(*issueRec).Number == x.faultPR })
	if i < 0 {
		return nodes
	}
	x.faultFired = true
	if f.Kind == GraphQLMissing {
		return slices.Delete(slices.Clone(nodes), i, i+1)
	}
	out := slices.Clone(nodes)
	out[i] = errItem{partialError()}
	return out
}

// pullItems lists the pull requests Repository.pullRequests selects
// (states, labels: any of them, as GitHub filters, headRefName,
// baseRefName) in orderBy's order (default: created, oldest first), ties by
// number.
//
// The listing is kept while the state is unchanged, so paging through a
// large repository does not sort it again for every page.
func (x *gexec) pullItems(args map[string]any) []item {
	key := fmt.Sprint(args["states"], args["labels"], args["headRefName"], args["baseRefName"], args["orderBy"])
	if c := &x.s.gqlPulls; c.items != nil && c.key == key && c.version == x.s.db.version {
		return c.items
	}
	items := x.buildPullItems(args)
	if items == nil {
		items = []item{}
	}
	x.s.gqlPulls = gqlPullsCache{key: key, version: x.s.db.version, items: items}
	return items
}

type gqlPullsCache struct {
	key     string
	version uint64
	items   []item
}

func (x *gexec) buildPullItems(args map[string]any) []item {
	states, _ := strsArg(args, "states")
	labels, _ := strsArg(args, "labels")
	head, base := strArg(args, "headRefName"), strArg(args, "baseRefName")
	order, _ := args["orderBy"].(map[string]any)
	by, desc := strArg(order, "field"), strArg(order, "direction") == "DESC"
	var out []item
	for _, rec := range x.s.db.issues {
		if !rec.IsPR || (len(states) > 0 && !slices.Contains(states, gqlState(rec))) {
			continue
		}
		if (head != "" && rec.HeadRef != head) || (base != "" && rec.BaseRef != base) {
			continue
		}
		if labels != nil && !slices.ContainsFunc(labels, rec.HasLabel) {
			continue
		}
		var k int64
		switch by {
		case "UPDATED_AT":
			k = rec.UpdatedAt.Unix()
		case "COMMENTS":
			k = int64(len(rec.comments))
		default:
			k = rec.CreatedAt.Unix()
		}
		key := []int64{k, int64(rec.Number)}
		if desc {
			key = []int64{-k, -int64(rec.Number)}
		}
		out = append(out, item{key: key, v: gobj{"PullRequest", rec}})
	}
	slices.SortFunc(out, func(a, b item) int { return cmpKey(a.key, b.key) })
	return out
}

func gqlState(rec *issueRec) string {
	switch {
	case !rec.MergedAt.IsZero():
		return "MERGED"
	case rec.State == "closed":
		return "CLOSED"
	default:
		return "OPEN"
	}
}

func pr(get func(*issueRec) any) resolver { return field(get) }

var pullRequestResolvers = map[string]resolver{
	"id":                pr(func(r *issueRec) any { return pullNodeID(r.Number) }),
	"number":            pr(func(r *issueRec) any { return r.Number }),
	"title":             pr(func(r *issueRec) any { return r.Title }),
	"state":             pr(func(r *issueRec) any { return gqlState(r) }),
	"createdAt":         pr(func(r *issueRec) any { return ts(r.CreatedAt) }),
	"updatedAt":         pr(func(r *issueRec) any { return ts(r.UpdatedAt) }),
	"closedAt":          pr(func(r *issueRec) any { return nullTime(r.ClosedAt) }),
	"merged":            pr(func(r *issueRec) any { return !r.MergedAt.IsZero() }),
	"mergedAt":          pr(func(r *issueRec) any { return nullTime(r.MergedAt) }),
	"isDraft":           pr(func(r *issueRec) any { return r.Draft }),
	"locked":            pr(func(r *issueRec) any { return r.Locked }),
	"author":            pr(func(r *issueRec) any { return actorObj(r.User) }),
	"headRefName":       pr(func(r *issueRec) any { return r.HeadRef }),
	"headRefOid":        pr(func(r *issueRec) any { return r.HeadSHA }),
	"baseRefName":       pr(func(r *issueRec) any { return r.BaseRef }),
	"baseRef":           pr(func(r *issueRec) any { return gobj{"Ref", r.BaseRef} }),
	"isCrossRepository": pr(func(r *issueRec) any { return r.HeadRepo != "" || r.HeadRepoDeleted }),
	// The fake computes no merges; REST says mergeable null, "unknown".
	"mergeable": pr(func(r *issueRec) any {
		if r.Mergeable != "" {
			return r.Mergeable
		}
		return "UNKNOWN"
	}),
	"milestone": pr(func(r *issueRec) any {
		if r.Milestone == "" {
			return nil
		}
		return gobj{"Milestone", r.Milestone}
	}),
	"url": func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.c.issueHTML(&src.(*issueRec).Issue), nil
	},
	"authorAssociation": func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.s.association(src.(*issueRec).User), nil
	},
	// headRef is null once the head branch is gone: deleted, or with its
	// fork. A fork's branches are not modelled: there while the fork is.
	"headRef": func(x *gexec, src any, _ map[string]any) (any, error) {
		r := src.(*issueRec)
		if _, ok := x.s.db.branches[r.HeadRef]; r.HeadRepoDeleted || r.HeadRepo == "" && !ok {
			return nil, nil
		}
		return gobj{"Ref", r.HeadRef}, nil
	},
	"headRepository": func(x *gexec, src any, _ map[string]any) (any, error) {
		r := src.(*issueRec)
		switch {
		case r.HeadRepoDeleted:
			return nil, nil
		case r.HeadRepo == "":
			return gobj{"Repository", repoRef{x.s.FullName()}}, nil
		}
		return gobj{"Repository", repoRef{r.HeadRepo}}, nil
	},
	"reviewDecision": func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.reviewDecision(src.(*issueRec)), nil
	},
	"labels": func(_ *gexec, src any, args map[string]any) (any, error) {
		r := src.(*issueRec)
		names := slices.Clone(r.Labels)
		order, _ := args["orderBy"].(map[string]any)
		if strArg(order, "field") == "NAME" {
			slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		}
		if strArg(order, "direction") == "DESC" {
			slices.Reverse(names)
		}
		items := make([]item, len(names))
		for i, n := range names {
			items[i] = item{key: []int64{int64(i)}, v: gobj{"Label", n}}
		}
		return paginate(items, args)
	},
	"assignees": func(_ *gexec, src any, args map[string]any) (any, error) {
		r := src.(*issueRec)
		items := make([]item, len(r.Assignees))
		for i, l := range r.Assignees {
			items[i] = item{key: []int64{int64(i)}, v: gobj{"User", actor{l}}}
		}
		return paginate(items, args)
	},
	"reviewRequests": func(_ *gexec, src any, args map[string]any) (any, error) {
		r := src.(*issueRec)
		var items []item
		for _, u := range r.RequestedReviewers {
			items = append(items, item{key: []int64{int64(len(items))}, v: gobj{"ReviewRequest", reviewReq{n: r.Number, user: u}}})
		}
		for _, t := range r.RequestedTeams {
			items = append(items, item{key: []int64{int64(len(items))}, v: gobj{"ReviewRequest", reviewReq{n: r.Number, team: t}}})
		}
		return paginate(items, args)
	},
	"timelineItems": func(x *gexec, src any, args map[string]any) (any, error) {
		r := src.(*issueRec)
		if f := x.fault; f != nil && f.Kind == GraphQLPartial && f.Timeline && (x.faultPR == 0 || x.faultPR == r.Number) {
			x.faultPR, x.faultFired = r.Number, true
			return nil, partialError()
		}
		return paginate(gqlTimeline(r, args), args)
	},
}

// reviewDecision is null unless the repository requires reviews
// (SetReviewsRequired): then CHANGES_REQUESTED if a reviewer's latest
// deciding review asks for changes, else APPROVED if one approves, else
// REVIEW_REQUIRED.
func (x *gexec) reviewDecision(rec *issueRec) any {
	if !x.s.reviewsRequired {
		return nil
	}
	latest := map[string]string{}
	for _, e := range rec.events {
		if e.Type == EventReviewed && e.ReviewState != "COMMENTED" && e.ReviewState != "PENDING" {
			latest[strings.ToLower(e.Actor.Login)] = e.ReviewState
		}
	}
	decision := "REVIEW_REQUIRED"
	for _, st := range latest {
		switch {
		case st == "CHANGES_REQUESTED":
			return st
		case st == "APPROVED":
			decision = st
		}
	}
	return decision
}

// ---- timeline ----

// gqlItemTypes maps the fake's timeline entries to GraphQL's types. A
// line comment (REST's line-commented) is a COMMENTED PullRequestReview:
// GitHub makes a review of every review comment reply. Entries of other
// types are not served.
var gqlItemTypes = map[string]string{
	EventCommented: "IssueComment", EventReviewed: "PullRequestReview", EventLineCommented: "PullRequestReview",
	EventCommitted: "PullRequestCommit", EventHeadRefForcePushed: "HeadRefForcePushedEvent",
	EventLabeled: "LabeledEvent", EventUnlabeled: "UnlabeledEvent", EventClosed: "ClosedEvent", EventReopened: "ReopenedEvent",
	EventReadyForReview: "ReadyForReviewEvent", EventConvertToDraft: "ConvertToDraftEvent", EventMerged: "MergedEvent",
	EventReviewDismissed: "ReviewDismissedEvent", EventRenamed: "RenamedTitleEvent",
	EventReviewRequested: "ReviewRequestedEvent", EventReviewRequestRemoved: "ReviewRequestRemovedEvent",
	EventAssigned: "AssignedEvent", EventUnassigned: "UnassignedEvent", "milestoned": "MilestonedEvent",
	"demilestoned": "DemilestonedEvent", "base_ref_changed": "BaseRefChangedEvent",
	EventCommentDeleted: "CommentDeletedEvent",
}

var camelWord = regexp.MustCompile(`[A-Z][a-z]*`)

// itemTypeName is a timeline type's PullRequestTimelineItemsItemType value:
// IssueComment is ISSUE_COMMENT, HeadRefForcePushedEvent
// HEAD_REF_FORCE_PUSHED_EVENT.
func itemTypeName(typ string) string {
	if n, known := itemTypeNames[typ]; known {
		return n
	}
	return strings.ToUpper(strings.Join(camelWord.FindAllString(typ, -1), "_"))
}

// itemTypeNames is itemTypeName of every served timeline type, worked out
// once: the timeline's itemTypes filter asks it of every item.
var itemTypeNames = func() map[string]string {
	m := map[string]string{}
	for _, typ := range gqlItemTypes {
		m[typ] = strings.ToUpper(strings.Join(camelWord.FindAllString(typ, -1), "_"))
	}
	return m
}()

// gqlTimeline is a pull request's timeline as timelineItems serves it:
// oldest first (REST's order), filtered by itemTypes and since; the key is
// (time, ID).
func gqlTimeline(rec *issueRec, args map[string]any) []item {
	kinds, filter := strsArg(args, "itemTypes")
	var since time.Time
	if v := strArg(args, "since"); v != "" {
		since, _ = time.Parse(time.RFC3339, v)
	}
	var out []item
	for _, it := range timelineOf(rec) {
		typ, served := gqlItemTypes[it.Type]
		if !served || (filter && !slices.Contains(kinds, itemTypeName(typ))) || it.At.Before(since) {
			continue
		}
		out = append(out, item{key: []int64{it.At.Unix(), itemID(it)}, v: gobj{typ, tlItem{rec, it}}})
	}
	return out
}

func ev(get func(tlItem) any) resolver { return field(get) }

// eventResolvers is the table of a timeline event type: actor, createdAt,
// id, and the fields of its own.
func eventResolvers(typ string) map[string]resolver {
	prefix := eventNodePrefix(typ)
	m := map[string]resolver{
		"id":        ev(func(t tlItem) any { return nodeID(prefix, t.it.Event.ID) }),
		"actor":     ev(func(t tlItem) any { return actorObj(t.it.Event.Actor) }),
		"createdAt": ev(func(t tlItem) any { return ts(t.it.At) }),
	}
	switch typ {
	case "LabeledEvent", "UnlabeledEvent":
		m["label"] = ev(func(t tlItem) any { return gobj{"Label", t.it.Event.Label} })
	case "RenamedTitleEvent":
		m["currentTitle"] = ev(func(t tlItem) any { return t.it.Event.RenameTo })
		m["previousTitle"] = ev(func(t tlItem) any { return t.it.Event.RenameFrom })
	case "ReviewRequestedEvent", "ReviewRequestRemovedEvent":
		m["requestedReviewer"] = ev(func(t tlItem) any {
			return reviewReqResolve(reviewReq{n: t.rec.Number, user: t.it.Event.Reviewer, team: t.it.Event.Team})
		})
	case "AssignedEvent", "UnassignedEvent":
		m["assignee"] = ev(func(t tlItem) any { return actorObj(t.it.Event.Assignee) })
	case "CommentDeletedEvent":
		m["deletedCommentAuthor"] = ev(func(t tlItem) any { return actorObj(t.it.Event.DeletedAuthor) })
	case "HeadRefForcePushedEvent":
		m["afterCommit"] = ev(func(t tlItem) any {
			if t.it.Event.SHA == "" {
				return nil
			}
			return gobj{"Commit", commitRef{Event{ID: t.it.Event.ID, SHA: t.it.Event.SHA, At: t.it.At}}}
		})
	}
	return m
}

func reviewReqResolve(r reviewReq) any {
	if r.team != "" {
		return gobj{"Team", teamRef{r.team}}
	}
	return actorObj(userFor(r.user))
}

// eventNodePrefix is the node ID prefix of an event type: its capitals
// (LabeledEvent LE, HeadRefForcePushedEvent HRFPE), as GitHub's are.
func eventNodePrefix(typ string) string {
	var b strings.Builder
	for _, w := range camelWord.FindAllString(typ, -1) {
		b.WriteByte(w[0])
	}
	return b.String()
}

var issueCommentResolvers = map[string]resolver{
	"id":         ev(func(t tlItem) any { return nodeID("IC", t.it.Comment.ID) }),
	"databaseId": ev(func(t tlItem) any { return t.it.Comment.ID }),
	"author":     ev(func(t tlItem) any { return actorObj(t.it.Comment.User) }),
	"body":       ev(func(t tlItem) any { return t.it.Comment.Body }),
	"createdAt":  ev(func(t tlItem) any { return ts(t.it.Comment.CreatedAt) }),
	"authorAssociation": func(x *gexec, src any, _ map[string]any) (any, error) {
		return x.s.association(src.(tlItem).it.Comment.User), nil
	},
}

// reviewOf is the review a timeline entry stands for: a review, or a line
// comment's COMMENTED review.
func reviewOf(t tlItem) (who User, state, body string) {
	e := t.it.Event
	if e.Type == EventLineCommented && len(e.LineComments) > 0 {
		return e.LineComments[0].User, "COMMENTED", e.LineComments[0].Body
	}
	return e.Actor, e.ReviewState, e.Body
}

var reviewResolvers = map[string]resolver{
	"id":         ev(func(t tlItem) any { return nodeID("PRR", t.it.Event.ID) }),
	"databaseId": ev(func(t tlItem) any { return t.it.Event.ID }),
	"author":     ev(func(t tlItem) any { who, _, _ := reviewOf(t); return actorObj(who) }),
	"state":      ev(func(t tlItem) any { _, st, _ := reviewOf(t); return st }),
	"body":       ev(func(t tlItem) any { _, _, b := reviewOf(t); return b }),
	"createdAt":  ev(func(t tlItem) any { return ts(t.it.At) }),
	"submittedAt": ev(func(t tlItem) any {
		return ts(t.it.At)
	}),
	"authorAssociation": func(x *gexec, src any, _ map[string]any) (any, error) {
		who, _, _ := reviewOf(src.(tlItem))
		return x.s.association(who), nil
	},
	"authorCanPushToRepository": func(x *gexec, src any, _ map[string]any) (any, error) {
		who, _, _ := reviewOf(src.(tlItem))
		return x.canPush(who.Login), nil
	},
}

var commitResolvers = map[string]resolver{
	"id":      field(func(c commitRef) any { return nodeID("C", c.e.ID) }),
	"oid":     field(func(c commitRef) any { return c.e.SHA }),
	"message": field(func(c commitRef) any { return c.e.Message }),
	"messageHeadline": field(func(c commitRef) any {
		first, _, _ := strings.Cut(c.e.Message, "\n")
		return first
	}),
	"authoredDate":  field(func(c commitRef) any { return ts(c.e.At) }),
	"committedDate": field(func(c commitRef) any { return ts(c.e.At) }),
	"author": field(func(c commitRef) any {
		if c.e.AuthorName == "" && c.e.AuthorEmail == "" {
			return nil
		}
		return gobj{"GitActor", gitActor{name: c.e.AuthorName, email: c.e.AuthorEmail, login: commitLogin(c.e.AuthorLogin, c.e.AuthorEmail), at: c.e.At}}
	}),
	"committer": field(func(c commitRef) any {
		if c.e.AuthorName == "" && c.e.AuthorEmail == "" {
			return nil
		}
		login := c.e.CommitterLogin
		if login == "" {
			login = c.e.AuthorLogin
		}
		return gobj{"GitActor", gitActor{name: c.e.AuthorName, email: c.e.AuthorEmail, login: commitLogin(login, c.e.AuthorEmail), at: c.e.At}}
	}),
}

var noreply = regexp.MustCompile(`(?i)^(?:\d+\+)?([a-z0-9-]+)@users\.noreply\.github\.com$`)

// commitLogin is the GitHub user a commit's git identity belongs to: the
// account the event names, else the one whose noreply address it is; a
// bot is no User, so its commits have none (GitActor.user null).
func commitLogin(login, email string) string {
	if login == "" {
		if m := noreply.FindStringSubmatch(email); m != nil {
			login = m[1]
		}
	}
	if strings.HasSuffix(login, "[bot]") {
		return ""
	}
	return login
}

var gitActorResolvers = map[string]resolver{
	"name":  field(func(g gitActor) any { return g.name }),
	"email": field(func(g gitActor) any { return g.email }),
	"date":  field(func(g gitActor) any { return ts(g.at) }),
	"user": field(func(g gitActor) any {
		if g.login == "" {
			return nil
		}
		return gobj{"User", actor{g.login}}
	}),
}
