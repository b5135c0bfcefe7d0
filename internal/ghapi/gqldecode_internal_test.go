package ghapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/shurcooL/githubv4"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// roundTrip answers every request with one body, without a network.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func bodyClient(body []byte) *http.Client {
	return &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Request: r,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body))}, nil
	})}
}

// decodeBoth decodes body into a new Q with githubv4 and with readAnswer
// and fails t where they part: one errs and not the other, or what they
// decoded differs (on an error too: both stop at the same place). An
// answer's errors are githubv4's error, its first message.
func decodeBoth[Q any](t *testing.T, name string, body []byte) {
	t.Helper()
	var want, got Q
	werr := githubv4.NewClient(bodyClient(body)).Query(context.Background(), &want, nil)
	ans, gerr := readAnswer(body, &got)
	if gerr == nil && len(ans.errors) > 0 {
		gerr = answerErrors(ans.errors)
	}
	if (werr == nil) != (gerr == nil) {
		t.Errorf("%s: githubv4 says %v, readAnswer %v", name, werr, gerr)
	}
	if werr == nil && gerr == nil || isAnswerErrors(werr) {
		if werr != nil && gerr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%s: githubv4's error %q, readAnswer's %q", name, werr, gerr)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: decoded differently\ngithubv4:   %+v\nreadAnswer: %+v", name, want, got)
		}
	}
}

// answerErrors are an answer's errors as githubv4 says them.
type answerErrors gqlErrors

func (e answerErrors) Error() string { return e[0].Message }

// isAnswerErrors reports an answer's errors (after its data was decoded),
// not a failure to decode.
func isAnswerErrors(err error) bool {
	return err != nil && reflect.TypeOf(err).Kind() == reflect.Slice
}

// TestDecodeAnswerAsGithubv4: the answers to our queries decode as
// githubv4 decodes them: the fake's real pages and histories, and answers
// no GitHub should send (wrong types, unknown fields, nulls, odd casing).
func TestDecodeAnswerAsGithubv4(t *testing.T) {
	t.Parallel()
	fake := fakegithub.Synthetic(120, 3, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	fake.SetToken("")
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	var last []byte
	rec := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			last, _ = io.ReadAll(resp.Body)
			resp.Body = io.NopCloser(bytes.NewReader(last))
		}
		return resp, err
	})}
	gq := githubv4.NewEnterpriseClient(srv.URL+"/graphql", rec)
	ctx := context.Background()
	order := githubv4.IssueOrder{Field: githubv4.IssueOrderFieldUpdatedAt, Direction: githubv4.OrderDirectionAsc}
	vars := func(states ...githubv4.PullRequestState) map[string]any {
		return map[string]any{"owner": githubv4.String("octo-org"), "name": githubv4.String("widgets"),
			"first": githubv4.Int(40), "after": (*githubv4.String)(nil), "labels": (*[]githubv4.String)(nil),
			"before": (*githubv4.String)(nil), "orderBy": order, "states": states}
	}
	open := []githubv4.PullRequestState{githubv4.PullRequestStateOpen}
	real := []struct {
		name   string
		q      any
		vars   map[string]any
		decode func(*testing.T, string, []byte)
	}{
		{"open page", &pullsQuery[prFields]{}, vars(open...), decodeBoth[pullsQuery[prFields]]},
		{"open page with assignees", &pullsQuery[prWithAssignees]{}, vars(open...), decodeBoth[pullsQuery[prWithAssignees]]},
		// The closure audit's shape, on the open PRs (the synthetic repository has no closed one).
		{"closed page", &pullsQuery[prClosed]{}, vars(open...), decodeBoth[pullsQuery[prClosed]]},
	}
	var longest pullsQuery[prFields]
	if err := gq.Query(ctx, &longest, vars(open...)); err != nil {
		t.Fatalf("the fake's page: %v", err)
	}
	most, number := 0, 0
	for _, n := range longest.Repository.PullRequests.Nodes {
		if len(n.TimelineItems.Nodes) > most {
			most, number = len(n.TimelineItems.Nodes), n.Number
		}
	}
	byNumber := map[string]any{"owner": githubv4.String("octo-org"), "name": githubv4.String("widgets"), "number": githubv4.Int(number)}
	withBefore := map[string]any{"before": (*githubv4.String)(nil)}
	for k, v := range byNumber {
		withBefore[k] = v
	}
	real = append(real, []struct {
		name   string
		q      any
		vars   map[string]any
		decode func(*testing.T, string, []byte)
	}{
		{"the longest history", &historyQuery{}, withBefore, decodeBoth[historyQuery]},
	}...)
	for _, r := range real {
		if err := gq.Query(ctx, r.q, r.vars); err != nil {
			t.Fatalf("%s: the fake's answer: %v", r.name, err)
		}
		if len(last) < 300 {
			t.Fatalf("%s: the fake answered only %s", r.name, last)
		}
		r.decode(t, r.name, last)
	}

	for _, c := range []struct{ name, body string }{
		{"every kind of timeline item", everyItem},
		{"nulls and empty lists", `{"data":{"viewer":null,"rateLimit":{"cost":null,"resetAt":null},"repository":{"pullRequests":` +
			`{"totalCount":2,"pageInfo":{"hasNextPage":false,"endCursor":null},"nodes":[null,{"number":3,"author":null,` +
			`"milestone":null,"labels":{"totalCount":0,"nodes":[]},"timelineItems":{"nodes":null}}]}}}}`},
		{"data and errors", `{"data":{"repository":{"pullRequests":{"nodes":[null]}}},"errors":[{"type":"NOT_FOUND",` +
			`"message":"no","path":["repository","pullRequests","nodes",0]},{"message":"second"}]}`},
		{"no data", `{"data":null,"errors":[{"message":"Something went wrong"}]}`},
		{"empty answer", `{}`},
		{"data in capitals", `{"DATA":{"viewer":{"login":"x"}}}`},
		{"keys in other casings", `{"data":{"Viewer":{"LOGIN":"a","login":"b"},"rateLimit":{"Cost":3,"cost":4}}}`},
		{"a key twice, null the second time", `{"data":{"repository":{"pullRequests":{"nodes":[{"milestone":{"title":"a"},` +
			`"milestone":null,"labels":{"nodes":[{"name":"x"}]},"labels":{"nodes":null}}]}}}}`},
		{"a value after the answer", `{"data":{"viewer":{"login":"x"}}} {"data":1}`},
		{"an unknown field", `{"data":{"viewer":{"login":"a","name":"b"}}}`},
		{"an unknown field in a fragment", `{"data":{"repository":{"pullRequests":{"nodes":[{"timelineItems":{"nodes":[` +
			`{"__typename":"IssueComment","bogus":1}]}}]}}}}`},
		{"a string for a number", `{"data":{"repository":{"pullRequests":{"totalCount":"7"}}}}`},
		{"a fraction for a number", `{"data":{"repository":{"pullRequests":{"totalCount":1.5}}}}`},
		{"a number too large", `{"data":{"repository":{"pullRequests":{"totalCount":99999999999999999999}}}}`},
		{"a number for a string", `{"data":{"viewer":{"login":7}}}`},
		{"a boolean for a string", `{"data":{"viewer":{"login":true}}}`},
		{"a number for a time", `{"data":{"rateLimit":{"resetAt":7}}}`},
		{"a time that is none", `{"data":{"rateLimit":{"resetAt":"yesterday"}}}`},
		{"an object for a string", `{"data":{"viewer":{"login":{}}}}`},
		{"an object with keys for a string", `{"data":{"viewer":{"login":{"a":1}}}}`},
		{"a list for an object", `{"data":{"viewer":[{"login":"a"}]}}`},
		{"an empty list for an object", `{"data":{"viewer":[]}}`},
		{"an object for a list", `{"data":{"repository":{"pullRequests":{"nodes":{}}}}}`},
		{"a string for a list", `{"data":{"repository":{"pullRequests":{"nodes":"x"}}}}`},
		{"escapes", `{"data":{"viewer":{"login":"a\u003cb\ud83d\ude00 \"q\" \\ \ud800"}}}`},
		{"the data a scalar", `{"data":"x"}`},
		{"not JSON", `{"data":`},
		{"cut inside the data", `{"data":{"viewer":{"login":"x"}`},
	} {
		decodeBoth[pullsQuery[prFields]](t, c.name, []byte(strings.Replace(c.body, `"EXTRA":0,`, ``, 1)))
		decodeBoth[pullsQuery[prWithAssignees]](t, c.name+" (assignees)", []byte(strings.Replace(c.body, `"EXTRA":0,`,
			`"assignees":{"totalCount":2,"nodes":[{"login":"alice"},null]},`, 1)))
		decodeBoth[pullsQuery[prClosed]](t, c.name+" (closed)", []byte(strings.Replace(c.body, `"EXTRA":0,`,
			`"merged":true,"closedAt":"2026-05-02T00:00:00Z","headRef":null,`, 1)))
		history := strings.Replace(c.body, `"pullRequests":`, `"pullRequest":`, 1)
		decodeBoth[historyQuery](t, c.name+" (history)", []byte(strings.Replace(history, `"EXTRA":0,`, ``, 1)))
	}
}

// everyItem is a page of one PR whose timeline holds every kind of item the
// query asks for, some with null parts.
const everyItem = `{"data":{"viewer":{"login":"github-actions[bot]"},"rateLimit":{"cost":1,"limit":5000,"remaining":4999,` +
	`"resetAt":"2026-06-01T01:00:00Z"},"repository":{"pullRequests":{"totalCount":1,"pageInfo":{"hasNextPage":true,"endCursor":"Y3Vy"},` +
	`"nodes":[{"id":"PR_1","number":1,"title":"Fix <it> & \"that\"","url":"https://github.com/o/r/pull/1",` +
	`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-05-01T10:20:30Z","isDraft":true,"locked":false,` +
	`"author":{"__typename":"Bot","login":"dependabot"},"authorAssociation":"NONE","milestone":{"title":"v2"},` +
	`"headRefOid":"abc","mergeable":"CONFLICTING","reviewDecision":null,"EXTRA":0,` +
	`"labels":{"totalCount":2,"nodes":[{"name":"stale"},null]},` +
	`"timelineItems":{"pageInfo":{"hasPreviousPage":true,"startCursor":"c0"},"nodes":[` +
	`{"__typename":"IssueComment","databaseId":7,"author":{"__typename":"User","login":"alice"},"authorAssociation":"MEMBER",` +
	`"body":"hi","createdAt":"2026-01-02T00:00:00Z"},` +
	`{"__typename":"IssueComment","databaseId":8,"author":null,"authorAssociation":"NONE","body":"","createdAt":"2026-01-03T00:00:00Z"},` +
	`{"__typename":"PullRequestReview","author":{"__typename":"User","login":"bob"},"authorAssociation":"COLLABORATOR",` +
	`"authorCanPushToRepository":true,"state":"APPROVED","submittedAt":"2026-01-04T00:00:00Z"},` +
	`{"__typename":"PullRequestReview","author":{"__typename":"User","login":"bob"},"authorAssociation":"COLLABORATOR",` +
	`"authorCanPushToRepository":false,"state":"PENDING","submittedAt":null},` +
	`{"__typename":"PullRequestCommit","commit":{"oid":"c1","committedDate":"2026-01-05T00:00:00Z",` +
	`"author":{"name":"A","email":"a@x","date":"2026-01-05T00:00:00+02:00","user":{"login":"alice"}},` +
	`"committer":{"name":"GitHub","email":"noreply@github.com","date":"2026-01-05T00:00:00Z","user":null}}},` +
	`{"__typename":"HeadRefForcePushedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-06T00:00:00Z","afterCommit":null},` +
	`{"__typename":"HeadRefForcePushedEvent","actor":null,"createdAt":"2026-01-06T01:00:00Z","afterCommit":{"oid":"c2"}},` +
	`{"__typename":"LabeledEvent","actor":{"__typename":"Bot","login":"github-actions"},"createdAt":"2026-01-07T00:00:00Z","label":{"name":"stale"}},` +
	`{"__typename":"UnlabeledEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-08T00:00:00Z","label":{"name":"stale"}},` +
	`{"__typename":"ReopenedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-09T00:00:00Z"},` +
	`{"__typename":"ClosedEvent","actor":{"__typename":"Mannequin","login":"old"},"createdAt":"2026-01-10T00:00:00Z"},` +
	`{"__typename":"ReadyForReviewEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-11T00:00:00Z"},` +
	`{"__typename":"ConvertToDraftEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-12T00:00:00Z"},` +
	`{"__typename":"RenamedTitleEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-13T00:00:00Z"},` +
	`{"__typename":"AssignedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-14T00:00:00Z"},` +
	`{"__typename":"UnassignedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-15T00:00:00Z"},` +
	`{"__typename":"MilestonedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-16T00:00:00Z"},` +
	`{"__typename":"DemilestonedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-17T00:00:00Z"},` +
	`{"__typename":"BaseRefChangedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-18T00:00:00Z"},` +
	`{"__typename":"ReviewRequestedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-19T00:00:00Z",` +
	`"requestedReviewer":{"__typename":"Team","slug":"core","combinedSlug":"o/core"}},` +
	`{"__typename":"ReviewRequestedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-19T00:00:00Z",` +
	`"requestedReviewer":{"__typename":"Bot","login":"copilot-pull-request-reviewer"}},` +
	`{"__typename":"ReviewRequestRemovedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-20T00:00:00Z",` +
	`"requestedReviewer":null},null]}}]}}}}`
