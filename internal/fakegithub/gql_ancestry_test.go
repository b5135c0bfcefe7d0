package fakegithub

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// Repository.object(oid:) serves a head commit and its parents, the chain
// the pushes made whatever their git dates; an unknown oid is null. Ten
// nested parents(first:1) are ten requests: 1 point.
func TestGraphQLObjectParents(t *testing.T) {
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

	const level = `oid author{name email user{login}} committer{user{login}}`
	parents := level
	for range 9 {
		parents = level + ` parents(first:1){totalCount nodes{` + parents + `}}`
	}
	query := `query($owner:String!$name:String!$oid:GitObjectID!){rateLimit{cost} repository(owner:$owner,name:$name){object(oid:$oid){__typename ...on Commit{` + parents + `}}}}`

	type commit struct {
		Oid    string
		Author struct {
			Name  string
			Email string
			User  *struct{ Login string }
		}
		Parents struct {
			TotalCount int
			Nodes      []commit
		}
	}
	var d struct {
		RateLimit  struct{ Cost int }
		Repository struct {
			Object *struct {
				Typename string `json:"__typename"`
				commit
			}
		}
	}
	gql(t, ts, query, withVars(map[string]any{"oid": fix.SHA})).into(t, &d)
	if d.RateLimit.Cost != 1 || d.Repository.Object == nil || d.Repository.Object.Typename != "Commit" {
		t.Fatalf("cost %d, object %+v: want a Commit for 1 point", d.RateLimit.Cost, d.Repository.Object)
	}
	var chain []string
	var users []string
	for c := &d.Repository.Object.commit; ; c = &c.Parents.Nodes[0] {
		chain = append(chain, c.Oid)
		u := ""
		if c.Author.User != nil {
			u = c.Author.User.Login
		}
		users = append(users, u)
		if len(c.Parents.Nodes) == 0 {
			break
		}
	}
	if want := []string{fix.SHA, old.SHA, first}; strings.Join(chain[:min(3, len(chain))], " ") != strings.Join(want, " ") {
		t.Fatalf("chain %v, want %v first", chain, want)
	}
	if users[0] != "" || users[1] != "alice" || users[2] != "alice" {
		t.Errorf("authors' accounts %q: want none for the bot, alice for hers and the PR's first head", users)
	}

	var none struct {
		Repository struct{ Object *struct{ Oid string } }
	}
	gql(t, ts, `query($owner:String!$name:String!$oid:GitObjectID!){repository(owner:$owner,name:$name){object(oid:$oid){oid}}}`,
		withVars(map[string]any{"oid": strings.Repeat("0", 40)})).into(t, &none)
	if none.Repository.Object != nil {
		t.Errorf("an unknown oid: %+v, want null", none.Repository.Object)
	}
}

// The Object faults act on the ancestry read only: a page of pull requests
// is served.
func TestGraphQLFaultObject(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.InjectFault(FaultRule{Route: "POST /graphql", Times: 5, Fault: &Fault{GraphQL: &GraphQLFault{Kind: GraphQLPartial, Object: true}}})
	if got := listing(t, ts, 10, nil); len(got) == 0 {
		t.Fatal("a page was not served")
	}
	head := s.MustIssue(1).HeadSHA
	r := gql(t, ts, `query($owner:String!$name:String!$oid:GitObjectID!){repository(owner:$owner,name:$name){object(oid:$oid){oid}}}`,
		withVars(map[string]any{"oid": head}))
	if len(r.Errors) != 1 || len(r.Errors[0].Path) != 2 || r.Errors[0].Path[1] != "object" {
		t.Errorf("%s: want one error on repository.object", r.raw)
	}
}
