package fakegithub

import (
	"net/http/httptest"
	"strings"
	"testing"
)

const commitsQuery = `query($owner:String!$name:String!$n:Int!){rateLimit{cost} repository(owner:$owner,name:$name){pullRequest(number:$n){` +
	`commits(last:100){totalCount nodes{commit{oid author{name email user{login}} parents(first:1){nodes{oid}}}}}}}}`

// PullRequest.commits serves the commits the head reaches, oldest first,
// each with the commit it was pushed on, whatever their git dates; with
// each one's parents it costs 1 point.
func TestGraphQLPullRequestCommits(t *testing.T) {
	t.Parallel()
	s := New(Options{Owner: "octo-org", Repo: "widgets", Clock: NewClock(t0)})
	n := s.AddPR(Issue{User: Person("alice"), CreatedAt: daysAgo(60)})
	first := s.MustIssue(n).HeadSHA
	old := s.PushAs(n, Person("alice"), daysAgo(90), "made long ago") // pushed now, dated before the PR
	fix := s.PushAs(n, Bot("pre-commit-ci[bot]"), daysAgo(1), "[pre-commit.ci] auto fixes")
	if head := s.MustIssue(n).HeadSHA; head != fix.SHA {
		t.Fatalf("head %s, want the last push %s", head, fix.SHA)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)

	var d struct {
		RateLimit  struct{ Cost int }
		Repository struct {
			PullRequest struct {
				Commits struct {
					TotalCount int
					Nodes      []struct {
						Commit struct {
							Oid     string
							Author  struct{ User *struct{ Login string } }
							Parents struct {
								Nodes []struct{ Oid string }
							}
						}
					}
				}
			}
		}
	}
	gql(t, ts, commitsQuery, withVars(map[string]any{"n": n})).into(t, &d)
	c := d.Repository.PullRequest.Commits
	if d.RateLimit.Cost != 1 || c.TotalCount != 3 || len(c.Nodes) != 3 {
		t.Fatalf("cost %d, %d commits (%d served): want 1 point and 3", d.RateLimit.Cost, c.TotalCount, len(c.Nodes))
	}
	var oids, parents, users []string
	for _, nd := range c.Nodes {
		oids = append(oids, nd.Commit.Oid)
		p, u := "", ""
		if len(nd.Commit.Parents.Nodes) > 0 {
			p = nd.Commit.Parents.Nodes[0].Oid
		}
		if nd.Commit.Author.User != nil {
			u = nd.Commit.Author.User.Login
		}
		parents, users = append(parents, p), append(users, u)
	}
	if got, want := strings.Join(oids, " "), strings.Join([]string{first, old.SHA, fix.SHA}, " "); got != want {
		t.Errorf("commits %s, want %s (oldest first, in the order pushed)", got, want)
	}
	if parents[1] != first || parents[2] != old.SHA {
		t.Errorf("parents %q: want each commit on the one pushed before it", parents)
	}
	if users[0] != "alice" || users[1] != "alice" || users[2] != "" {
		t.Errorf("authors' accounts %q: want alice, alice, none for the bot", users)
	}
}

// A query nested deeper than 25 fields is refused, as GitHub refuses it.
func TestGraphQLMaxDepth(t *testing.T) {
	t.Parallel()
	_, ts := rich(t)
	deep := func(levels int) string {
		q := "oid"
		for range levels {
			q = "oid parents(first:1){nodes{" + q + "}}"
		}
		return `query($owner:String!$name:String!){repository(owner:$owner,name:$name){pullRequest(number:1){` +
			`commits(last:1){nodes{commit{` + q + `}}}}}}`
	}
	// repository, pullRequest, commits, nodes, commit: 5; each level 2; oid 1.
	if r := gql(t, ts, deep(9), withVars(nil)); len(r.Errors) != 0 {
		t.Errorf("depth 24: %s", r.raw)
	}
	r := gql(t, ts, deep(10), withVars(nil))
	if len(r.Errors) != 1 || r.Errors[0].Message != "Query has depth of 26, which exceeds max depth of 25" {
		t.Errorf("depth 26: %s", r.raw)
	}
}

// The Commits faults act on the ancestry read only: a page of pull
// requests is served.
func TestGraphQLFaultCommits(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Times: 5, Fault: &Fault{GraphQL: &GraphQLFault{Kind: GraphQLPartial, Commits: true}}})
	if got := listing(t, ts, 10, nil); len(got) == 0 {
		t.Fatal("a page was not served")
	}
	r := gql(t, ts, commitsQuery, withVars(map[string]any{"n": 1}))
	// commits is non-null: its error nulls the pull request, as GitHub's.
	if len(r.Errors) != 1 || !strings.Contains(r.raw, `"pullRequest":null`) {
		t.Errorf("%s: want one error, the pull request null", r.raw)
	}
}
