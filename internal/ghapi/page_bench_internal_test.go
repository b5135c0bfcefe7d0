package ghapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/sweep"
)

// benchItems are timeline items of the kinds a busy PR's history holds.
var benchItems = []string{
	`{"__typename":"IssueComment","databaseId":7,"author":{"__typename":"User","login":"alice"},"authorAssociation":"CONTRIBUTOR","body":"a comment of some length, as people write them","createdAt":"2026-01-15T00:00:00Z"}`,
	`{"__typename":"PullRequestReview","author":{"__typename":"User","login":"bob"},"authorAssociation":"MEMBER","authorCanPushToRepository":true,"state":"COMMENTED","submittedAt":"2026-01-16T00:00:00Z"}`,
	`{"__typename":"PullRequestCommit","commit":{"oid":"0123456789abcdef0123456789abcdef01234567","committedDate":"2026-01-17T00:00:00Z","messageHeadline":"fix the thing",` +
		`"author":{"name":"Alice","email":"alice@example.com","date":"2026-01-17T00:00:00Z","user":{"login":"alice"}},` +
		`"committer":{"name":"GitHub","email":"noreply@github.com","date":"2026-01-17T00:00:00Z","user":null}}}`,
	`{"__typename":"LabeledEvent","actor":{"__typename":"Bot","login":"stalepr"},"createdAt":"2026-01-18T00:00:00Z","label":{"name":"stale"}}`,
	`{"__typename":"ReviewRequestedEvent","actor":{"__typename":"User","login":"alice"},"createdAt":"2026-01-19T00:00:00Z","requestedReviewer":{"__typename":"Team","slug":"core","combinedSlug":"o/core"}}`,
}

// benchPage is a listing page of n PRs, each with 100 timeline items.
func benchPage(n int) []byte {
	nodes := make([]string, n)
	for i := range nodes {
		items := make([]string, 100)
		for k := range items {
			items[k] = benchItems[k%len(benchItems)]
		}
		nodes[i] = fmt.Sprintf(`{"id":"PR_%d","number":%d,"title":"a title","url":"https://github.com/o/r/pull/%d","createdAt":"2026-01-01T00:00:00Z",`+
			`"updatedAt":"2026-02-01T00:00:00Z","isDraft":false,"locked":false,"author":{"__typename":"User","login":"carol"},`+
			`"authorAssociation":"CONTRIBUTOR","milestone":null,"headRefOid":"abc","baseRef":{"target":{"committedDate":"2026-01-01T00:00:00Z"}},"mergeable":"MERGEABLE","reviewDecision":null,`+
			`"labels":{"totalCount":1,"nodes":[{"name":"bug"}]},"timelineItems":{"totalCount":100,"pageInfo":{"hasPreviousPage":false,"startCursor":"c0"},`+
			`"nodes":[%s]}}`, i+1, i+1, i+1, strings.Join(items, ","))
	}
	return []byte(`{"data":{"viewer":{"login":"github-actions[bot]"},"rateLimit":{"cost":1,"limit":5000,"remaining":4990,"resetAt":"2026-11-29T13:00:00Z"},` +
		`"repository":{"pullRequests":{"totalCount":` + fmt.Sprint(n) + `,"pageInfo":{"hasNextPage":false,"endCursor":"e"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `]}}}}`)
}

// BenchmarkOpenPullsPage is the CPU of one listing page of 74 PRs with
// 100 timeline items each (1.3 MB), sent, decoded and converted, without
// the fake GitHub's own work.
//
//	go test -run '^$' -bench BenchmarkOpenPullsPage ./internal/ghapi/
func BenchmarkOpenPullsPage(b *testing.B) {
	body := benchPage(PullsPerPage)
	base := roundTrip(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Request: r,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body))}, nil
	})
	c, err := New(Options{Token: "t", Owner: "o", Repo: "r", Base: base, Clock: fakegithub.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		prs, _, err := c.OpenPulls(context.Background(), sweep.Query{}, "")
		if err != nil || len(prs) != PullsPerPage || len(prs[0].History) != 100 || prs[0].Err != nil {
			b.Fatalf("read %d PRs: %v", len(prs), err)
		}
	}
}

// roundTrip answers requests without a network.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
