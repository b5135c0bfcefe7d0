package ghapi_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stalepr/stalepr/internal/fakegithub"
	"github.com/stalepr/stalepr/internal/lifecycle"
	"github.com/stalepr/stalepr/internal/sweep"
)

// TestLinksRead: Links reads the issues each PR closes when merged, as
// GitHub links them, with their labels, assignees and authors, 21 PRs for
// one point; a PR linking more than it reads, or an issue whose labels
// were cut short, says so; a PR GitHub does not answer for is left out
// (unknown). The listing's pages do not read them: they stay 74 PRs.
func TestLinksRead(t *testing.T) {
	t.Parallel()
	fake := newFake()
	fake.SetPermission("carol", "write")
	day := lifecycle.Day
	issue := func(title, by string, labels ...string) int {
		return fake.AddIssue(fakegithub.Issue{Title: title, User: fakegithub.Person(by), Labels: labels, CreatedAt: t0.Add(-30 * day)})
	}
	accepted := issue("Crash", "carol", "accepted")
	plain := issue("Typo", "erin")
	var many []string
	for i := range 21 {
		many = append(many, fmt.Sprintf("area-%02d", i))
	}
	crowded := issue("Everything", "erin", many...)
	extra := issue("More", "erin")
	pr := func(body string) int {
		return fake.AddPR(fakegithub.Issue{Title: "x", Body: body, User: fakegithub.Person("dave"), CreatedAt: t0.Add(-2 * day), UpdatedAt: t0.Add(-2 * day)})
	}
	linksAccepted := pr(fmt.Sprintf("Fixes #%d", accepted))
	linksNothing := pr("An improvement nobody asked for.")
	linksFour := pr(fmt.Sprintf("Fixes #%d, fixes #%d, fixes #%d, fixes #%d", plain, extra, accepted, crowded))
	linksCrowded := pr(fmt.Sprintf("Closes #%d", crowded))
	numbers := []int{linksAccepted, linksNothing, linksFour, linksCrowded}
	for len(numbers) < sweep.LinksPerRead-1 {
		numbers = append(numbers, pr(""))
	}
	numbers = append(numbers, 9999) // no such PR: GitHub answers null and an error
	c := serve(t, fake, "/api/v3")
	ctx := context.Background()

	byNumber, err := c.Links(ctx, numbers)
	if err != nil {
		t.Fatal(err)
	}
	got := byNumber[linksAccepted]
	if !got.Read || got.More || len(got.Issues) != 1 || got.Issues[0].Number != accepted || got.Issues[0].Author != "carol" ||
		!slices.Equal(got.Issues[0].Labels, []string{"accepted"}) || got.Issues[0].Partial {
		t.Errorf("#%d links %+v, want #%d by carol labelled accepted", linksAccepted, got, accepted)
	}
	if got := byNumber[linksNothing]; !got.Read || got.More || len(got.Issues) != 0 {
		t.Errorf("#%d links %+v, want read and none", linksNothing, got)
	}
	if got := byNumber[linksFour]; !got.Read || !got.More || len(got.Issues) != 3 {
		t.Errorf("#%d links %+v, want 3 read and more", linksFour, got)
	}
	if got := byNumber[linksCrowded]; len(got.Issues) != 1 || !got.Issues[0].Partial {
		t.Errorf("#%d links %+v, want one issue, partly read", linksCrowded, got)
	}
	if l, ok := byNumber[9999]; ok {
		t.Errorf("#9999, which GitHub did not answer for, read as %+v: want unknown", l)
	}
	if points := c.Usage().Points; points != 1 {
		t.Errorf("%d PRs' links cost %d points, want 1", len(numbers), points)
	}
	if _, err := c.Links(ctx, append(numbers, 1)); err == nil {
		t.Errorf("Links of %d PRs in one query: no error", len(numbers)+1)
	}

	before := c.Usage().Points
	listed, _, err := c.OpenPulls(ctx, sweep.Query{State: "open", Sort: "created", Direction: "asc"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.PR.Links.Read {
			t.Fatalf("#%d: links read in the listing", l.PR.Number)
		}
	}
	if points := c.Usage().Points - before; points != 1 || len(listed) != len(numbers)-1 {
		t.Errorf("a page of %d PRs cost %d points, want all %d for 1", len(listed), points, len(numbers)-1)
	}
}
