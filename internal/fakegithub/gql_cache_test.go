package fakegithub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The GraphQL documents the equivalence tests send: the client's kinds (a
// page of pull requests with their timelines, one PR's history, the
// viewer), the language's corners (fragments, aliases, directives,
// operation names), a write, and every kind of refusal (syntax, schema,
// variables, pagination limits, unknown repository and cursor).
var sameAnswerQueries = []struct {
	query string
	vars  map[string]any
	name  string
}{
	{query: `query($owner:String!,$name:String!,$first:Int!,$after:String){viewer{login} rateLimit{cost limit remaining used nodeCount resetAt} ` +
		`repository(owner:$owner,name:$name){pullRequests(states:[OPEN],first:$first,after:$after,orderBy:{field:CREATED_AT,direction:ASC}){totalCount ` +
		`pageInfo{hasNextPage endCursor} nodes{id number title url state locked merged mergedAt closedAt baseRefName headRefName headRefOid isCrossRepository createdAt updatedAt isDraft authorAssociation author{...who} ` +
		`labels(first:100){totalCount nodes{id name}} assignees(first:10){nodes{login}} reviewRequests(first:10){nodes{id requestedReviewer{__typename ...on User{login} ...on Team{slug combinedSlug}}}} ` +
		`headRef{name prefix} headRepository{nameWithOwner} milestone{title} reviewDecision ` +
		`timelineItems(last:100){totalCount nodes{__typename ...on IssueComment{id databaseId author{...who} authorAssociation createdAt body} ` +
		`...on PullRequestReview{id author{...who} state body submittedAt authorCanPushToRepository} ` +
		`...on PullRequestCommit{id url commit{oid message committedDate author{name email date user{login}} committer{user{login}}}} ` +
		`...on LabeledEvent{id actor{...who} createdAt label{name}} ...on RenamedTitleEvent{currentTitle previousTitle}}}}}}} ` +
		`fragment who on Actor{__typename login}`,
		vars: map[string]any{"owner": "octo-org", "name": "widgets", "first": 74}},
	{query: timelineQuery, vars: withVars(map[string]any{"n": 1, "last": 100})},
	{query: timelineQuery, vars: withVars(map[string]any{"n": 1, "first": 2, "types": []string{"ISSUE_COMMENT", "PULL_REQUEST_REVIEW"}})},
	{query: `query Page($n:Int=1,$withTitle:Boolean!){__typename r:repository(owner:"octo-org",name:"widgets"){__typename nameWithOwner ` +
		`one:pullRequest(number:$n){...pr title @include(if:$withTitle)} two:pullRequest(number:2){...pr title @skip(if:true)}}} ` +
		`query Other{viewer{login}} ` +
		`fragment pr on PullRequest{number author{...on Node{id} ...on User{login}} reviewRequests(first:5){nodes{requestedReviewer{__typename}}}}`,
		vars: map[string]any{"withTitle": true}, name: "Page"},
	{query: `query A{viewer{login}} query B{viewer{id}}`},
	{query: `query{rateLimit(dryRun:true){cost nodeCount}}`},
	{query: `mutation($id:ID!){convertPullRequestToDraft(input:{pullRequestId:$id,clientMutationId:"m<&>"}){clientMutationId pullRequest{isDraft}}}`,
		vars: map[string]any{"id": pullNodeID(1)}},
	{query: `query{viewer{login`},
	{query: `query{viewer{login nosuch}}`},
	{query: `query($n:Int!){repository(owner:"octo-org",name:"widgets"){pullRequest(number:$n){number}}}`, vars: map[string]any{"n": "one"}},
	{query: `query{repository(owner:"octo-org",name:"widgets"){pullRequests(first:101){totalCount}}}`},
	{query: `query{repository(owner:"octo-org",name:"widgets"){pullRequests(states:[OPEN]){totalCount}}}`},
	{query: `query{repository(owner:"o",name:"r"){id}}`},
	{query: `query{repository(owner:"octo-org",name:"widgets"){pullRequests(first:5,after:"bogus"){totalCount}}}`},
	{query: `query{nodes(ids:["nope"]){id}}`},
}

// postGraphQL sends one GraphQL request as githubv4 does and returns the
// answer: status, headers but the Date and length, and body with the server's address
// replaced.
func postGraphQL(t *testing.T, ts *httptest.Server, query, name string, vars map[string]any) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars, "operationName": name})
	if err != nil {
		t.Error(err)
		return ""
	}
	got := do(t, ts, "POST", "/graphql", string(body))
	got.header.Del("Date")
	got.header.Del("Content-Length") // the addresses in the body may differ in length
	keys := make([]string, 0, len(got.header))
	for k := range got.header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", got.status)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(got.header[k], ", "))
	}
	// The two servers' addresses differ, in the URLs they serve.
	b.Write(bytes.ReplaceAll(got.body, []byte(ts.URL), []byte("http://fake")))
	return b.String()
}

// The document cache changes no answer: the same requests, each twice (the
// second from the cache), to a server that parses every request and to
// one that does not, get the same bytes, headers and status; and servers
// answering at once share the cached documents safely (go test -race).
func TestGraphQLDocumentCacheChangesNoAnswer(t *testing.T) {
	t.Parallel()
	plain, plainTS := rich(t)
	plain.parseEveryRequest = true
	_, cachedTS := rich(t)
	for round := range 2 {
		for i, q := range sameAnswerQueries {
			want := postGraphQL(t, plainTS, q.query, q.name, q.vars)
			got := postGraphQL(t, cachedTS, q.query, q.name, q.vars)
			if got != want {
				t.Errorf("round %d, query %d: cached answer\n%s\nwant\n%s", round, i, got, want)
			}
		}
	}
	// Servers answering at once share the cached documents.
	want := make([]string, len(sameAnswerQueries))
	_, refTS := rich(t)
	for i, q := range sameAnswerQueries {
		want[i] = postGraphQL(t, refTS, q.query, q.name, q.vars)
	}
	var wg sync.WaitGroup
	for range 4 {
		_, ts := rich(t)
		wg.Go(func() {
			for i, q := range sameAnswerQueries {
				if got := postGraphQL(t, ts, q.query, q.name, q.vars); got != want[i] {
					t.Errorf("concurrent query %d:\n%s\nwant\n%s", i, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}

// plainObj is the reference encoding of an answer's object: every key and
// value through encodeJSON (encoding/json, no HTML escaping), nested
// objects too, as the executor's objects were written before the one-pass
// writer.
type plainObj struct {
	keys []string
	vals []any
}

func (m *plainObj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := plainJSON(k)
		vj, err := plainJSON(m.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// toPlain swaps the executor's objects for plainObj, in lists too.
func toPlain(v any) any {
	switch v := v.(type) {
	case *omap:
		if v == nil {
			return (*plainObj)(nil)
		}
		p := &plainObj{keys: v.keys, vals: make([]any, len(v.vals))}
		for i, e := range v.vals {
			p.vals[i] = toPlain(e)
		}
		return p
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toPlain(e)
		}
		return out
	}
	return v
}

func plainJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(toPlain(v)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// The one-pass writer writes encoding/json's bytes: for strings of every
// kind (HTML characters, controls, U+2028, invalid UTF-8, random bytes),
// for every value an answer holds, and for the answers the executor builds.
func TestGraphQLAnswerJSONIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	strs := []string{"", "plain", `"quoted" \back\slash`, "<a href='x'>&amp;</a>", "tab\there\nnew\rret\bbs\fff",
		"\x00\x01\x1f\x7f", "é日本🎉", "\u2028line\u2029para", "bad\xffutf8\xc3", "\xe2\x80", "end\\"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		strs = append(strs, string(b))
	}
	for _, s := range strs {
		want, _ := plainJSON(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
	inner := &omap{}
	inner.set("s", "x<y>\n")
	inner.set("nil", nil)
	obj := &omap{}
	for k, v := range map[string]any{"int": 42, "neg": int64(-7), "t": true, "f": false, "float": 1.5, "empty": []any{},
		"nilList": []any(nil), "list": []any{1, "two", nil, inner, []any{false}}, "obj": inner, "nilObj": (*omap)(nil),
		"errs": []gqlError{{Type: "NOT_FOUND", Path: []any{"a", 1}, Message: "<no>"}}, "map": map[string]any{"b": 1, "a": "&"}} {
		obj.set(k, v)
	}
	checkEncoding(t, "values", obj)

	s, _ := rich(t)
	syn := Synthetic(120, 7, t0)
	for i, q := range sameAnswerQueries {
		for _, srv := range []*Server{s, syn} {
			body, _ := json.Marshal(map[string]any{"query": q.query, "variables": q.vars, "operationName": q.name})
			c := &call{r: httptest.NewRequest("POST", "/graphql", nil), body: body, html: "http://fake", api: "http://fake"}
			srv.mu.Lock()
			c.now = srv.nowLocked()
			rep := srv.graphql(c)
			srv.mu.Unlock()
			checkEncoding(t, fmt.Sprintf("query %d", i), rep.body)
		}
	}
}

func checkEncoding(t *testing.T, what string, v any) {
	t.Helper()
	want, err := plainJSON(v)
	if err != nil {
		t.Fatalf("%s: reference: %v", what, err)
	}
	got, err := encodeJSON(v)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: %s (%v)\nwant %s", what, got, err, want)
	}
}
