package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// gqlResp is a decoded GraphQL answer.
type gqlResp struct {
	status int
	header map[string][]string
	raw    string
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Type      string `json:"type"`
		Code      string `json:"code"`
		Path      []any  `json:"path"`
		Message   string `json:"message"`
		Locations []struct{ Line, Column int }
	} `json:"errors"`
	hasData bool
}

// gql posts a GraphQL request with variables, as stalepr's client does.
func gql(t *testing.T, ts *httptest.Server, query string, vars map[string]any) gqlResp {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	got := do(t, ts, "POST", "/graphql", string(body))
	r := gqlResp{status: got.status, header: got.header, raw: string(got.body)}
	if err := json.Unmarshal(got.body, &r); err != nil {
		t.Fatalf("decoding %d %s: %v", got.status, got.body, err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(got.body, &keys)
	_, r.hasData = keys["data"]
	return r
}

// into decodes the answer's data.
func (r gqlResp) into(t *testing.T, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %s", r.raw)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decoding data %s: %v", r.Data, err)
	}
}

var repoVars = map[string]any{"owner": "octo-org", "name": "widgets"}

func withVars(extra map[string]any) map[string]any {
	m := map[string]any{"owner": "octo-org", "name": "widgets"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// The schema subset the fake embeds is GitHub's, with its licence beside it.
func TestGraphQLSchemaLicence(t *testing.T) {
	t.Parallel()
	lic, err := os.ReadFile("schema.LICENSE")
	if err != nil || !strings.Contains(string(lic), "MIT License") || !strings.Contains(string(lic), "github/docs") {
		t.Errorf("internal/fakegithub/schema.LICENSE: %v, want GitHub's MIT licence and the source", err)
	}
	if !strings.Contains(schemaSDL, "schema.LICENSE") {
		t.Error("schema.graphql does not name its licence")
	}
}

// Anything outside the schema subset is refused by validation, before any
// resolver runs: HTTP 200, errors with locations, no data.
func TestGraphQLRefusesWhatTheSchemaLacks(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	cases := []struct{ name, query, want string }{
		{"unknown field", `query{repository(owner:"octo-org",name:"widgets"){pullRequest(number:1){body}}}`,
			"Field 'body' doesn't exist on type 'PullRequest'"},
		{"unknown argument", `query{repository(owner:"octo-org",name:"widgets"){pullRequests(first:1,sort:NEWEST){totalCount}}}`, `Unknown argument "sort"`},
		{"item type not in the subset", `query{repository(owner:"octo-org",name:"widgets"){pullRequest(number:1){timelineItems(first:1,itemTypes:[LOCKED_EVENT]){totalCount}}}}`, `Value "LOCKED_EVENT" does not exist`},
		{"unknown type in a fragment", `query{repository(owner:"octo-org",name:"widgets"){pullRequest(number:1){timelineItems(first:1){nodes{...on LockedEvent{createdAt}}}}}}`, `Unknown type "LockedEvent"`},
		{"missing required argument", `query{repository(owner:"octo-org"){id}}`, `argument "name" of type "String!" is required`},
		{"syntax error", `query{viewer{login}`, "Expected Name, found <EOF>"},
		{"undeclared variable", `query{repository(owner:$o,name:"widgets"){id}}`, `Variable "$o" is not defined`},
	}
	for _, c := range cases {
		got := gql(t, ts, c.query, nil)
		if got.status != 200 || got.hasData || len(got.Errors) == 0 || len(got.Errors[0].Locations) == 0 {
			t.Errorf("%s: %d %s, want 200, errors with locations and no data", c.name, got.status, got.raw)
			continue
		}
		if !strings.Contains(got.Errors[0].Message, c.want) {
			t.Errorf("%s: message %q, want it to name %q", c.name, got.Errors[0].Message, c.want)
		}
	}
}

const pageQuery = `query($owner:String!$name:String!$first:Int!$after:String$labels:[String!]){viewer{login},rateLimit{cost remaining resetAt limit used nodeCount},` +
	`repository(owner:$owner,name:$name){pullRequests(states:[OPEN],first:$first,after:$after,labels:$labels,orderBy:{field:UPDATED_AT,direction:ASC}){` +
	`pageInfo{hasNextPage endCursor} totalCount nodes{number updatedAt isDraft author{__typename login} labels(first:100){nodes{name} totalCount}}}}}`

type prPage struct {
	RateLimit struct {
		Cost, Remaining, Limit, Used, NodeCount int
		ResetAt                                 time.Time
	}
	Repository struct {
		PullRequests struct {
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
			TotalCount int
			Nodes      []*struct {
				Number    int
				UpdatedAt time.Time
				IsDraft   bool
				Author    *gqlActor
				Labels    struct {
					Nodes      []struct{ Name string }
					TotalCount int
				}
			}
		}
	}
}

// listing is what a client reads by following pullRequests' cursors.
func listing(t *testing.T, ts *httptest.Server, first int, labels []string) []int {
	t.Helper()
	var got []int
	var after any
	for range 50 {
		var p prPage
		gql(t, ts, pageQuery, withVars(map[string]any{"first": first, "after": after, "labels": labels})).into(t, &p)
		for _, n := range p.Repository.PullRequests.Nodes {
			got = append(got, n.Number)
		}
		if !p.Repository.PullRequests.PageInfo.HasNextPage {
			return got
		}
		after = p.Repository.PullRequests.PageInfo.EndCursor
	}
	t.Fatal("the listing does not end")
	return nil
}

// The open PRs, by updated_at then number, the same through every page
// size, as REST's listing has them.
func TestGraphQLPullRequestsPages(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	for i := range 7 {
		n := s.AddPR(Issue{CreatedAt: daysAgo(90 + i)})
		if i%2 == 0 {
			s.Label(n, Person("bob"), daysAgo(10+i), "triage")
		}
	}
	var want []int
	open := s.Issues()
	slices.SortStableFunc(open, func(a, b Issue) int {
		if c := a.UpdatedAt.Compare(b.UpdatedAt); c != 0 {
			return c
		}
		return a.Number - b.Number
	})
	for _, is := range open {
		if is.IsPR && is.State == "open" {
			want = append(want, is.Number)
		}
	}
	for _, first := range []int{1, 2, 3, 100} {
		if got := listing(t, ts, first, nil); !slices.Equal(got, want) {
			t.Errorf("first %d: %v, want %v", first, got, want)
		}
	}
	// labels: the PRs with any of them (GitHub's filter is OR).
	var withAny []int
	for _, n := range want {
		if is := s.MustIssue(n); is.HasLabel("triage") || is.HasLabel("bug") {
			withAny = append(withAny, n)
		}
	}
	if got := listing(t, ts, 2, []string{"triage", "BUG"}); !slices.Equal(got, withAny) || len(withAny) < 2 {
		t.Errorf("labels triage or bug: %v, want %v", got, withAny)
	}
	// headRefName and baseRefName select by branch.
	var heads struct {
		Repository struct {
			Head, Base struct{ Nodes []struct{ Number int } }
		}
	}
	gql(t, ts, `query{repository(owner:"octo-org",name:"widgets"){head:pullRequests(first:10,headRefName:"feature/polish"){nodes{number}} `+
		`base:pullRequests(first:10,baseRefName:"develop"){nodes{number}}}}`, nil).into(t, &heads)
	if h, b := heads.Repository.Head.Nodes, heads.Repository.Base.Nodes; len(h) != 1 || h[0].Number != 1 || len(b) != 0 {
		t.Errorf("by branch: head %v, base %v", h, b)
	}

	var p prPage
	gql(t, ts, pageQuery, withVars(map[string]any{"first": 100})).into(t, &p)
	byNum := map[int]int{}
	for i, n := range p.Repository.PullRequests.Nodes {
		byNum[n.Number] = i
	}
	if pr := p.Repository.PullRequests.Nodes[byNum[1]]; pr.Author.Typename != "User" || pr.Author.Login != "alice" ||
		pr.Labels.TotalCount != 1 || pr.Labels.Nodes[0].Name != "bug" || !pr.UpdatedAt.Equal(s.MustIssue(1).UpdatedAt) {
		t.Errorf("#1: %+v", pr)
	}
	if pr := p.Repository.PullRequests.Nodes[byNum[2]]; !pr.IsDraft {
		t.Errorf("#2 is a draft: %+v", pr)
	}
	if pr := p.Repository.PullRequests.Nodes[byNum[6]]; pr.Author != nil {
		t.Errorf("#6's author was deleted (REST's ghost): %+v, want null", pr.Author)
	}
	if _, merged := byNum[4]; merged || p.Repository.PullRequests.TotalCount != len(want) {
		t.Errorf("states [OPEN]: %v, total %d, want %v", byNum, p.Repository.PullRequests.TotalCount, want)
	}
}

const timelineQuery = `query($owner:String!$name:String!$n:Int!$last:Int$first:Int$before:String$after:String$types:[PullRequestTimelineItemsItemType!]){` +
	`repository(owner:$owner,name:$name){pullRequest(number:$n){timelineItems(last:$last,first:$first,before:$before,after:$after,itemTypes:$types){` +
	`pageInfo{hasPreviousPage hasNextPage startCursor endCursor} totalCount filteredCount nodes{__typename ` +
	`...on IssueComment{author{...who} createdAt body} ...on PullRequestReview{author{...who} state submittedAt authorCanPushToRepository} ` +
	`...on PullRequestCommit{commit{oid committedDate author{name email date user{login}}}} ` +
	`...on HeadRefForcePushedEvent{actor{...who} createdAt afterCommit{oid}} ...on LabeledEvent{actor{...who} createdAt label{name}} ` +
	`...on UnlabeledEvent{actor{...who} createdAt label{name}} ...on ReviewRequestedEvent{actor{...who} createdAt requestedReviewer{__typename ...on User{login} ...on Bot{login} ...on Team{slug}}} ` +
	`...on ReviewRequestRemovedEvent{actor{...who} createdAt requestedReviewer{__typename ...on User{login} ...on Team{slug}}} ` +
	`...on RenamedTitleEvent{actor{...who} createdAt} ...on ClosedEvent{actor{...who} createdAt} ...on ReopenedEvent{actor{...who} createdAt} ` +
	`...on MergedEvent{actor{...who} createdAt} ...on ReadyForReviewEvent{actor{...who} createdAt} ...on ConvertToDraftEvent{actor{...who} createdAt} ` +
	`...on ReviewDismissedEvent{actor{...who} createdAt} ...on AssignedEvent{actor{...who} createdAt} ...on UnassignedEvent{actor{...who} createdAt} ` +
	`...on MilestonedEvent{actor{...who} createdAt} ...on DemilestonedEvent{actor{...who} createdAt} ...on BaseRefChangedEvent{actor{...who} createdAt}` +
	`}}}}} fragment who on Actor{__typename login}`

type gqlActor struct{ Typename, Login string }

func (a *gqlActor) UnmarshalJSON(b []byte) error {
	var v struct {
		T string `json:"__typename"`
		L string `json:"login"`
	}
	err := json.Unmarshal(b, &v)
	a.Typename, a.Login = v.T, v.L
	return err
}

// rest is the REST login the GraphQL actor stands for.
func (a *gqlActor) rest() string {
	if a == nil {
		return "<null>"
	}
	if a.Typename == "Bot" {
		return a.Login + "[bot]"
	}
	return a.Login
}

type gqlItem struct {
	Typename          string `json:"__typename"`
	Author            *gqlActor
	Actor             *gqlActor
	CreatedAt         time.Time
	SubmittedAt       time.Time
	State             string
	Body              string
	CanPush           bool `json:"authorCanPushToRepository"`
	Label             struct{ Name string }
	RequestedReviewer *struct {
		Typename    string `json:"__typename"`
		Login, Slug string
	}
	AfterCommit *struct{ Oid string }
	Commit      struct {
		Oid           string
		CommittedDate time.Time
		Author        struct {
			Name, Email string
			Date        time.Time
			User        *struct{ Login string }
		}
	}
}

type timelinePage struct {
	Repository struct {
		PullRequest *struct {
			TimelineItems struct {
				PageInfo struct {
					HasPreviousPage, HasNextPage bool
					StartCursor, EndCursor       *string
				}
				TotalCount, FilteredCount int
				Nodes                     []gqlItem
			}
		}
	}
}

func timeline(t *testing.T, ts *httptest.Server, vars map[string]any) timelinePage {
	t.Helper()
	var p timelinePage
	gql(t, ts, timelineQuery, withVars(vars)).into(t, &p)
	return p
}

// fact is one timeline entry reduced to what the lifecycle reads: kind,
// who (REST login), when, and a detail.
type fact struct {
	kind, who string
	at        time.Time
	detail    string
}

func gqlFacts(items []gqlItem) []fact {
	kinds := map[string]string{"IssueComment": "commented", "PullRequestReview": "reviewed", "PullRequestCommit": "committed",
		"HeadRefForcePushedEvent": "head_ref_force_pushed", "LabeledEvent": "labeled", "UnlabeledEvent": "unlabeled",
		"ReviewRequestedEvent": "review_requested", "ReviewRequestRemovedEvent": "review_request_removed", "RenamedTitleEvent": "renamed",
		"ClosedEvent": "closed", "ReopenedEvent": "reopened", "MergedEvent": "merged", "ReadyForReviewEvent": "ready_for_review",
		"ConvertToDraftEvent": "convert_to_draft", "ReviewDismissedEvent": "review_dismissed", "AssignedEvent": "assigned",
		"UnassignedEvent": "unassigned", "MilestonedEvent": "milestoned", "DemilestonedEvent": "demilestoned", "BaseRefChangedEvent": "base_ref_changed"}
	var out []fact
	for _, it := range items {
		f := fact{kind: kinds[it.Typename], at: it.CreatedAt}
		switch it.Typename {
		case "IssueComment":
			f.who = it.Author.rest()
		case "PullRequestReview":
			f.who, f.at, f.detail = it.Author.rest(), it.SubmittedAt, strings.ToLower(it.State)
		case "PullRequestCommit":
			f.who, f.at, f.detail = it.Commit.Author.Name, it.Commit.Author.Date, it.Commit.Oid
		case "LabeledEvent", "UnlabeledEvent":
			f.who, f.detail = it.Actor.rest(), it.Label.Name
		case "ReviewRequestedEvent", "ReviewRequestRemovedEvent":
			f.who, f.detail = it.Actor.rest(), it.RequestedReviewer.Login+it.RequestedReviewer.Slug
			if it.RequestedReviewer.Typename == "Bot" {
				f.detail += "[bot]"
			}
		case "HeadRefForcePushedEvent":
			f.who, f.detail = it.Actor.rest(), it.AfterCommit.Oid
		default:
			f.who = it.Actor.rest()
		}
		out = append(out, f)
	}
	return out
}

// restFacts reads the REST timeline the same way; a line comment is a
// COMMENTED review.
func restFacts(t *testing.T, ts *httptest.Server, n int) []fact {
	t.Helper()
	var items []struct {
		Event       string
		Actor       *struct{ Login string }
		User        *struct{ Login string }
		CreatedAt   time.Time `json:"created_at"`
		SubmittedAt time.Time `json:"submitted_at"`
		State       string
		SHA         string
		CommitID    string `json:"commit_id"`
		Author      struct {
			Name string
			Date time.Time
		}
		Label             struct{ Name string }
		RequestedReviewer *struct{ Login string } `json:"requested_reviewer"`
		RequestedTeam     *struct{ Slug string }  `json:"requested_team"`
		Comments          []struct {
			User      struct{ Login string }
			CreatedAt time.Time `json:"created_at"`
		}
	}
	do(t, ts, "GET", fmt.Sprintf("/repos/octo-org/widgets/issues/%d/timeline?per_page=100", n), "").json(t, &items)
	var out []fact
	for _, it := range items {
		f := fact{kind: it.Event, at: it.CreatedAt}
		if it.Actor != nil {
			f.who = it.Actor.Login
		}
		switch it.Event {
		case "reviewed":
			f.who, f.at, f.detail = it.User.Login, it.SubmittedAt, it.State
		case "line-commented":
			f = fact{kind: "reviewed", who: it.Comments[0].User.Login, at: it.Comments[0].CreatedAt, detail: "commented"}
		case "committed":
			f.who, f.at, f.detail = it.Author.Name, it.Author.Date, it.SHA
		case "labeled", "unlabeled":
			f.detail = it.Label.Name
		case "review_requested", "review_request_removed":
			if it.RequestedTeam != nil {
				f.detail = it.RequestedTeam.Slug
			} else {
				f.detail = it.RequestedReviewer.Login
			}
		case "head_ref_force_pushed":
			f.detail = it.CommitID
		}
		out = append(out, f)
	}
	return out
}

// A PR's GraphQL timeline says what its REST timeline says: every entry,
// in the same order, by the same account at the same time.
func TestGraphQLTimelineMeansTheRESTTimeline(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	const n = 1
	bot := Bot("renovate[bot]")
	rev := s.Review(n, Person("erin"), daysAgo(51), "APPROVED", "")
	s.DismissReview(n, rev.ID, Person("bob"), daysAgo(50))
	s.PushAs(n, bot, daysAgo(49), "Update deps")
	s.PushAs(n, Person("alice"), daysAgo(48), "Address review")
	s.Push(n, "alice", daysAgo(47), "More")
	s.RequestReview(n, alice(), daysAgo(46), "copilot[bot]")
	s.Label(n, bot, daysAgo(45), "dependencies")
	s.ConvertToDraft(n, Person("alice"), daysAgo(44))
	s.ReadyForReview(n, Person("alice"), daysAgo(43))
	s.Close(n, Person("bob"), daysAgo(42), "")
	s.Reopen(n, Person("alice"), daysAgo(41))
	s.Comment(n, Person("ghost"), daysAgo(40), "from a deleted account")
	for i, typ := range []string{"assigned", "unassigned", "milestoned", "demilestoned", "base_ref_changed"} {
		s.AddEvent(n, Event{Type: typ, Actor: Person("bob"), At: daysAgo(39 - i)})
	}

	p := timeline(t, ts, map[string]any{"n": n, "last": 100})
	got := gqlFacts(p.Repository.PullRequest.TimelineItems.Nodes)
	for i := range got {
		if got[i].who == "<null>" {
			got[i].who = "ghost" // REST names a deleted account ghost
		}
	}
	want := restFacts(t, ts, n)
	if len(want) < 20 || !slices.Equal(got, want) {
		t.Errorf("GraphQL timeline:\n%v\nREST timeline:\n%v", got, want)
	}
	if c := p.Repository.PullRequest.TimelineItems.TotalCount; c != len(want) {
		t.Errorf("totalCount %d, want %d", c, len(want))
	}

	// Commits: the GitHub user behind each, a bot's none.
	users := map[string]string{}
	for _, it := range p.Repository.PullRequest.TimelineItems.Nodes {
		if it.Typename == "PullRequestCommit" {
			u := "<null>"
			if it.Commit.Author.User != nil {
				u = it.Commit.Author.User.Login
			}
			users[it.Commit.Author.Name] = u
		}
	}
	wantUsers := map[string]string{"Alice Doe": "<null>", "renovate[bot]": "<null>", "alice": "alice"}
	if fmt.Sprint(users) != fmt.Sprint(wantUsers) {
		t.Errorf("commit users %v, want %v", users, wantUsers)
	}
}

func alice() User { return Person("alice") }

// A dismissed review is DISMISSED; authorCanPushToRepository follows the
// reviewer's role.
func TestGraphQLReviewStateAndPushAccess(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.SetPermission("erin", "write")
	s.SetPermission("frank", "triage")
	rev := s.Review(5, Person("erin"), daysAgo(10), "APPROVED", "")
	s.Review(5, Person("frank"), daysAgo(9), "APPROVED", "")
	s.Review(5, Person("octo-org"), daysAgo(8), "COMMENTED", "")
	s.DismissReview(5, rev.ID, Person("bob"), daysAgo(7))
	p := timeline(t, ts, map[string]any{"n": 5, "first": 10, "types": []string{"PULL_REQUEST_REVIEW"}})
	var got []string
	for _, it := range p.Repository.PullRequest.TimelineItems.Nodes {
		got = append(got, fmt.Sprintf("%s %s %v", it.Author.Login, it.State, it.CanPush))
	}
	want := []string{"erin DISMISSED true", "frank APPROVED false", "octo-org COMMENTED true"}
	if !slices.Equal(got, want) {
		t.Errorf("reviews %v, want %v", got, want)
	}
}

// last:N is the newest N, oldest first; before pages back, after forward;
// itemTypes filters and totalCount counts what it keeps.
func TestGraphQLTimelinePaging(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	n := s.AddPR(Issue{CreatedAt: daysAgo(100)})
	for i := range 8 {
		s.Comment(n, Person("bob"), daysAgo(90-i), fmt.Sprint("c", i))
		s.Label(n, Person("bob"), daysAgo(90-i), fmt.Sprint("l", i))
	}
	comments := []string{"ISSUE_COMMENT"}
	bodies := func(p timelinePage) []string {
		var out []string
		for _, it := range p.Repository.PullRequest.TimelineItems.Nodes {
			out = append(out, it.Body)
		}
		return out
	}
	p := timeline(t, ts, map[string]any{"n": n, "last": 3, "types": comments})
	tl := p.Repository.PullRequest.TimelineItems
	if got := bodies(p); !slices.Equal(got, []string{"c5", "c6", "c7"}) || !tl.PageInfo.HasPreviousPage || tl.PageInfo.HasNextPage ||
		tl.TotalCount != 8 || tl.FilteredCount != 8 {
		t.Fatalf("last 3: %v %+v", got, tl)
	}
	var back []string
	before := *tl.PageInfo.StartCursor
	for pages := 0; ; pages++ {
		p := timeline(t, ts, map[string]any{"n": n, "last": 3, "before": before, "types": comments})
		back = append(bodies(p), back...)
		info := p.Repository.PullRequest.TimelineItems.PageInfo
		if !info.HasPreviousPage {
			break
		}
		if pages > 5 {
			t.Fatal("paging back does not end")
		}
		before = *info.StartCursor
	}
	if !slices.Equal(back, []string{"c0", "c1", "c2", "c3", "c4"}) {
		t.Errorf("paging back: %v", back)
	}
	p = timeline(t, ts, map[string]any{"n": n, "first": 2, "after": *tl.PageInfo.StartCursor, "types": comments})
	if got := bodies(p); !slices.Equal(got, []string{"c6", "c7"}) || p.Repository.PullRequest.TimelineItems.FilteredCount != 2 {
		t.Errorf("first 2 after c5: %v", got)
	}
	p = timeline(t, ts, map[string]any{"n": n, "last": 100})
	if tl := p.Repository.PullRequest.TimelineItems; tl.TotalCount != 16 || len(tl.Nodes) != 16 || tl.PageInfo.HasPreviousPage ||
		tl.Nodes[0].Typename != "IssueComment" || tl.Nodes[1].Typename != "LabeledEvent" {
		t.Errorf("whole timeline: %d items, total %d, first %v", len(tl.Nodes), tl.TotalCount, tl.Nodes[:2])
	}
	empty := timeline(t, ts, map[string]any{"n": n, "last": 5, "types": []string{"MERGED_EVENT"}})
	if tl := empty.Repository.PullRequest.TimelineItems; len(tl.Nodes) != 0 || tl.PageInfo.StartCursor != nil || tl.TotalCount != 0 {
		t.Errorf("no merged event: %+v", tl)
	}
}

// GitHub's pagination rules: first or last on every connection, at most
// 100; and the node limit, 500,000.
func TestGraphQLPaginationLimits(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	const repo = `repository(owner:"octo-org",name:"widgets")`
	cases := []struct {
		name, query, typ, msg string
		path                  []any
	}{
		{"no first or last", `query{` + repo + `{pullRequests(states:[OPEN]){totalCount}}}`, "MISSING_PAGINATION_BOUNDARIES",
			"You must provide a `first` or `last` value to properly paginate the `pullRequests` connection.", []any{"repository", "pullRequests"}},
		{"nested, aliased", `query{` + repo + `{pullRequest(number:1){tl:timelineItems{totalCount}}}}`, "MISSING_PAGINATION_BOUNDARIES",
			"You must provide a `first` or `last` value to properly paginate the `timelineItems` connection.", []any{"repository", "pullRequest", "tl"}},
		{"first 101", `query{` + repo + `{pullRequests(first:101){totalCount}}}`, "EXCESSIVE_PAGINATION",
			"Requesting 101 records on the `pullRequests` connection exceeds the `first` limit of 100 records.", []any{"repository", "pullRequests"}},
		{"last 500 by variable", `query($n:Int=500){` + repo + `{pullRequest(number:1){labels(last:$n){totalCount}}}}`, "EXCESSIVE_PAGINATION",
			"Requesting 500 records on the `labels` connection exceeds the `last` limit of 100 records.", []any{"repository", "pullRequest", "labels"}},
		{"node limit", `query{` + repo + `{pullRequests(first:100){nodes{headRepository{pullRequests(first:100){nodes{timelineItems(first:100){totalCount}}}}}}}}`,
			"MAX_NODE_LIMIT_EXCEEDED", "This query requests up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.", nil},
	}
	for _, c := range cases {
		got := gql(t, ts, c.query, nil)
		if got.status != 200 || !got.hasData || string(got.Data) != "null" || len(got.Errors) != 1 {
			t.Errorf("%s: %d %s, want 200, data null and one error", c.name, got.status, got.raw)
			continue
		}
		e := got.Errors[0]
		if e.Type != c.typ || e.Message != c.msg || fmt.Sprint(e.Path) != fmt.Sprint(c.path) {
			t.Errorf("%s: %+v\nwant type %s, message %q, path %v", c.name, e, c.typ, c.msg, c.path)
		}
	}
	// 100 is allowed, and the node limit counts every level.
	ok := gql(t, ts, `query{`+repo+`{pullRequests(first:100){nodes{timelineItems(last:100){totalCount} labels(first:100){totalCount}}}}}`, nil)
	if len(ok.Errors) > 0 {
		t.Errorf("a query of 20,100 nodes: %s", ok.raw)
	}
}

// rateLimit answers for the query itself; the points come off a bucket of
// their own, in the headers too, and each request records its cost.
func TestGraphQLPointsBucket(t *testing.T) {
	t.Parallel()
	s := New(Options{Clock: NewClock(t0), GraphQLRateLimit: 1000})
	for range 5 {
		s.AddPR(Issue{})
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	restBefore := s.RateRemaining()
	const rl = `rateLimit{cost remaining limit used nodeCount resetAt}`
	cases := []struct {
		query        string
		cost, nodes  int
		wantRemained int
	}{
		{`query{viewer{login} ` + rl + `}`, 1, 0, 999},
		// 1 + 100 + 100 requests: 201/100 rounds to 2 points.
		{`query($owner:String!$name:String!){` + rl + ` repository(owner:$owner,name:$name){pullRequests(first:100){nodes{timelineItems(last:100){totalCount} labels(first:100){totalCount}}}}}`,
			2, 20100, 997},
		// 1 + 50 + 50 + 50 requests: 151/100 rounds to 2.
		{`query($owner:String!$name:String!){` + rl + ` repository(owner:$owner,name:$name){pullRequests(first:50){nodes{timelineItems(last:10){totalCount} labels(first:10){totalCount} assignees(first:10){totalCount}}}}}`,
			2, 1550, 995},
		// dry run: the cost, nothing charged.
		{`query($owner:String!$name:String!){rateLimit(dryRun:true){cost remaining limit used nodeCount resetAt} repository(owner:$owner,name:$name){pullRequests(first:100){totalCount}}}`,
			1, 100, 995},
	}
	for i, c := range cases {
		var d struct {
			RateLimit struct {
				Cost, Remaining, Limit, Used, NodeCount int
				ResetAt                                 time.Time
			}
		}
		r := gql(t, ts, c.query, repoVars)
		r.into(t, &d)
		if rl := d.RateLimit; rl.Cost != c.cost || rl.Remaining != c.wantRemained || rl.Limit != 1000 || rl.Used != 1000-c.wantRemained ||
			rl.NodeCount != c.nodes || !rl.ResetAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("query %d: rateLimit %+v, want cost %d, remaining %d, nodes %d", i, rl, c.cost, c.wantRemained, c.nodes)
		}
		if h := r.header; h["X-Ratelimit-Resource"][0] != "graphql" || h["X-Ratelimit-Remaining"][0] != fmt.Sprint(c.wantRemained) ||
			h["X-Ratelimit-Limit"][0] != "1000" || h["X-Ratelimit-Used"][0] != fmt.Sprint(1000-c.wantRemained) {
			t.Errorf("query %d: headers %v", i, h)
		}
	}
	var points []int
	for _, r := range s.Requests() {
		if r.Route != "POST /graphql" || r.Write {
			t.Errorf("logged %+v, want the read POST /graphql", r)
		}
		points = append(points, r.Points)
	}
	if !slices.Equal(points, []int{1, 2, 2, 0}) || s.GraphQLPoints() != 5 || s.GraphQLRateRemaining() != 995 {
		t.Errorf("points logged %v (sum %d), remaining %d", points, s.GraphQLPoints(), s.GraphQLRateRemaining())
	}
	if s.RateRemaining() != restBefore {
		t.Errorf("REST bucket %d, was %d: GraphQL drew on it", s.RateRemaining(), restBefore)
	}
	// The hour over, the bucket is full again.
	s.Clock().Advance(time.Hour)
	if s.GraphQLRateRemaining() != 1000 {
		t.Errorf("after the hour: %d left", s.GraphQLRateRemaining())
	}
}

// An exhausted bucket answers RATE_LIMITED in either of GitHub's shapes,
// charges nothing and serves nothing.
func TestGraphQLRateLimited(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	const q = `query{viewer{login}}`
	s.SetGraphQLRateRemaining(0)
	got := gql(t, ts, q, nil)
	if got.status != 200 || got.hasData || len(got.Errors) != 1 || got.Errors[0].Type != "RATE_LIMITED" ||
		!strings.HasPrefix(got.Errors[0].Message, "API rate limit exceeded") || got.header["X-Ratelimit-Remaining"][0] != "0" ||
		got.header["X-Ratelimit-Reset"][0] != fmt.Sprint(t0.Add(time.Hour).Unix()) {
		t.Errorf("exhausted: %d %v %s", got.status, got.header, got.raw)
	}
	s.SetGraphQLRateLimit403(true)
	got = gql(t, ts, q, nil)
	if got.status != 403 || len(got.Errors) != 1 || got.Errors[0].Type != "RATE_LIMIT" || got.Errors[0].Code != "graphql_rate_limit" {
		t.Errorf("exhausted, 403 shape: %d %s", got.status, got.raw)
	}
	// A query costing more than what is left is refused too.
	s.SetGraphQLRateRemaining(1)
	s.SetGraphQLRateLimit403(false)
	big := `query{repository(owner:"octo-org",name:"widgets"){pullRequests(first:100){nodes{timelineItems(last:100){totalCount} labels(first:100){totalCount}}}}}`
	if got := gql(t, ts, big, nil); len(got.Errors) != 1 || got.Errors[0].Type != "RATE_LIMITED" || s.GraphQLRateRemaining() != 1 {
		t.Errorf("2 points with 1 left: %s, %d left", got.raw, s.GraphQLRateRemaining())
	}
	if got := gql(t, ts, q, nil); len(got.Errors) != 0 || s.GraphQLRateRemaining() != 0 {
		t.Errorf("1 point with 1 left: %s, %d left", got.raw, s.GraphQLRateRemaining())
	}
}

// faultPage is a page of open PRs by creation: #6, #2, #1, #5.
func faultPage(first int) string {
	return fmt.Sprintf(`query{repository(owner:"octo-org",name:"widgets"){pullRequests(states:[OPEN],first:%d,orderBy:{field:CREATED_AT,direction:ASC}){totalCount nodes{number timelineItems(last:10){totalCount}}}}}`, first)
}

// pageNumbers is a page's PR numbers (nil for a null node), then its totalCount.
func pageNumbers(t *testing.T, r gqlResp) string {
	t.Helper()
	var d struct {
		Repository *struct {
			PullRequests struct {
				TotalCount int
				Nodes      []*struct{ Number int }
			}
		}
	}
	if err := json.Unmarshal(r.Data, &d); err != nil || d.Repository == nil {
		t.Fatalf("%s: %v", r.raw, err)
	}
	var out []any
	for _, n := range d.Repository.PullRequests.Nodes {
		if n == nil {
			out = append(out, nil)
		} else {
			out = append(out, n.Number)
		}
	}
	return fmt.Sprint(append(out, d.Repository.PullRequests.TotalCount))
}

// A timeout for pages larger than 2 PRs: halving the batch gets through.
func TestGraphQLFaultTimeout(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Times: -1, Fault: TimeoutGraphQL(2)})
	got := gql(t, ts, faultPage(4), nil)
	if got.status != 200 || string(got.Data) != "null" || len(got.Errors) != 1 ||
		!strings.HasPrefix(got.Errors[0].Message, "Something went wrong while executing your query. This may be the result of a timeout") {
		t.Errorf("4 PRs: %d %s", got.status, got.raw)
	}
	if got := gql(t, ts, faultPage(2), nil); pageNumbers(t, got) != "[6 2 4]" {
		t.Errorf("2 PRs: %s", got.raw)
	}
	if got := gql(t, ts, `query{viewer{login}}`, nil); len(got.Errors) > 0 {
		t.Errorf("no page: %s", got.raw)
	}
	if r := s.Requests(); r[0].Fault != "graphql timeout" || r[1].Fault != "" || r[0].Points != 1 || r[1].Points != 1 {
		t.Errorf("log: %+v", r)
	}
	// Without a size, every query times out: a PR's history too.
	s.ClearFaults()
	s.InjectFault(FaultRule{Route: "POST /graphql", Fault: TimeoutGraphQL(0)})
	got = gql(t, ts, `query{repository(owner:"octo-org",name:"widgets"){pullRequest(number:1){timelineItems(last:100){totalCount}}}}`, nil)
	if string(got.Data) != "null" || len(got.Errors) != 1 || !strings.Contains(got.Errors[0].Message, "timeout") {
		t.Errorf("history: %s", got.raw)
	}
}

func TestGraphQLFaultBadGateway(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Fault: BadGatewayGraphQL(false)})
	s.InjectFault(FaultRule{Route: "POST /graphql", Nth: 2, Fault: BadGatewayGraphQL(true)})
	got := do(t, ts, "POST", "/graphql", `{"query":"query{viewer{login}}"}`)
	if got.status != 502 || string(got.body) != `{"message":"Server Error"}` || got.header.Get("X-Ratelimit-Resource") != "graphql" {
		t.Errorf("JSON 502: %d %v %s", got.status, got.header, got.body)
	}
	got = do(t, ts, "POST", "/graphql", `{"query":"query{viewer{login}}"}`)
	if got.status != 502 || !strings.HasPrefix(string(got.body), "<html>") || got.header.Get("Content-Type") != "text/html" {
		t.Errorf("HTML 502: %d %v %s", got.status, got.header, got.body)
	}
	if s.GraphQLPoints() != 0 {
		t.Error("a 502 was charged")
	}
}

// Partial data: one PR null, an error whose path points at it (or at its
// timelineItems), the rest served.
func TestGraphQLFaultPartialData(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Fault: PartialGraphQL(1, false)})
	s.InjectFault(FaultRule{Route: "POST /graphql", Nth: 2, Fault: PartialGraphQL(0, true)})
	got := gql(t, ts, faultPage(4), nil)
	if pageNumbers(t, got) != "[6 2 <nil> 5 4]" || len(got.Errors) != 1 || fmt.Sprint(got.Errors[0].Path) != "[repository pullRequests nodes 2]" {
		t.Errorf("PR #1 null: %s", got.raw)
	}
	got = gql(t, ts, faultPage(4), nil)
	if pageNumbers(t, got) != "[<nil> 2 1 5 4]" || len(got.Errors) != 1 ||
		fmt.Sprint(got.Errors[0].Path) != "[repository pullRequests nodes 0 timelineItems]" {
		t.Errorf("first PR's timeline in error: %s", got.raw)
	}
	if got := gql(t, ts, faultPage(4), nil); pageNumbers(t, got) != "[6 2 1 5 4]" {
		t.Errorf("after the faults: %s", got.raw)
	}
	if r := s.Requests(); r[0].Fault != "graphql partial" || r[1].Fault != "graphql partial" || r[2].Fault != "" {
		t.Errorf("log: %+v", r)
	}
}

func TestGraphQLFaultMissingPR(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Times: 2, Fault: MissingPRGraphQL(2)})
	got := gql(t, ts, faultPage(4), nil)
	if pageNumbers(t, got) != "[6 1 5 4]" || len(got.Errors) != 0 {
		t.Errorf("#2 left out: %s", got.raw)
	}
	got = gql(t, ts, `query{repository(owner:"octo-org",name:"widgets"){pullRequest(number:2){number}}}`, nil)
	if got.raw != `{"data":{"repository":{"pullRequest":null}}}` {
		t.Errorf("#2 alone: %s", got.raw)
	}
}

func TestGraphQLFaultRateLimits(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Fault: RateLimitedGraphQL(false)})
	s.InjectFault(FaultRule{Route: "POST /graphql", Nth: 2, Fault: RateLimitedGraphQL(true)})
	s.InjectFault(FaultRule{Route: "POST /graphql", Nth: 3, Fault: SecondaryRateLimit(403, 60)})
	if got := gql(t, ts, faultPage(1), nil); got.status != 200 || len(got.Errors) != 1 || got.Errors[0].Type != "RATE_LIMITED" {
		t.Errorf("RATE_LIMITED: %d %s", got.status, got.raw)
	}
	if got := gql(t, ts, faultPage(1), nil); got.status != 403 || len(got.Errors) != 1 || got.Errors[0].Code != "graphql_rate_limit" {
		t.Errorf("RATE_LIMIT 403: %d %s", got.status, got.raw)
	}
	got := do(t, ts, "POST", "/graphql", `{"query":"query{viewer{login}}"}`)
	if got.status != 403 || got.header.Get("Retry-After") != "60" || !strings.Contains(string(got.body), "secondary rate limit") {
		t.Errorf("secondary: %d %v %s", got.status, got.header, got.body)
	}
	if s.GraphQLRateRemaining() != 5000 {
		t.Errorf("the faults changed the bucket: %d", s.GraphQLRateRemaining())
	}
}

// Variables with defaults, aliases, fragment spreads, inline fragments on
// interfaces and unions, __typename and @include, as a GraphQL server
// must.
func TestGraphQLExecutesTheLanguage(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	q := `query Page($n:Int=1,$withTitle:Boolean!){__typename r:repository(owner:"octo-org",name:"widgets"){__typename nameWithOwner ` +
		`one:pullRequest(number:$n){...pr title @include(if:$withTitle)} two:pullRequest(number:2){...pr title @skip(if:true)}}} ` +
		`fragment pr on PullRequest{number author{...on Node{id} ...on User{login}} reviewRequests(first:5){nodes{requestedReviewer{__typename}}}}`
	got := gql(t, ts, q, map[string]any{"withTitle": true})
	var d map[string]any
	got.into(t, &d)
	r := d["r"].(map[string]any)
	one, two := r["one"].(map[string]any), r["two"].(map[string]any)
	if d["__typename"] != "Query" || r["__typename"] != "Repository" || r["nameWithOwner"] != "octo-org/widgets" ||
		one["number"] != 1.0 || one["title"] != "Add widget polishing (v2)" || two["number"] != 2.0 || two["title"] != nil {
		t.Errorf("%s", got.raw)
	}
	if _, hasTitle := two["title"]; hasTitle {
		t.Errorf("@skip(if:true) served the title: %s", got.raw)
	}
	if a := one["author"].(map[string]any); a["login"] != "alice" || !strings.HasPrefix(a["id"].(string), "U_") {
		t.Errorf("author via interface fragments: %v", a)
	}
	if !strings.Contains(got.raw, `"requestedReviewer":{"__typename":"Team"}`) {
		t.Errorf("union member __typename: %s", got.raw)
	}
	// Field order follows the query.
	if !strings.HasPrefix(got.raw, `{"data":{"__typename":"Query","r":{"__typename":"Repository","nameWithOwner"`) {
		t.Errorf("order: %s", got.raw)
	}
	// An unknown repository is NOT_FOUND with data null there.
	miss := gql(t, ts, `query{repository(owner:"o",name:"r"){id}}`, nil)
	if miss.raw != `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"locations":[{"line":1,"column":7}],"message":"Could not resolve to a Repository with the name 'o/r'."}]}` {
		t.Errorf("unknown repository: %s", miss.raw)
	}
	// A variable of the wrong type is refused before running.
	bad := gql(t, ts, `query($n:Int!){repository(owner:"octo-org",name:"widgets"){pullRequest(number:$n){number}}}`, map[string]any{"n": "one"})
	if bad.hasData || len(bad.Errors) != 1 || bad.Errors[0].Message != "Variable $n of type Int! was provided invalid value" {
		t.Errorf("bad variable: %s", bad.raw)
	}
}

// The cost function on GitHub's own worked examples ("Rate limits and node
// limits for the GraphQL API"), on a schema with their connections.
func TestGraphQLCostOfGitHubsExamples(t *testing.T) {
	t.Parallel()
	schema := `type Query { viewer: User! }
type User { login: String! repositories(first: Int, last: Int): RepositoryConnection! followers(first: Int, last: Int): FollowerConnection! following(first: Int, last: Int): FollowingConnection! }
type RepositoryConnection { edges: [RepositoryEdge] }
type RepositoryEdge { node: Repository }
type FollowerConnection { edges: [FollowerEdge] }
type FollowerEdge { node: User }
type FollowingConnection { edges: [FollowingEdge] }
type FollowingEdge { node: User }
type Repository { id: ID! name: String! issues(first: Int, last: Int): IssueConnection! pullRequests(first: Int, last: Int): PullRequestConnection! }
type IssueConnection { totalCount: Int! edges: [IssueEdge] }
type IssueEdge { node: Issue }
type Issue { id: ID! title: String! bodyHTML: String! labels(first: Int, last: Int): LabelConnection comments(first: Int, last: Int): IssueCommentConnection! }
type PullRequestConnection { edges: [PullRequestEdge] }
type PullRequestEdge { node: PullRequest }
type PullRequest { title: String! comments(first: Int, last: Int): IssueCommentConnection! }
type IssueCommentConnection { edges: [IssueCommentEdge] }
type IssueCommentEdge { node: IssueComment }
type IssueComment { bodyHTML: String! }
type LabelConnection { edges: [LabelEdge] }
type LabelEdge { node: Label }
type Label { id: ID! name: String! }`
	cases := []struct {
		name, query     string
		requests, nodes int
		points          int
	}{
		{"100 repositories, 50 issues each, 60 labels each",
			`query{viewer{login repositories(first:100){edges{node{id issues(first:50){edges{node{id labels(first:60){edges{node{id name}}}}}}}}}}}`,
			5101, 305100, 51},
		{"the node limit example",
			`query{viewer{repositories(first:50){edges{repository:node{name pullRequests(first:20){edges{pullRequest:node{title comments(first:10){edges{comment:node{bodyHTML}}}}}} ` +
				`issues(first:20){totalCount edges{issue:node{title bodyHTML comments(first:10){edges{comment:node{bodyHTML}}}}}}}}} ` +
				`followers(first:10){edges{follower:node{login followers(first:10){edges{node{login}}} following(first:5){edges{node{login}}}}}}}}`,
			2122, 22210, 21},
	}
	for _, c := range cases {
		doc, op := loadWith(t, schema, c.query)
		q := analyse(doc, op, nil)
		if len(q.errs) > 0 || q.requests != c.requests || q.nodes != c.nodes || q.points() != c.points {
			t.Errorf("%s: %d requests, %d nodes, %d points, errors %v; want %d, %d, %d", c.name, q.requests, q.nodes, q.points(), q.errs,
				c.requests, c.nodes, c.points)
		}
	}
	if (queryCost{}).points() != 1 || (queryCost{requests: 149}).points() != 1 || (queryCost{requests: 150}).points() != 2 {
		t.Error("points: at least 1, requests/100 rounded")
	}
}

// GitHub's limits keep the connections the client sends to 1 point a page.
func TestGraphQLClientPageCostsOnePoint(t *testing.T) {
	t.Parallel()
	q := `query($first:Int!){viewer{login} rateLimit{cost} repository(owner:"o",name:"r"){pullRequests(states:[OPEN],first:$first){nodes{number ` +
		`labels(first:100){totalCount} timelineItems(last:100){totalCount}}}}}`
	doc, op, errs := parseGraphQL(q, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct{ first, points int }{{100, 2}, {50, 1}, {1, 1}} {
		if got := analyse(doc, op, map[string]any{"first": c.first}).points(); got != c.points {
			t.Errorf("first %d: %d points, want %d", c.first, got, c.points)
		}
	}
}

// loadWith parses and validates a query against another schema.
func loadWith(t *testing.T, sdl, query string) (*ast.QueryDocument, *ast.OperationDefinition) {
	t.Helper()
	schema, err := gqlparser.LoadSchema(&ast.Source{Input: sdl})
	if err != nil {
		t.Fatal(err)
	}
	doc, errs := gqlparser.LoadQueryWithRules(schema, query, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return doc, doc.Operations[0]
}

// Cursors are positions in the order, not offsets: a PR updated between
// pages moves behind the cursor and comes again on a later page, and none
// is skipped (the listing is rebuilt after the write).
func TestGraphQLCursorsSurviveWrites(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	var p prPage
	gql(t, ts, pageQuery, withVars(map[string]any{"first": 2})).into(t, &p)
	first := p.Repository.PullRequests.Nodes
	s.Comment(first[0].Number, Person("bob"), t0, "bump")
	got := []int{first[0].Number, first[1].Number}
	after := p.Repository.PullRequests.PageInfo.EndCursor
	for p.Repository.PullRequests.PageInfo.HasNextPage {
		p = prPage{}
		gql(t, ts, pageQuery, withVars(map[string]any{"first": 2, "after": after})).into(t, &p)
		for _, n := range p.Repository.PullRequests.Nodes {
			got = append(got, n.Number)
		}
		after = p.Repository.PullRequests.PageInfo.EndCursor
	}
	want := []int{6, 2, 1, 5, 6}
	if !slices.Equal(got, want) {
		t.Errorf("pages %v, want %v", got, want)
	}
}

// A GraphQL fault's rule counts only the requests it applies to: a viewer
// query between pages does not use it up.
func TestGraphQLFaultRulesCountPages(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Nth: 2, Fault: TimeoutGraphQL(3)})
	s.InjectFault(FaultRule{Route: "POST /graphql", Fault: MissingPRGraphQL(0)})
	var got []string
	for _, q := range []string{`query{viewer{login}}`, faultPage(4), `query{viewer{login}}`, faultPage(2), faultPage(4), faultPage(4)} {
		r := gql(t, ts, q, nil)
		switch {
		case len(r.Errors) > 0:
			got = append(got, "error")
		case strings.Contains(q, "viewer"):
			got = append(got, "viewer")
		default:
			got = append(got, pageNumbers(t, r))
		}
	}
	want := []string{"viewer", "[2 1 5 4]", "viewer", "[6 2 4]", "error", "[6 2 1 5 4]"}
	if !slices.Equal(got, want) {
		t.Errorf("answers %q\nwant %q", got, want)
	}
}
