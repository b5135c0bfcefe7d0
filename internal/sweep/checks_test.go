package sweep_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
)

// TestTurnChecksFail: with author-turn-when-checks-fail, through the HTTP
// path, a completed, failing, required check on the head commit after the
// author's last push puts the PR on its author's turn (under author-turn, it
// is marked once that turn is old enough); a pending, optional, re-run-green
// check, or a failure on an older commit, does not; nor does any failure with
// the input off. The listing reads the checks in its pages and asks whether
// the failing ones are required in one query per page, not per PR.
func TestTurnChecksFail(t *testing.T) {
	t.Parallel()
	type checkCase struct {
		name   string
		setup  func(w *world) int
		marked bool
	}
	failed := fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)}
	cases := []checkCase{
		{"a failing required check after the last push: the author's turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.Push(n, "alice", daysAgo(30), "add the feature")
			w.fake.AddCheck(n, failed)
			return n
		}, true},
		{"a failing required commit status: the author's turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "ci/legacy", Conclusion: "ERROR", At: daysAgo(20)})
			return n
		}, true},
		{"pending: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "IN_PROGRESS"})
			return n
		}, false},
		{"an optional check's failure: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "lint", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(20)})
			return n
		}, false},
		{"failed, then re-run green: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, failed)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: daysAgo(19)})
			return n
		}, false},
		{"a failure on an older commit: the reviewers' turn", func(w *world) int {
			n := w.openPR(60, alice)
			w.fake.AddCheck(n, fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: daysAgo(40)})
			w.fake.Push(n, "alice", daysAgo(30), "fix the test")
			return n
		}, false},
	}
	inputs := maps.Clone(authorTurnInputs)
	inputs["author-turn-when-checks-fail"] = "true"
	run := func(inputs map[string]string) (*world, []int) {
		w := turnWorld(t)
		w.fake.SetRequiredChecks("test", "ci/legacy")
		prs := make([]int, len(cases))
		for i, c := range cases {
			prs[i] = c.setup(w)
		}
		if res := w.run(inputs); !res.OK() {
			t.Fatalf("run: failed %+v, stopped %v", res.Failed(), res.Stopped)
		}
		return w, prs
	}
	on, prs := run(inputs)
	for i, c := range cases {
		if got := on.hasLabel(prs[i], "stale"); got != c.marked {
			t.Errorf("%s: #%d marked = %v, want %v", c.name, prs[i], got, c.marked)
		}
	}
	if cs := on.fake.Comments(prs[0]); len(cs) == 0 || !strings.Contains(cs[0].Body, "with the required check test failing") {
		t.Errorf("the notice does not name the failing check: %+v", cs)
	}
	off, prs := run(authorTurnInputs)
	for i, c := range cases {
		if off.hasLabel(prs[i], "stale") {
			t.Errorf("input off, %s: #%d marked", c.name, prs[i])
		}
	}
	// One listing page either way, and one query more with the input on:
	// whether the page's three failing checks are required.
	gql := func(w *world) int {
		n := 0
		for _, r := range w.fake.Requests() {
			if r.Path == "/graphql" || strings.HasSuffix(r.Path, "/graphql") {
				n++
			}
		}
		return n
	}
	if got, want := gql(on), gql(off)+1; got != want {
		t.Errorf("GraphQL requests with the input on: %d, want %d (off: %d)", got, want, gql(off))
	}
	if got, want := on.fake.GraphQLPoints(), off.fake.GraphQLPoints()+1; got != want {
		t.Errorf("GraphQL points with the input on: %d, want %d (off: %d)", got, want, off.fake.GraphQLPoints())
	}
}
