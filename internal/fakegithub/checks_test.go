package fakegithub

import (
	"fmt"
	"slices"
	"testing"
)

// The head commit's rollup lists its check runs and commit statuses, re-runs
// included, and its state is failing when one of them is; isRequired follows the base branch's required checks and, as on
// GitHub, needs the pull request it is asked for; a node ID reads a check
// again.
func TestGraphQLStatusCheckRollup(t *testing.T) {
	t.Parallel()
	s, ts := rich(t)
	s.SetRequiredChecks("test")
	head := s.AddCheck(5, Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(3)})
	s.AddCheck(5, Check{Name: "lint", Status: "IN_PROGRESS"})
	s.AddCheck(5, Check{Name: "ci/legacy", Conclusion: "ERROR", At: daysAgo(2)})
	const q = `query($owner: String!, $name: String!, $n: Int!) { repository(owner: $owner, name: $name) {
		pullRequest(number: $n) { headRefOid statusCheckRollup { state commit { oid } contexts(first: 10) { totalCount nodes {
			__typename
			... on CheckRun { id name status conclusion completedAt isRequired(pullRequestNumber: $n) }
			... on StatusContext { id context state createdAt isRequired(pullRequestNumber: $n) } } } } } } }`
	var out struct {
		Repository struct {
			PullRequest struct {
				HeadRefOid        string
				StatusCheckRollup *struct {
					State    string
					Commit   struct{ Oid string }
					Contexts struct {
						TotalCount int
						Nodes      []struct {
							Typename                                  string `json:"__typename"`
							ID, Name, Status, Conclusion, CompletedAt string
							Context, State, CreatedAt                 string
							IsRequired                                bool
						}
					}
				}
			}
		}
	}
	gql(t, ts, q, withVars(map[string]any{"n": 5})).into(t, &out)
	pr := out.Repository.PullRequest
	if pr.StatusCheckRollup == nil || pr.StatusCheckRollup.Commit.Oid != head || pr.HeadRefOid != head {
		t.Fatalf("rollup %+v of %s, want the head %s's", pr.StatusCheckRollup, pr.HeadRefOid, head)
	}
	if pr.StatusCheckRollup.State != "FAILURE" {
		t.Errorf("rollup state %s, want FAILURE", pr.StatusCheckRollup.State)
	}
	var got []string
	for _, n := range pr.StatusCheckRollup.Contexts.Nodes {
		got = append(got, fmt.Sprintf("%s %s%s %s/%s %s%s %v", n.Typename, n.Name, n.Context, n.Status, n.Conclusion+n.State,
			n.CompletedAt, n.CreatedAt, n.IsRequired))
	}
	want := []string{
		"CheckRun test COMPLETED/FAILURE " + ts3(daysAgo(3)) + " true",
		"CheckRun lint IN_PROGRESS/  false",
		"StatusContext ci/legacy /ERROR " + ts3(daysAgo(2)) + " false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("contexts\n%q, want\n%q", got, want)
	}
	id := pr.StatusCheckRollup.Contexts.Nodes[0].ID
	var byID struct {
		Node struct{ IsRequired bool }
	}
	gql(t, ts, `query($id: ID!, $n: Int!) { node(id: $id) { ... on CheckRun { isRequired(pullRequestNumber: $n) } } }`,
		map[string]any{"id": id, "n": 5}).into(t, &byID)
	if !byID.Node.IsRequired {
		t.Errorf("node(%s) isRequired false, want true", id)
	}
	r := gql(t, ts, `query($id: ID!) { node(id: $id) { ... on CheckRun { isRequired } } }`, map[string]any{"id": id})
	if len(r.Errors) != 1 || r.Errors[0].Type != "UNPROCESSABLE" {
		t.Errorf("isRequired without a pull request: %s, want GitHub's UNPROCESSABLE", r.raw)
	}
	var none struct {
		Repository struct {
			PullRequest struct{ StatusCheckRollup any }
		}
	}
	gql(t, ts, `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequest(number: 6) { statusCheckRollup { id } } } }`,
		repoVars).into(t, &none)
	if none.Repository.PullRequest.StatusCheckRollup != nil {
		t.Errorf("a head without checks: rollup %v, want null", none.Repository.PullRequest.StatusCheckRollup)
	}
}

func ts3(t interface{ Format(string) string }) string { return t.Format("2006-01-02T15:04:05Z") }
