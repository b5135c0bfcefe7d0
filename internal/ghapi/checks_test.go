package ghapi_test

import (
	"context"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// Checks reads several PRs' checks in one query, each with whether GitHub
// requires it for that PR; a PR GitHub answers with an error for is left
// out (unknown), never taken for one without failures, and the others are
// still read. A PR on whose head no check ever ran (a null rollup) has
// checks known to be none, of its head. The listing with Query.Checks marks the PRs whose rollup
// state is failing, and only those.
func TestChecksReadsFailingPRsInOneQuery(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.SetRequiredChecks("test")
	add := func(title string, checks ...fakegithub.Check) int {
		n := fake.AddPR(fakegithub.Issue{Title: title, User: fakegithub.Person("alice"), CreatedAt: t0.Add(-30 * lifecycle.Day)})
		for _, c := range checks {
			fake.AddCheck(n, c)
		}
		return n
	}
	failing := add("failing", fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "FAILURE", At: t0.Add(-lifecycle.Day)},
		fakegithub.Check{Name: "lint", Status: "COMPLETED", Conclusion: "FAILURE", At: t0.Add(-lifecycle.Day)})
	passing := add("passing", fakegithub.Check{Name: "test", Status: "COMPLETED", Conclusion: "SUCCESS", At: t0.Add(-lifecycle.Day)})
	none := add("no checks")
	c := serve(t, fake, "")
	ctx := context.Background()

	listed, _, err := c.OpenPulls(ctx, sweep.Query{State: "open", Sort: "updated", Direction: "asc", Checks: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{failing: true, passing: false, none: false}
	for _, l := range listed {
		if l.ChecksFailing != want[l.PR.Number] {
			t.Errorf("#%d ChecksFailing = %v, want %v", l.PR.Number, l.ChecksFailing, want[l.PR.Number])
		}
	}
	before := fake.Count()
	checks, err := c.Checks(ctx, []int{failing, 999, passing, none})
	if err != nil {
		t.Fatal(err)
	}
	if n := fake.Count() - before; n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if _, ok := checks[999]; ok {
		t.Errorf("a PR GitHub could not read has checks %+v, want none (unknown)", checks[999])
	}
	got := checks[failing]
	if !got.Complete || got.Commit != fake.MustIssue(failing).HeadSHA || len(got.Contexts) != 2 {
		t.Fatalf("checks of #%d = %+v", failing, got)
	}
	for _, x := range got.Contexts {
		req := map[string]lifecycle.Required{"test": lifecycle.RequiredYes, "lint": lifecycle.RequiredNo}[x.Name]
		if x.Required != req || x.Conclusion != "FAILURE" || x.At.IsZero() {
			t.Errorf("check %+v, want required %v, FAILURE, dated", x, req)
		}
	}
	if p := checks[passing]; !p.Complete || len(p.Contexts) != 1 {
		t.Errorf("checks of #%d = %+v, want its one context", passing, p)
	}
	if n := checks[none]; !n.Complete || n.Commit != fake.MustIssue(none).HeadSHA || len(n.Contexts) != 0 {
		t.Errorf("checks of #%d, no check ever ran = %+v, want complete and empty, of its head", none, n)
	}
}
