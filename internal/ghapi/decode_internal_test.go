package ghapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// answering is a client whose every GraphQL query GitHub answers with body.
func answering(t *testing.T, body string) *Client {
	t.Helper()
	base := roundTrip(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Request: r,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	c, err := New(Options{Token: "t", Owner: "o", Repo: "r", Base: base, Clock: fakegithub.NewClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDecodeEveryTimelineItem: one decoding of a page whose history holds
// every kind of item asked for, some with null parts, gives each its
// kind's facts (the union's fragments side by side in one struct, told
// apart by __typename), and the null label and the null item leave the PR
// untouched.
func TestDecodeEveryTimelineItem(t *testing.T) {
	t.Parallel()
	prs, page, err := answering(t, strings.Replace(everyItem, `"EXTRA":0,`, ``, 1)).OpenPulls(context.Background(), sweep.Query{}, "")
	if err != nil || len(prs) != 1 {
		t.Fatalf("OpenPulls: %d PRs, %v", len(prs), err)
	}
	if page.Viewer != "github-actions[bot]" || page.After != "Y3Vy" || page.Total != 1 {
		t.Errorf("page: %+v", page)
	}
	l := prs[0]
	if l.Err == nil || !strings.Contains(l.Err.Error(), "2 null labels or null or undated timeline items") {
		t.Errorf("a null label and a null item: Err %v", l.Err)
	}
	pr := l.PR
	if pr.Title != `Fix <it> & "that"` || !pr.Draft || pr.Locked || pr.Milestone != "v2" || pr.Author != "dependabot[bot]" || !pr.AuthorBot ||
		pr.Mergeable != "CONFLICTING" || fmt.Sprint(pr.Labels) != "[stale]" || !pr.UpdatedAt.Equal(time.Date(2026, 5, 1, 10, 20, 30, 0, time.UTC)) {
		t.Errorf("PR: %+v", pr)
	}
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	want := []lifecycle.Event{
		{Kind: lifecycle.Commented, At: day(2), Actor: "alice", CommentID: 7, Association: "MEMBER", Body: "hi"},
		{Kind: lifecycle.Commented, At: day(3), Actor: ghost, CommentID: 8, Association: "NONE"},
		{Kind: lifecycle.Reviewed, At: day(4), Actor: "bob", ReviewState: "APPROVED", Association: "COLLABORATOR", Access: lifecycle.AccessWrite},
		{Kind: lifecycle.Committed, At: day(5), SHA: "c1", CommitAuthor: "alice"},
		{Kind: lifecycle.ForcePushed, At: day(6), Actor: "alice"},
		{Kind: lifecycle.ForcePushed, At: day(6).Add(time.Hour), Actor: ghost, SHA: "c2"},
		{Kind: lifecycle.Labeled, At: day(7), Actor: "github-actions[bot]", Bot: true, Label: "stale"},
		{Kind: lifecycle.Unlabeled, At: day(8), Actor: "alice", Label: "stale"},
		{Kind: lifecycle.Reopened, At: day(9), Actor: "alice"},
		{Kind: lifecycle.Closed, At: day(10), Actor: "old"},
		{Kind: lifecycle.ReadyForReview, At: day(11), Actor: "alice"},
		{Kind: lifecycle.ConvertedToDraft, At: day(12), Actor: "alice"},
		{Kind: lifecycle.Renamed, At: day(13), Actor: "alice"},
		{Kind: lifecycle.Edited, At: day(14), Actor: "alice"},
		{Kind: lifecycle.Edited, At: day(15), Actor: "alice"},
		{Kind: lifecycle.Edited, At: day(16), Actor: "alice"},
		{Kind: lifecycle.Edited, At: day(17), Actor: "alice"},
		{Kind: lifecycle.Edited, At: day(18), Actor: "alice"},
		{Kind: lifecycle.ReviewRequested, At: day(19), Actor: "alice", Team: "o/core"},
		{Kind: lifecycle.ReviewRequested, At: day(19), Actor: "alice", Reviewer: "copilot-pull-request-reviewer[bot]", ReviewerBot: true},
		{Kind: lifecycle.ReviewRequestRemoved, At: day(20), Actor: "alice"},
	}
	if got := l.History; fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("history:\n got %+v\nwant %+v", got, want)
	}
}

// TestDecodeAnswersNoGitHubSends: an answer that does not fit the query
// (a wrong type, not JSON, cut short, a scalar for the data) fails the
// page; one without data and without an error is malformed; nothing of
// either is read.
func TestDecodeAnswersNoGitHubSends(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"empty answer":         `{}`,
		"data null":            `{"data":null}`,
		"repository null":      `{"data":{"viewer":{"login":"x"},"repository":null}}`,
		"a string for a count": `{"data":{"repository":{"pullRequests":{"totalCount":"7"}}}}`,
		"a fraction":           `{"data":{"repository":{"pullRequests":{"totalCount":1.5}}}}`,
		"a number for a login": `{"data":{"viewer":{"login":7}}}`,
		"a time that is none":  `{"data":{"rateLimit":{"resetAt":"yesterday"}}}`,
		"an object for a list": `{"data":{"repository":{"pullRequests":{"nodes":{}}}}}`,
		"the data a scalar":    `{"data":"x"}`,
		"not JSON":             `{"data":`,
		"cut inside the data":  `{"data":{"viewer":{"login":"x"}`,
		"a value after it":     `{"data":{"viewer":{"login":"x"}}} {"data":1}`,
		// Beside an error naming a part of the answer, the data that does
		// not fit is no more a fact than without one.
		"a wrong type beside an error": `{"data":{"repository":{"pullRequests":{"totalCount":"7"}}},` +
			`"errors":[{"message":"x","path":["repository","pullRequests","nodes",0,"timelineItems"]}]}`,
	} {
		prs, _, err := answering(t, body).OpenPulls(context.Background(), sweep.Query{}, "")
		if err == nil || len(prs) > 0 {
			t.Errorf("%s: %d PRs read, err %v", name, len(prs), err)
		}
	}
}

// TestDecodeNullsAreUnknowns: a PR whose draft state, lock, labels or
// history GitHub answers null, or leaves out, is listed with Err (not
// known, never "no"); a null node is counted unread.
func TestDecodeNullsAreUnknowns(t *testing.T) {
	t.Parallel()
	full := gqlPR(1)
	for _, field := range []string{`"isDraft":false`, `"locked":false`, `"labels":{"totalCount":1,"nodes":[{"name":"stale"}]}`, `"createdAt":"2026-01-01T00:00:00Z"`} {
		key := field[:strings.Index(field, ":")]
		for _, how := range []string{key + `:null`, `"other":1`} {
			prs, _, err := answering(t, gqlPage(strings.Replace(full, field, how, 1))).OpenPulls(context.Background(), sweep.Query{}, "")
			if err != nil || len(prs) != 1 || prs[0].Err == nil || !strings.Contains(prs[0].Err.Error(), "null") {
				t.Errorf("%s as %s: %v, %+v", key, how, err, prs)
			}
		}
	}
	prs, page, err := answering(t, gqlPage("null", full)).OpenPulls(context.Background(), sweep.Query{}, "")
	if err != nil || len(prs) != 1 || prs[0].Err != nil || page.Unread != 1 {
		t.Errorf("a null node: %v, %+v, %+v", err, prs, page)
	}
}

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
